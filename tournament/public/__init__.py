"""The public pages that read more than the competition: an entry's page (its matches, standing, knock-out path
and the rulings at its tables) and find me. Above the competition and the rulings, so that neither imports
the other's pages."""
