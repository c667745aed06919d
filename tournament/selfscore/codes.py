"""The sides' codes: a short number per (match, side), handed to that pair alone on its own slip.

    issue_code(match, side, by) -> str                 a new code (the old one dies); shown once
    issue_round_codes(rnd, by, tables=None) -> [Issued]  a code for both sides of every table of the round
    side_of(match, code, *, address) -> SideCode        the side whose code it is (refusals below)
    owner_of(match_id, code) -> SideCode | None         the same without counting or refusing (the API's writer)

Only a keyed hash is stored (HMAC-SHA256 with the site's secret key, over the match, the side and the code): a
copy of the database does not give the codes away, and the check costs microseconds, not a password hash's
tenth of a second on every entry and confirmation of a 2,048-table round. Guessing is bounded by the code's
size (10^8) and by the wrong tries, counted in the cache per table and per address: past
``SELF_SCORING_WRONG_CODES`` tries within ``SELF_SCORING_WRONG_WINDOW`` seconds a wrong code is answered 429
(retry later), while the right code is always taken: a prankster at the next table, or a hall of phones behind
one address, never locks a side out of its own table.

A code works at its match only (the hash names the match: the same table in another round is another match)
and only while the match is open: once it is over, or its round closed, every code of it is refused.
"""
from __future__ import annotations

import secrets
from typing import NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.crypto import constant_time_compare, salted_hmac

from common.errors import ConflictError, ForbiddenError, UserError, gettext_noop
from common.seats import SIDES
from infra import clock
from tournament import access
from tournament.models import Match, SideCode

DIGITS = 8
_SALT = "tractor.selfscore.side-code"


class WrongCode(UserError):
    """A code that is not the side's code in force at this match: HTTP 400 on ``code``."""


class CodesThrottled(UserError):
    """Too many wrong codes at this table or from this address: HTTP 429; ``wait`` seconds to wait."""

    status = 429
    code = "throttled"

    def __init__(self, message, field=None, *, wait=60, **params):
        super().__init__(message, field, **params)
        self.wait = wait


def limit() -> int:
    return int(getattr(settings, "SELF_SCORING_WRONG_CODES", 5))


def window() -> int:
    return int(getattr(settings, "SELF_SCORING_WRONG_WINDOW", 300))


def digest(match_id: int, side: str, code: str) -> str:
    return salted_hmac(_SALT, f"{match_id}:{side}:{code}", algorithm="sha256").hexdigest()


def clean(code) -> str:
    """The code as typed, without spaces or dashes ("1234 5678" is 12345678); "" when it cannot be one."""
    text = "".join(str(code or "").split()).replace("-", "")
    return text if len(text) == DIGITS and text.isascii() and text.isdigit() else ""


def _new_code() -> str:
    return f"{secrets.randbelow(10 ** DIGITS):0{DIGITS}d}"


def may_issue(user, event) -> bool:
    """The desk: a chief referee or an organiser of ``event``."""
    return access.may(user, access.DECIDE_RESULT, event=event) or access.may(user, access.MANAGE, event=event)


def _refuse_issue(user, match) -> None:
    if not may_issue(user, match.round.stage.event):
        raise ForbiddenError(gettext_noop("Only a chief referee or an organiser may issue the sides' codes."))
    if match.ns_id is None or match.ew_id is None:
        raise ConflictError(gettext_noop("This table has no two entries: it needs no codes."), field="match")
    if match.is_over or match.round.results_published_at is not None:
        raise ConflictError(gettext_noop("The match is over: its sides need no new code."), field="match")


def issue_code(match, side: str, by) -> str:
    """A new code for ``side`` ("NS" or "EW") at ``match`` (the one it had dies); the plain code, shown once."""
    if side not in SIDES:
        raise UserError(gettext_noop("Choose a side: NS or EW."), field="side")
    match = Match.objects.select_related("round__stage__event").get(pk=match.pk)
    _refuse_issue(by, match)
    code = _new_code()
    SideCode.objects.create(match=match, side=side, digest=digest(match.pk, side, code), issued_by=by,
                            issued_at=clock.now())
    return code


