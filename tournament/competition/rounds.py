"""Closing a round: its results are published, table referees can no longer write, the appeal deadline
starts (counted from that moment, ``rulings.appeals.appeal_deadline_for``). Reopening is a chief's act
with a reason. Both are append-only :class:`~tournament.models.RoundClosure` rows; ``Round.
results_published_at`` mirrors the latest and is written here only.

    published_rounds(event) -> {stage id: [Published]}   the rounds whose results are published, for the
                                                         public pages ("成绩已公布 <time>")
    stage_published_at(stage) -> datetime | None        when the last round of a stage was published, once
                                                         every round of it is
    round_status(rnd, clock_started, matches) -> str     not_started / in_progress / closed: the one status
                                                         of a round
    status_of_round(rnd) -> str                          the same, its clock and tables read from the database
    table_status(round_status, clock_started, ...) -> str  what one table of the round shows: not started /
                                                         playing / finished, never ahead of the round
    current_clock_round(event) -> Round | None           the round whose hall clock runs now (started, its
                                                         end not fired)

Every page that says where a round or its tables stand (the table page's clock, the chief's desk and clock
page, the hall display, the API's rounds) takes it from here, so a table never reads "进行中" while its
round has not started, and a hall clock that never ran does not read "未开始" beside finished tables.
"""
from __future__ import annotations

from typing import NamedTuple

from django.db import transaction
from django.db.models import Max, Q

from common.errors import ConflictError, ForbiddenError, UserError, gettext_noop
from infra import clock
from infra.db import lock_row
from tournament import access
from tournament.competition import display_cache
from tournament.models import ClockEvent, ClockFiring, Match, Round, RoundClosure, round_label
from tournament.selfscore import waiting as selfscore_waiting

NOT_STARTED, IN_PROGRESS, CLOSED = "not_started", "in_progress", "closed"
ROUND_STATUSES = [NOT_STARTED, IN_PROGRESS, CLOSED]
ROUND_STATUS_LABELS = {NOT_STARTED: gettext_noop("Round not started"), IN_PROGRESS: gettext_noop("Round in progress"),
                       CLOSED: gettext_noop("Round closed: results published")}

# What one table shows (the desk refines "playing" into last hands, no result, disputed).
TABLE_NOT_STARTED, TABLE_PLAYING, TABLE_FINISHED = "not_started", "playing", "finished"
TABLE_STATUS_LABELS = {TABLE_NOT_STARTED: gettext_noop("Not started"), TABLE_PLAYING: gettext_noop("Playing"),
                       TABLE_FINISHED: gettext_noop("Ended")}


def round_status(rnd, *, clock_started: bool, matches) -> str:
    """A round's one status: closed once its results are published (by the chief), in progress once its
    clock started or a table began (a hand recorded, a result given), not started before."""
    if rnd.results_published_at is not None:
        return CLOSED
    if clock_started or any(m.started_at is not None or m.status in Match.PLAYED for m in matches):
        return IN_PROGRESS
    return NOT_STARTED


def status_of_round(rnd) -> str:
    """:func:`round_status` of ``rnd``, its clock's start and its tables read here (two small queries)."""
    clock_started = ClockEvent.objects.filter(round_id=rnd.pk, kind=ClockEvent.Kind.START).exists()
    matches = Match.objects.filter(round_id=rnd.pk).only("status", "started_at")
    return round_status(rnd, clock_started=clock_started, matches=matches)


def table_status(status: str, *, clock_started: bool, over: bool, begun: bool) -> str:
    """What one table of a round in ``status`` shows: finished once over; playing once it began (a hand, a
    result) or while its round's clock has started (every table plays under the hall clock), unless the
    round is closed; not started otherwise — so never "playing" in a round that has not started."""
    if over:
        return TABLE_FINISHED
    if status == NOT_STARTED:
        return TABLE_NOT_STARTED
    if begun or (clock_started and status == IN_PROGRESS):
        return TABLE_PLAYING
    return TABLE_NOT_STARTED


