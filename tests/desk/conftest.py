"""Fixtures of the desk tests: the rulings' tables and users, the clock tests' rounds."""
from tests.rulings.conftest import _fast_passwords, make_match, table  # noqa: F401
from tests.tournament.test_clock_fixtures import _fresh_cache  # noqa: F401
