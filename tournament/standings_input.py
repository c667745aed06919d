"""Moved to :mod:`tournament.engines.standings_input`; this path stays for the callers of its contract names.

Every public name of the engine module, re-exported (new code imports ``tournament.engines.standings_input``)."""
from tournament.engines import standings_input as _engine

globals().update({name: value for name, value in vars(_engine).items() if not name.startswith("_")})
