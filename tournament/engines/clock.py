"""Pure hall-clock arithmetic: no Django, plain values in and out.

A round's hall clock is never a ticking counter. It is the list of recorded :class:`Mark` s (start,
pause, resume, added time, per-table extra time) read at a moment ``now``: the time that has run is
the sum of the running intervals, the length is the rule's match length plus every addition, and
the remaining time is their difference. Restarting any process therefore loses nothing.

The announcement rule (e.g. shenzhen-community: 30 minutes before the end, the hand in play does
not count, then exactly 3 more hands) comes from the profile's ``timing`` section, possibly
overridden by the organiser for the event or the round (:func:`merge_rule`).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from common.errors import UserError, gettext_noop

START, PAUSE, RESUME, ADD, TABLE_EXTRA = "start", "pause", "resume", "add", "table_extra"
KINDS = (START, PAUSE, RESUME, ADD, TABLE_EXTRA)

NOT_STARTED, RUNNING, PAUSED, TIME_UP = "not_started", "running", "paused", "time_up"

# Keys an organiser may override (None = inherit from the profile / the event).
OVERRIDE_KEYS = ("match_minutes", "announce_enabled", "announce_minutes_before_end", "hands_after",
                 "hand_in_play_counts")


@dataclass(frozen=True, slots=True)
class ClockRule:
    """How long a round runs and when and how the end is announced (all in seconds)."""

    match_seconds: int
    announce_before_seconds: int | None = None
    hands_after: int | None = None
    hand_in_play_counts: bool = False
    redeals_count: bool = True      # a redeal (000 第五条) counts among the hands after the announcement

    def __post_init__(self):
        _check_int(self.match_seconds, "match_seconds", 1)
        if (self.announce_before_seconds is None) != (self.hands_after is None):
            raise UserError(gettext_noop("The announcement time and the hands after it go together."),
                            field="announce")
        if self.announce_before_seconds is not None:
            _check_int(self.announce_before_seconds, "announce_before_seconds", 0)
            _check_int(self.hands_after, "hands_after", 0)
            if self.announce_before_seconds >= self.match_seconds:
                raise UserError(gettext_noop("The announcement must come after the start and before the end."),
                                field="announce_before_seconds")
            if self.hand_in_play_counts and self.hands_after < 1:
                raise UserError(gettext_noop("When the hand in play counts, at least 1 hand follows the "
                                             "announcement."), field="hands_after")
        if not isinstance(self.hand_in_play_counts, bool):
            raise UserError(gettext_noop("Say yes or no: does the hand in play count?"), field="hand_in_play_counts")

    @property
    def announces(self) -> bool:
        """True when the rule has an announcement before the end."""
        return self.announce_before_seconds is not None


@dataclass(frozen=True, slots=True)
class Mark:
    """One recorded clock change. ``seconds`` for ADD/TABLE_EXTRA; ``table`` (a match id) for TABLE_EXTRA."""

    kind: str
    at: dt.datetime
    seconds: int = 0
    table: int | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise UserError(gettext_noop("Unknown clock action."), field="kind")
        if not isinstance(self.at, dt.datetime) or self.at.tzinfo is None:
            raise UserError(gettext_noop("The time of a clock change must carry its time zone."), field="at")
        if (self.kind == TABLE_EXTRA) != (self.table is not None):
            raise UserError(gettext_noop("Only extra time for one table names a table."), field="table")
        if self.kind in (ADD, TABLE_EXTRA):
            _check_int(self.seconds, "seconds", None)
            if self.seconds == 0:
                raise UserError(gettext_noop("Added time must not be zero."), field="seconds")


@dataclass(frozen=True, slots=True)
class Reading:
    """The clock read at ``now`` (for the hall, or for one table when ``table`` was given)."""

    status: str                      # not_started / running / paused / time_up
    length: float                    # seconds: match length + additions (+ the table's extra)
    elapsed: float                   # seconds the clock has run
    remaining: float                 # seconds left, never below 0
    ends_at: dt.datetime | None      # wall time of the end while running
    announce_at: dt.datetime | None  # wall time of the announcement while running (may be past)
    announce_due: bool               # the announcement moment has been reached
    end_due: bool                    # the end has been reached


def _check_int(value, name, minimum):
    if not isinstance(value, int) or isinstance(value, bool):
        raise UserError(gettext_noop("Enter a whole number."), field=name)
    if minimum is not None and value < minimum:
        raise UserError(gettext_noop("Enter %(minimum)s or more."), field=name, minimum=minimum)


# --------------------------------------------------------------------------------------------
# The rule: profile timing plus the organiser's overrides
# --------------------------------------------------------------------------------------------
def merge_rule(timing: dict, *overrides: dict) -> ClockRule:
    """The clock rule from a profile's ``timing`` dict and override dicts (later ones win).

    Override keys are :data:`OVERRIDE_KEYS`; a value of None inherits. ValueError (naming the
    field) when no match length is known, e.g. company-league, which writes no time limit.
    """
    announce = timing.get("announce") or {}
    merged = {
        "match_minutes": timing.get("match_minutes"),
        "announce_enabled": bool(announce),
        "announce_minutes_before_end": announce.get("minutes_before_end"),
        "hands_after": announce.get("hands_after"),
        "hand_in_play_counts": announce.get("hand_in_play_counts", False),
    }
    for layer in overrides:
        unknown = set(layer) - set(OVERRIDE_KEYS)
        if unknown:
            raise UserError(gettext_noop("Unknown clock setting."), field=sorted(unknown)[0])
        merged.update({k: v for k, v in layer.items() if v is not None})
    if merged["match_minutes"] is None:
        raise UserError(gettext_noop("These rules set no match length: enter one in the clock settings of the "
                                     "event or the round."), field="match_minutes")
    _check_int(merged["match_minutes"], "match_minutes", 1)
    if not merged["announce_enabled"]:
        return ClockRule(match_seconds=merged["match_minutes"] * 60)
    for key in ("announce_minutes_before_end", "hands_after"):
        if merged[key] is None:
            raise UserError(gettext_noop("Required when the announcement is on."), field=key)
    _check_int(merged["announce_minutes_before_end"], "announce_minutes_before_end", 0)
    return ClockRule(
        match_seconds=merged["match_minutes"] * 60,
        announce_before_seconds=merged["announce_minutes_before_end"] * 60,
        hands_after=merged["hands_after"],
        hand_in_play_counts=bool(merged["hand_in_play_counts"]),
        redeals_count=bool(announce.get("redeals_count", True)),
    )


# --------------------------------------------------------------------------------------------
# Reading the marks
# --------------------------------------------------------------------------------------------
def status_of(marks) -> str:
    """not_started, running or paused, from the start/pause/resume marks alone."""
    state = NOT_STARTED
    for mark in marks:
        if mark.kind == START:
            state = RUNNING
        elif mark.kind == PAUSE:
            state = PAUSED
        elif mark.kind == RESUME:
            state = RUNNING
    return state


def elapsed_seconds(marks, now: dt.datetime) -> float:
    """Seconds the clock has run up to ``now``: the sum of the running intervals."""
    total = 0.0
    running_since = None
    for mark in marks:
        if mark.at > now:
            break
        if mark.kind in (START, RESUME) and running_since is None:
            running_since = mark.at
        elif mark.kind == PAUSE and running_since is not None:
            total += (mark.at - running_since).total_seconds()
            running_since = None
    if running_since is not None:
        total += (now - running_since).total_seconds()
    return total


def length_seconds(rule: ClockRule, marks, table: int | None = None) -> int:
    """The match length plus every hall addition (and, for ``table``, that table's extra time)."""
    total = rule.match_seconds
    for mark in marks:
        if mark.kind == ADD or (mark.kind == TABLE_EXTRA and table is not None and mark.table == table):
            total += mark.seconds
    return total


def table_extra_seconds(marks, table: int) -> int:
    """The extra time granted to one table."""
    return sum(m.seconds for m in marks if m.kind == TABLE_EXTRA and m.table == table)


def read(rule: ClockRule, marks, now: dt.datetime, table: int | None = None) -> Reading:
    """Read the clock at ``now``. Marks must be in time order (as stored)."""
    marks = [m for m in marks if m.at <= now]
    status = status_of(marks)
    length = length_seconds(rule, marks, table)
    elapsed = elapsed_seconds(marks, now)
    remaining = max(0.0, length - elapsed)
    end_due = status != NOT_STARTED and elapsed >= length
    announce_due = rule.announces and status != NOT_STARTED and elapsed >= length - rule.announce_before_seconds
    ends_at = announce_at = None
    if status == RUNNING:
        ends_at = now + dt.timedelta(seconds=length - elapsed)
        if rule.announces:
            announce_at = now + dt.timedelta(seconds=length - rule.announce_before_seconds - elapsed)
    if end_due and status == RUNNING:
        status = TIME_UP
    return Reading(status, length, elapsed, remaining, ends_at, announce_at, announce_due, end_due)


def check_change(rule: ClockRule, marks, now: dt.datetime, kind: str, seconds: int = 0,
                 table: int | None = None) -> Mark:
    """The new :class:`Mark` if ``kind`` is allowed now, else UserError naming why."""
    mark = Mark(kind, now, seconds, table)
    if marks and now < marks[-1].at:
        raise UserError(gettext_noop("A clock change cannot be earlier than the last one."), field="at")
    reading = read(rule, marks, now)
    allowed = {
        START: reading.status == NOT_STARTED,
        PAUSE: reading.status == RUNNING,
        RESUME: reading.status == PAUSED,
        ADD: reading.status in (RUNNING, PAUSED, NOT_STARTED),
        TABLE_EXTRA: True,
    }
    if not allowed[kind]:
        raise UserError(_REFUSED[reading.status], field="kind")
    if kind == ADD and length_seconds(rule, marks + [mark]) <= reading.elapsed:
        raise UserError(gettext_noop("After taking this time off the clock would run out."), field="seconds")
    if kind == TABLE_EXTRA and table_extra_seconds(marks + [mark], table) < 0:
        raise UserError(gettext_noop("A table's extra time cannot be negative in total."), field="seconds")
    return mark


_REFUSED = {  # why a change is not allowed, by the clock's present state
    NOT_STARTED: gettext_noop("The clock has not started yet; start it first."),
    RUNNING: gettext_noop("The clock is already running."),
    PAUSED: gettext_noop("The clock is paused; resume it first."),
    TIME_UP: gettext_noop("Time is up: the hall clock can no longer be paused, resumed or extended."),
}


# --------------------------------------------------------------------------------------------
# The last-hands rule
# --------------------------------------------------------------------------------------------
def last_allowed_hand(recorded: int, hands_after: int, hand_in_play_counts: bool) -> int:
    """Number of the last hand a table may play, given ``recorded`` hands when the announcement fired.

    The hand in play is ``recorded + 1``. If it does not count (shenzhen-community), the table plays
    it and then ``hands_after`` more; if it counts, it is the first of the ``hands_after``.
    """
    _check_int(recorded, "recorded", 0)
    _check_int(hands_after, "hands_after", 0)
    in_play = recorded + 1
    return in_play + hands_after - (1 if hand_in_play_counts else 0)


#: The entries that hold no hand number: a 造反 (004 二.7) abandons the deal, and the deal played after it takes
#: the number (the abandoned deal is no hand, so it counts toward nothing after an announcement either).
NO_NUMBER = ("rebel",)


def last_hand_in_force(last_hand: int, hand_in_play: int, kinds, *, redeals_count: bool = True,
                       in_play_counted: bool = True) -> int:
    """The last hand a table may play now: ``last_hand`` as fixed at the announcement, moved on by one for
    each redeal among the hands after it when redeals do not count (000 第十五条 之后各桌必须打满三副牌;
    a deal nobody declared trump in, 第五条, is no hand played). ``kinds``: the recorded entries' kinds in
    order ("hand", "redeal", "award", "rebel", ...). ``in_play_counted``: the hand in play is one of the hands
    after the announcement; when it is not, a redeal of it changes nothing (it is not counted already). A 造反
    (kind "rebel") holds no number and moves nothing: the deal after it is the same hand.
    """
    first = hand_in_play if in_play_counted else hand_in_play + 1
    if redeals_count:
        return last_hand
    numbered = [kind for kind in kinds if kind not in NO_NUMBER]
    return last_hand + sum(1 for number, kind in enumerate(numbered, start=1) if number >= first and kind == "redeal")


def hands_left(recorded: int, last_hand: int | None) -> int | None:
    """Hands the table may still play (None: no limit set yet)."""
    if last_hand is None:
        return None
    return max(0, last_hand - recorded)


def format_remaining(seconds: float) -> str:
    """Remaining time in Chinese, e.g. ``1小时05分09秒`` or ``29分05秒`` (whole seconds, rounded up)."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}小时{minutes:02d}分{secs:02d}秒"
    return f"{minutes}分{secs:02d}秒"
