"""Reading the hall clocks' records: a round's rule (profile, then the organiser's overrides), its clock
marks, the tables still playing. Writes live in ``services``; the round whose clock runs now is
``tournament.competition.rounds.current_clock_round``."""
from __future__ import annotations

from tournament.engines import clock as clocks
from tournament.models import ClockEvent, EventClockSettings, Match, Round, RoundClock
from tournament.records.adjustments import match_replay


def round_with_event(round_or_id):
    if isinstance(round_or_id, Round):
        return round_or_id
    return Round.objects.select_related("stage__event__profile").get(pk=round_or_id)


def clock_rule(rnd, round_clock=None) -> clocks.ClockRule:
    """The round's rule: the event profile's timing, then the event's and the round's overrides."""
    rnd = round_with_event(rnd)
    event = rnd.stage.event
    layers = []
    event_settings = EventClockSettings.objects.filter(event=event).first()
    if event_settings is not None:
        layers.append(event_settings.overrides())
    if round_clock is None:
        round_clock = RoundClock.objects.filter(round=rnd).first()
    if round_clock is not None:
        layers.append(round_clock.overrides())
    return clocks.merge_rule(event.profile.data.get("timing", {}), *layers)


def marks_of(round_id) -> list:
    """The round's clock events as pure :class:`clocks.Mark` s, in time order."""
    rows = ClockEvent.objects.filter(round_id=round_id).order_by("at", "id").values_list(
        "kind", "at", "seconds", "match_id")
    return [mark(*row) for row in rows]


def mark(kind, at, seconds, match_id):
    return clocks.Mark(kind, at, seconds if kind in (clocks.ADD, clocks.TABLE_EXTRA) else 0, match_id)


def live_matches(round_id=None):
    """The tables still playing (both entries present and not over): of one round, or of every round."""
    matches = Match.objects.filter(ns__isnull=False, ew__isnull=False).exclude(status__in=Match.OVER)
    return matches if round_id is None else matches.filter(round_id=round_id)


def live_matches_without_allowance(round_id=None):
    """The tables still playing whose hands are not limited yet (no HandAllowance fixed)."""
    return live_matches(round_id).filter(hand_allowance__isnull=True)
def hands_recorded(match) -> int:
    """Hands played (or decided by a ruling) so far at this table."""
    return match_replay(match).state.hand_count
