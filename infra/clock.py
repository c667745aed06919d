"""The one place the system reads the current time from.

Clocks, deadlines and lateness call :func:`now`; tests freeze it with :func:`frozen`. A time typed on a page
("2026-12-05 09:30") is read by :func:`typed_time`.
"""
import contextlib
import datetime as dt

from django.utils import timezone
from django.utils.dateparse import parse_datetime

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


def typed_time(text) -> dt.datetime | None:
    """A time typed on a page ("2026-12-05 09:30" or "2026-12-05T09:30"), in the site's time zone unless it
    names its offset; None for an empty text. Raises ValueError for anything else, a day that does not
    exist (2026-02-30) included."""
    text = (text or "").strip()
    if not text:
        return None
    value = parse_datetime(text.replace(" ", "T"))   # ValueError: well formed, no such day or hour
    if value is None:
        raise ValueError(f"not a time: {text!r}")
    return timezone.make_aware(value) if timezone.is_naive(value) else value
