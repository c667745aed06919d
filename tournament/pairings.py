"""Moved to :mod:`tournament.engines.pairings`; this path stays for the callers of its contract names.

Every public name of the engine module, re-exported (new code imports ``tournament.engines.pairings``)."""
from tournament.engines import pairings as _engine

globals().update({name: value for name, value in vars(_engine).items() if not name.startswith("_")})
