"""The sanction engine's values: an offence as recorded, a sanction with its effect, an appeal rule (pure).

Refused input raises :class:`common.errors.UserError` naming the field.
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field

from common.errors import UserError, gettext_noop
from common.seats import OTHER_SIDE, SEAT_SIDE, SIDES
from rulings.sanction_tables import ROLES

APPROVAL_KINDS = frozenset({"match_forfeit", "disqualification"})


def normalise_side(side):
    """Return "NS" or "EW" for a side or a seat letter; UserError naming ``side`` otherwise."""
    text = side.strip().upper() if isinstance(side, str) else None
    if text in SIDES:
        return text
    if text in SEAT_SIDE:
        return SEAT_SIDE[text]
    raise UserError(gettext_noop("The side must be NS, EW or a seat N/E/S/W, not %(value)r."),
                    field="side", value=side)


def offending_seat(side) -> str:
    """The seat letter (N/E/S/W) an offence names, or "" when it names a side (or nothing valid)."""
    text = side.strip().upper() if isinstance(side, str) else ""
    return text if text in SEAT_SIDE else ""


def other_side(side):
    return OTHER_SIDE[side]


def check_count(value, name, *, minimum=0, maximum=None):
    """Check an optional whole number input (minutes, seconds, cards); UserError naming the field."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise UserError(gettext_noop("Enter a whole number, not %(value)r."), field=name, value=value)
    if value < minimum:
        raise UserError(gettext_noop("Enter at least %(minimum)s, not %(value)s."), field=name,
                        minimum=minimum, value=value)
    if maximum is not None and value > maximum:
        raise UserError(gettext_noop("Enter at most %(maximum)s, not %(value)s."), field=name,
                        maximum=maximum, value=value)
    return value


@dataclass(frozen=True)
class Offence:
    """One recorded offence: the inputs of ``record``; the ledger replays a list of these."""

    code: str
    side: str
    minutes: int | None = None
    cards: int | None = None
    choice: str | None = None
    role: str | None = None
    seconds: int | None = None
    seat: str | None = None
    waived_by: str | None = None

    @property
    def late_seconds(self):
        """The lateness in seconds (None when neither minutes nor seconds were given)."""
        if self.minutes is None and self.seconds is None:
            return None
        return (self.minutes or 0) * 60 + (self.seconds or 0)

    @classmethod
    def of(cls, entry):
        """Build from an Offence, a mapping with the same keys, or a (code, side) pair."""
        if isinstance(entry, cls):
            return entry
        if isinstance(entry, Mapping):
            return cls(**{key: entry.get(key) for key in cls.__dataclass_fields__})
        code, side = entry
        return cls(code, side)


