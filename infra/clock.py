"""The one place the system reads the current time from.

Clocks, deadlines and lateness call :func:`now`; tests freeze it with :func:`frozen`.
"""
import contextlib
import datetime as dt

from django.utils import timezone

_frozen = None


def now() -> dt.datetime:
    """The current time (aware, UTC), or the frozen time while a test holds one."""
    return _frozen if _frozen is not None else timezone.now()


@contextlib.contextmanager
def frozen(at: dt.datetime):
    """Freeze :func:`now` at ``at`` inside the block; ``advance`` moves it on."""
    global _frozen
    if timezone.is_naive(at):
        raise ValueError("frozen time must be timezone-aware")
    previous, _frozen = _frozen, at

    class Handle:
        def advance(self, **delta):
            global _frozen
            _frozen = _frozen + dt.timedelta(**delta)
            return _frozen

        @property
        def at(self):
            return _frozen

    try:
        yield Handle()
    finally:
        _frozen = previous
