"""Developer tooling the checks run (not imported by the site)."""