def current_clock_round(event):
    """The event's round whose hall clock has started and whose end has not fired (the latest
    started one), or None. One query."""
    started = Max("clock_events__at", filter=Q(clock_events__kind=ClockEvent.Kind.START))
    return (Round.objects.filter(stage__event=event).annotate(started=started).filter(started__isnull=False)
            .exclude(clock_firings__kind=ClockFiring.Kind.END).select_related("stage")
            .order_by("-started", "-pk").first())


def undecided_tables(rnd) -> list:
    """The round's tables with two entries and no result yet (not over, or over with nobody winning by
    the hands and no decision: a level tie at time-up)."""
    playing = Match.objects.filter(round=rnd, ns__isnull=False, ew__isnull=False)
    open_ = playing.filter(~Q(status__in=Match.OVER) | Q(status=Match.Status.FINISHED, winner__isnull=True))
    return list(open_.order_by("table").values_list("table", flat=True))


def _locked_round(rnd):
    return lock_row(Round.objects.select_related("stage__event"), rnd.pk)


def close_round(rnd, user) -> Round:
    """Publish the round's results (refused while a table has no result, or a hand the players entered waits
    for confirmation or a referee's decision; closing twice changes nothing)."""
    if not access.may(user, access.CLOSE_ROUND, event=rnd.stage.event):
        raise ForbiddenError(gettext_noop("Only a chief referee or an organiser may close a round."))
    with transaction.atomic():
        rnd = _locked_round(rnd)
        if rnd.results_published_at is not None:
            return rnd
        waiting = selfscore_waiting.open_tables(rnd)
        if waiting:
            raise ConflictError(gettext_noop("The round cannot close: table(s) %(tables)s have a hand waiting for "
                                             "confirmation or a dispute open."), field="round",
                                tables=waiting)
        tables = undecided_tables(rnd)
        if tables:
            raise ConflictError(gettext_noop("The round cannot close: table(s) %(tables)s have no result yet."),
                                field="round", tables=tables)
        now = clock.now()
        RoundClosure.objects.create(round=rnd, action=RoundClosure.Action.CLOSE, by=user, at=now)
        rnd.results_published_at = now
        rnd.save(update_fields=["results_published_at"])
        round_id = rnd.pk
        transaction.on_commit(lambda: display_cache.invalidate(round_id))
        return rnd


def reopen_round(rnd, user, reason) -> Round:
    """Take a closed round back (a chief referee, with a reason): its tables can be written again."""
    if not access.may(user, access.DECIDE_RESULT, event=rnd.stage.event):
        raise ForbiddenError(gettext_noop("Only a chief referee may reopen a round."))
    if not (reason or "").strip():
        raise UserError(gettext_noop("Give the reason for reopening the round."), field="reason")
    with transaction.atomic():
        rnd = _locked_round(rnd)
        if rnd.results_published_at is None:
            raise ConflictError(gettext_noop("The round is not closed."), field="round")
        RoundClosure.objects.create(round=rnd, action=RoundClosure.Action.REOPEN, reason=reason.strip()[:300],
                                    by=user, at=clock.now())
        rnd.results_published_at = None
        rnd.save(update_fields=["results_published_at"])
        round_id = rnd.pk
        transaction.on_commit(lambda: display_cache.invalidate(round_id))
        return rnd


class Published(NamedTuple):
    """A round whose results are published, as the public pages name it."""

    round_id: int
    number: int
    name: str
    at: object  # an aware datetime

    @property
    def label(self) -> str:
        return round_label(self.number, self.name)


def published_rounds(event) -> dict:
    """{stage id: [Published, ...] in round order} for the rounds of ``event`` that are closed."""
    out: dict = {}
    rows = (Round.objects.filter(stage__event=event, results_published_at__isnull=False)
            .order_by("stage__order", "number").values_list("stage_id", "pk", "number", "name", "results_published_at"))
    for stage_id, pk, number, name, at in rows:
        out.setdefault(stage_id, []).append(Published(pk, number, name, at))
    return out


def stage_published_at(stage):
    """The moment the stage's results were all published (its last round's closing), or None while a round
    of the stage is still open (or it has none)."""
    times = list(Round.objects.filter(stage=stage).values_list("results_published_at", flat=True))
    if not times or any(at is None for at in times):
        return None
    return max(times)
