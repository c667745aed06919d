"""Moved to :mod:`tournament.engines.unit_standings`; this path stays for the callers of its contract names.

Every public name of the engine module, re-exported (new code imports ``tournament.engines.unit_standings``)."""
from tournament.engines import unit_standings as _engine

globals().update({name: value for name, value in vars(_engine).items() if not name.startswith("_")})