class Issued(NamedTuple):
    """A code as the slip prints it: the table, the side, the code (shown once)."""

    match_id: int
    table: int | None
    side: str
    code: str


def issuable(rnd):
    """The tables of ``rnd`` whose sides get codes: both pairs known, the match not over."""
    return Match.objects.filter(round=rnd, ns__isnull=False, ew__isnull=False).exclude(status__in=Match.OVER)


def issue_round_codes(rnd, by, tables=None) -> list[Issued]:
    """New codes for both sides of every open table of ``rnd`` (``tables``: those table numbers only), for the
    round's slips; every older code of those tables dies."""
    if not may_issue(by, rnd.stage.event):
        raise ForbiddenError(gettext_noop("Only a chief referee or an organiser may issue the sides' codes."))
    query = issuable(rnd)
    if tables:
        query = query.filter(table__in=list(tables))
    matches = list(query.order_by("table"))
    now, rows, issued = clock.now(), [], []
    for match in matches:
        for side in SIDES:
            code = _new_code()
            rows.append(SideCode(match=match, side=side, digest=digest(match.pk, side, code), issued_by=by,
                                 issued_at=now))
            issued.append(Issued(match.pk, match.table, side, code))
    with transaction.atomic():
        SideCode.objects.bulk_create(rows, batch_size=500)
    return issued


def _in_force(match_id) -> dict:
    """{side: SideCode} of the codes in force at the match (the newest row of each side)."""
    newest = {}
    for row in SideCode.objects.filter(match_id=match_id).order_by("side", "-pk"):
        newest.setdefault(row.side, row)
    return newest


def _replaced(match_id, code) -> bool:
    """Was ``code`` a code of this match that the desk has replaced since (a side's old slip)?"""
    code = clean(code)
    return bool(code) and any(constant_time_compare(row.digest, digest(match_id, row.side, code))
                              for row in SideCode.objects.filter(match_id=match_id).only("side", "digest"))


def owner_of(match_id, code) -> SideCode | None:
    """The side's code in force that ``code`` is at ``match_id`` (None otherwise): nothing counted."""
    code = clean(code)
    if not code:
        return None
    for side, row in _in_force(match_id).items():
        if constant_time_compare(row.digest, digest(match_id, side, code)):
            return row
    return None


def _keys(match_id, address) -> list[str]:
    return [f"selfscore:wrong:table:{match_id}", f"selfscore:wrong:addr:{address or '-'}"]


def _count_wrong(keys) -> int:
    """One more wrong try under each key (a window from the first); the highest count."""
    counts = []
    for key in keys:
        cache.add(key, 0, timeout=window())
        try:
            counts.append(cache.incr(key))
        except ValueError:   # expired between add and incr
            cache.set(key, 1, timeout=window())
            counts.append(1)
    return max(counts)


def wrong_tries(match_id, address) -> int:
    """The wrong tries counted now at the table or from the address (the higher)."""
    return max(cache.get(key, 0) for key in _keys(match_id, address))


def check_open(match) -> None:
    """A side's code works only while its match is open: refused once it is over or its round closed."""
    if match.is_over or match.round.results_published_at is not None:
        raise ConflictError(gettext_noop("The match is over: the sides' codes no longer work here."),
                            field="code")


def side_of(match, code, *, address: str) -> SideCode:
    """The side's code in force at ``match`` that ``code`` is (``match`` read with its round). Refused: the
    match over (409), a wrong code (400, counted; a code the desk replaced says so, ``code_replaced``), a wrong
    code past the limit (429, counted)."""
    check_open(match)
    found = owner_of(match.pk, code)
    if found is not None:
        return found
    if _count_wrong(_keys(match.pk, address)) > limit():
        raise CodesThrottled(gettext_noop("Too many wrong codes at this table: wait %(minutes)s minutes, then "
                                          "type the code again."), field="code", wait=window(),
                             minutes=max(1, window() // 60))
    if _replaced(match.pk, code):
        raise WrongCode(gettext_noop("This code was replaced: the desk gave your side a new slip. Type the code on "
                                     "the new slip."), field="code", error_code="code_replaced")
    raise WrongCode(gettext_noop("This is not a code of this table in this round. Check the slip the desk "
                                 "gave your side."), field="code")
