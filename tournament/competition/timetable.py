"""Round times and referees in bulk: a round's planned start, the same referee at the same table for
every round of a stage, and a table-by-round grid. Every assignment goes through
:func:`tournament.competition.referees.assign_referee` (the one path); a finished match is refused."""
from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction

from common.errors import UserError, gettext_noop
from infra import clock
from tournament import pagecache
from tournament.competition.referees import assign_referee
from tournament.models import Match, Round, Stage


def parse_start(text):
    """A planned start from a form ("2026-12-05T09:30"), in the site's time zone; None for empty."""
    try:
        return clock.typed_time(text)
    except ValueError:
        raise UserError(gettext_noop("Enter a time such as 2026-12-05 09:30."), field="scheduled_start") from None


def set_round_start(rnd: Round, when: dt.datetime | None) -> Round:
    """Set (or clear) a round's planned start."""
    Round.objects.filter(pk=rnd.pk).update(scheduled_start=when)
    pagecache.changed_round(rnd.pk)
    rnd.scheduled_start = when
    return rnd


def grid(stage: Stage):
    """``(rounds, rows)``: the stage's rounds, and per table number ``(table, [match or None per round])``."""
    rounds = list(stage.rounds.order_by("number"))
    matches = (Match.objects.filter(round__stage=stage).exclude(status=Match.Status.BYE)
               .select_related("ns", "ew").prefetch_related("referees"))
    cells: dict = {}
    for m in matches:
        cells.setdefault(m.table or 0, {})[m.round_id] = m
    rows = [(table, [cells[table].get(r.pk) for r in rounds]) for table in sorted(cells)]
    return rounds, rows


@transaction.atomic
def set_cell(match: Match, user) -> None:
    """The match's referee becomes ``user`` (the others leave); None clears it. Refused once the match is over."""
    if match.status in Match.OVER:
        raise UserError(gettext_noop("This match is over: its referees can no longer change."), field="match")
    current = set(match.referees.values_list("pk", flat=True))
    if user is not None and current == {user.pk}:
        return
    if user is not None:
        assign_referee(match, user)
    match.referees.remove(*[pk for pk in current if user is None or pk != user.pk])


def same_table_every_round(stage: Stage, table: int, user) -> tuple[int, list]:
    """Put ``user`` at ``table`` for every round of the stage; returns (matches set, refusals as strings)."""
    done, refused = 0, []
    for match in Match.objects.filter(round__stage=stage, table=table).exclude(status=Match.Status.BYE):
        if match.status in Match.OVER:
            continue
        try:
            set_cell(match, user)
            done += 1
        except UserError as exc:
            refused.append(str(exc))
    return done, refused


def apply_grid(stage: Stage, picks: dict) -> tuple[int, list]:
    """``picks``: {match id: user id or None} from the grid form; unchanged cells are left alone.
    Returns (cells changed, refusals as strings); a refused cell does not stop the others."""
    users = get_user_model().objects.in_bulk([u for u in picks.values() if u])
    changed, refused = 0, []
    matches = Match.objects.filter(round__stage=stage, pk__in=list(picks)).prefetch_related("referees")
    for match in matches:
        want = picks[match.pk]
        have = {u.pk for u in match.referees.all()}
        if (want is None and not have) or (want is not None and have == {want}):
            continue
        try:
            set_cell(match, users.get(want) if want else None)
            changed += 1
        except UserError as exc:
            refused.append(f"{match.table or ''}: {exc}")
    return changed, refused
