"""Moved to :mod:`tournament.engines.swiss_matching`; this path stays for the callers of its contract names.

Every public name of the engine module, re-exported (new code imports ``tournament.engines.swiss_matching``)."""
from tournament.engines import swiss_matching as _engine

globals().update({name: value for name, value in vars(_engine).items() if not name.startswith("_")})