@dataclass(frozen=True)
class Effect:
    """What a sanction does to the match beyond points, in the terms of ``MatchState.award``.

    ``stage``: the side on stage after the ruling when the offending declarers step down (else
    None: unchanged). ``gainer``/``levels``: who goes up and by how much. ``drop_to``: pairs
    (level, level): when the declarers play the first level they drop to the second instead and
    nobody goes up. ``levels_per_points``/``max_levels``: the gainer goes up one level per full
    that many points the defenders hold at the end of the hand above ``levels_from_points``, at most
    ``max_levels`` (union-games over/under-burying, 003 一.19); see :meth:`levels_for`.
    ``applies_to``: "current_hand" or "first_hand" (where the points are counted).
    """

    stage: str | None = None
    gainer: str | None = None
    levels: int = 0
    next_declarer: str | None = None
    drop_to: tuple = ()
    levels_per_points: int | None = None
    max_levels: int | None = None
    levels_from_points: int = 0
    drop_keeps_levels: bool = False
    points_void: bool = False
    redeal: bool = False
    hand_ends: bool = False
    applies_to: str = "current_hand"

    @property
    def changes_state(self):
        """True when the hand or the levels change (not only points)."""
        return bool(self.stage or self.levels or self.levels_per_points or self.redeal
                    or self.hand_ends or self.drop_to)

    @property
    def needs_points(self):
        """True when the levels depend on the defenders' points at the end of the hand."""
        return self.levels_per_points is not None

    def dropped_level(self, current_level):
        """The level the declarers drop to when they play ``current_level``; None when no drop."""
        return dict(self.drop_to).get(current_level)

    def levels_for(self, defender_points):
        """The gainer's levels when the defenders end the hand with ``defender_points``.

        ``levels`` plus, for a points-dependent effect, one level per full ``levels_per_points``
        above ``levels_from_points`` (a score below that earns none), at most ``max_levels``: 003 一.19
        gives 0–35 → 0, 40–75 → 1, 80–115 → 2, 120 or more → 3 (the organiser choice wrong_bury_levels;
        counted from 80: 0–115 → 0, 120–155 → 1, 160–195 → 2, 200 or more → 3).
        """
        if not self.needs_points:
            return self.levels
        if isinstance(defender_points, bool) or not isinstance(defender_points, int):
            raise UserError(gettext_noop("Enter the points as a whole number, not %(value)r."),
                            field="defender_points", value=defender_points)
        earned = max(defender_points - self.levels_from_points, 0) // self.levels_per_points
        if self.max_levels is not None:
            earned = min(earned, self.max_levels)
        return self.levels + earned

    def award_kwargs(self, current_level=None, reason="", *, defender_points=None):
        """Keyword arguments for ``MatchState.award``, exactly as it accepts them; None when
        neither the levels nor the stage change.

        ``stage`` is "change" when the offending declarers step down, else "keep"; ``gainer`` is
        the side ("NS"/"EW") that goes up ``levels``; ``next_declarer`` is "same", "partner" or
        "next" (下家) of the hand's declarer, or None for the award's default; ``reason`` a text or the
        sanction quoted (``phrases.quote``) as the level engine's explanation gives it. ``current_level``
        is the level the declarers play (it decides a J/A drop). ``defender_points``: the
        defenders' final points of the hand, needed when :attr:`needs_points`; without them the
        points-dependent levels are not counted (the caller waits for the hand's score).
        """
        if not (self.stage or self.levels or self.drop_to or self.levels_per_points):
            return None
        drop = self.dropped_level(current_level)
        if drop and not self.drop_keeps_levels:
            levels = 0
        elif defender_points is None:
            levels = self.levels
        else:
            levels = self.levels_for(defender_points)
        gainer = None if drop and not self.drop_keeps_levels else self.gainer
        return {"stage": "change" if self.stage else "keep", "gainer": gainer,
                "levels": levels, "next_declarer": self.next_declarer, "drop_to": drop,
                "reason": reason}


@dataclass(frozen=True)
class Sanction:
    """The outcome of one offence: what the console previews and the match applies.

    ``points`` always go to the other side (``beneficiary``); ``options`` are the alternatives
    when the non-offending side chooses (``referee_options`` when the referee does); ``choice``
    is the option applied, and "choice" is in ``kinds`` while the side has not chosen yet.
    ``automatic``: a match forfeit the document applies without approval (e.g. lateness), so
    ``needs_approval`` is False for it. ``waived_by``: the non-offending side that waived the sanction
    (000 第十七条（三）; 2008 末段): the ruling stays on record with no sanction and counts toward nothing.
    """

    code: str
    side: str
    beneficiary: str
    kinds: frozenset
    points: int = 0
    levels: int = 0
    needs_approval: bool = False
    options: tuple = ()
    referee_options: tuple = ()
    choice: str | None = None
    chooser: str | None = None
    role: str | None = None
    effect: Effect = field(default_factory=Effect)
    explanation: str = ""   # the Chinese of ``items`` (``phrases.text``), as the record and the console read it
    clause: str = ""
    source: str = ""
    occurrence: int = 1
    escalated: tuple = ()
    waivable: bool = False
    automatic: bool = False
    waived_by: str | None = None
    items: tuple = ()       # the explanation as data (``rulings.engine.phrases``), which pages render

    @property
    def pending_choice(self):
        """True while the non-offending side still has to choose among ``options``."""
        return "choice" in self.kinds


@dataclass(frozen=True)
class AppealRule:
    """How long a ruling may be appealed, counted from what, and to whom."""

    deadline_minutes: int | None   # None: no time limit (the organiser's choice appeal_deadline)
    counted_from: str
    to: str
    then: str | None
    clause: str
    organiser_choice: bool | None = False  # the route is the project's default, chosen by the organiser


def appeal_deadline(rule, published_at):
    """The last moment an appeal is accepted: ``published_at`` (a datetime) plus the deadline; None when the
    rule sets no time limit."""
    if rule.deadline_minutes is None:
        return None
    return published_at + dt.timedelta(minutes=rule.deadline_minutes)


def defender_points_delta(sanction, offender_role=None):
    """Signed change to the defenders' points: + when the declarers offend, - when defenders do."""
    role = offender_role or sanction.role
    if role not in ROLES:
        raise UserError(gettext_noop("The offender's role must be declarers or defenders, not %(value)r."),
                        field="offender_role", value=role)
    return sanction.points if role == "declarers" else -sanction.points
