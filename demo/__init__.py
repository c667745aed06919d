"""Demo data: an event with entries, a played competition, hands, rulings and a running clock."""
