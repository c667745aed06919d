"""Moved to :mod:`tournament.engines.crosstable`; this path stays for the callers of its contract names.

Every public name of the engine module, re-exported (new code imports ``tournament.engines.crosstable``)."""
from tournament.engines import crosstable as _engine

globals().update({name: value for name, value in vars(_engine).items() if not name.startswith("_")})
