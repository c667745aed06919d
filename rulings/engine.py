"""The sanction engine (pure: no Django): turns a table referee's offence into a sanction.

``PenaltyLedger(profile)`` is the sanction record of one match. Every number, ladder and repeat
count comes from the profile's sanction table (see ``rulings.sanction_tables``); this module only
walks the table. The ledger is a deterministic function of the list of recorded offences, so the
Django layer rebuilds it by replaying the non-voided rulings (``PenaltyLedger.replay``) or voids an
entry in place (``ledger.void(index)``), and every repeat count is recomputed.

Sides: ``side`` is the offending side, "NS" or "EW"; a seat letter (N/E/S/W) is accepted and
stands for its side, because repeat counts are kept per side (a table whose escalation is counted
per player counts a seat's warnings apart). Roles: "declarers" (庄家方, on stage) or "defenders"
(台下方); asked for only when the outcome depends on it. Lateness is ``minutes`` plus optional
``seconds`` (5 min 30 s is over 5 minutes).

Refused input raises :class:`common.errors.UserError` naming the field.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from common.errors import UserError, gettext_noop
from common.seats import OTHER_SIDE, SEAT_SIDE, SIDES
from rulings.sanction_tables import CODES, ROLES, band_matches, validate_sanctions

__all__ = ["PenaltyLedger", "Sanction", "Effect", "Offence", "AppealRule", "validate_sanctions",
           "defender_points_delta", "appeal_deadline", "normalise_side", "SIDES", "SEAT_SIDE"]

APPROVAL_KINDS = frozenset({"match_forfeit", "disqualification"})
ROLE_ZH = {"declarers": "庄家方", "defenders": "防守方"}
# The words of a sanction that waits for the chief referee's approval (a match loss, a disqualification).
AWAITING = "（待裁判长核准）"
WAIVED = "非错误方同意不予处罚"


def in_force_text(explanation):
    """A sanction's explanation once it applies to the hands or the result (approved, or decided by the chief
    referee who recorded it): it no longer reads as waiting for the approval."""
    return explanation.replace(AWAITING, "（已核准）")


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


def _other(side):
    return OTHER_SIDE[side]


def _count(value, name, *, minimum=0, maximum=None):
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
        "next" (下家) of the hand's declarer, or None for the award's default. ``current_level``
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
    explanation: str = ""
    clause: str = ""
    source: str = ""
    occurrence: int = 1
    escalated: tuple = ()
    waivable: bool = False
    automatic: bool = False
    waived_by: str | None = None

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


# --- resolving a table node into an outcome --------------------------------------------------

@dataclass
class _Path:
    """What resolving one offence collected on the way down its table node."""

    clause: str
    notes: list
    chosen: str | None = None
    chooser: str | None = None
    options: tuple = ()
    labels: dict = field(default_factory=dict)
    used_minutes: bool = False
    used_steps: bool = False
    used_role: bool = False
    pending: bool = False


class _Resolver:
    """Walks one offence's node: options by choice, steps by repeat, bands by minutes, by_role."""

    def __init__(self, offence, occurrence, slug):
        self.offence = offence
        self.occurrence = occurrence
        self.slug = slug

    def resolve(self, node, path):
        path.clause = node.get("clause", path.clause)
        if node.get("note"):
            path.notes.append(node["note"])
        for key, step in (("options", self._option), ("steps", self._step),
                          ("bands", self._band), ("by_role", self._role)):
            if key in node:
                sub = step(node, path)
                return {} if sub is None else self.resolve(sub, path)
        return node

    def _option(self, node, path):
        options = {str(key): value for key, value in node["options"].items()}
        path.chooser = node.get("chooser", "referee")
        path.options = tuple(options)
        path.labels = {key: value["label"] for key, value in options.items()}
        wanted = self.offence.choice
        if wanted is None:
            if node.get("default") is None:
                path.pending = True
                return None
            wanted = str(node["default"])
        path.chosen = self._match_option(options, wanted)
        return options[path.chosen]

    def _match_option(self, options, wanted):
        for key, option in options.items():
            if str(wanted) == key or str(wanted) in map(str, option.get("aliases", [])):
                return key
        raise UserError(gettext_noop("%(value)r is not a sanction to choose for this offence; choose %(allowed)s."),
                        field="choice", value=wanted, allowed="/".join(options))

    def _step(self, node, path):
        path.used_steps = True
        steps = node["steps"]
        return steps[min(self.occurrence, len(steps)) - 1]

    def _band(self, node, path):
        seconds = self.offence.late_seconds
        if seconds is None:
            raise UserError(gettext_noop("This offence needs the number of minutes."), field="minutes")
        path.used_minutes = True
        bands = node["bands"]
        for index, band in enumerate(bands):
            if band_matches(band, seconds, bands[index + 1] if index + 1 < len(bands) else None):
                return band
        path.notes.append("未达处罚标准，不处罚")
        return None

    def _role(self, node, path):
        roles = node["by_role"]
        role = self.offence.role
        if role is None and len(roles) == 1:
            return next(iter(roles.values()))
        path.used_role = True
        if role is None:
            raise UserError(gettext_noop("The sanction for this offence depends on whether the offenders are "
                                         "declarers or defenders: give the offenders' role."), field="role")
        if role not in roles:
            raise UserError(gettext_noop("These rules give no sanction for this offence by the side in that role."),
                            field="role")
        return roles[role]


# --- turning an outcome into a Sanction -------------------------------------------------------

def _outcome_points(outcome, offence):
    if "per_card" not in outcome:
        return outcome.get("points", 0)
    cards = offence.cards
    if cards is None:
        raise UserError(gettext_noop("This offence needs the number of cards."), field="cards")
    if cards < 1:
        raise UserError(gettext_noop("Enter at least 1 card, not %(value)s."), field="cards", value=cards)
    return outcome["per_card"] * cards


def _effect(outcome, side):
    def to_side(relative):
        return {"other": _other(side), "offender": side}.get(relative)

    return Effect(
        stage=to_side(outcome.get("stage")), gainer=to_side(outcome.get("gainer")),
        levels=outcome.get("levels", 0), next_declarer=outcome.get("next_declarer"),
        drop_to=tuple((str(k), str(v)) for k, v in outcome.get("drop_to", {}).items()),
        levels_per_points=outcome.get("levels_per_points"), max_levels=outcome.get("max_levels"),
        levels_from_points=outcome.get("levels_from_points", 0),
        drop_keeps_levels=outcome.get("drop_keeps_levels", False),
        points_void=outcome.get("points_void", False), redeal=outcome.get("redeal", False),
        hand_ends=outcome.get("hand_ends", False),
        applies_to=outcome.get("applies_to", "current_hand"))


def _kinds(outcome, points, effect, pending):
    kinds = set(outcome.get("kinds", ()))
    if points:
        kinds.add("points")
    if effect.levels or effect.levels_per_points:
        kinds.add("levels")
    if effect.stage:
        kinds.add("step_down")
    if pending:
        kinds.add("choice")
    return kinds


def _describe(kinds, points, outcome, effect):
    """Chinese phrases for an outcome, in the order a referee announces them."""
    parts = []
    if "warning" in kinds:
        parts.append("警告")
    if "violation" in kinds:
        parts.append("记违例一次")
    if points:
        prefix = "首局" if effect.applies_to == "first_hand" else ""
        if "per_card" in outcome:
            parts.append(f"每张罚{outcome['per_card']}分，{prefix}共罚{points}分")
        else:
            parts.append(f"{prefix}扣{points}分" if prefix else f"罚{points}分")
    if "hand_forfeit" in kinds:
        parts.append("首局自动放弃" if effect.applies_to == "first_hand" else "本副牌判负")
    if effect.points_void:
        parts.append("得分无效")
    if effect.stage:
        parts.append("下台")
    if effect.levels:
        parts.append(f"对方升{effect.levels}级")
    if effect.drop_to:
        drops = "、".join(f"打{high}降至{low}" for high, low in effect.drop_to)
        keeps = f"对方仍升{effect.levels}级" if effect.drop_keeps_levels else "对方不升级"
        parts.append(f"（{drops}，{keeps}）")
    if effect.levels_per_points:
        above = f"{effect.levels_from_points}分以上" if effect.levels_from_points else ""
        parts.append(f"对方按得分{above}每满{effect.levels_per_points}分升1级，最多{effect.max_levels}级")
    if effect.redeal:
        parts.append("重新洗牌抓牌")
    parts.extend({"next": ["由下家坐庄"], "same": ["由原庄家继续坐庄"]}.get(effect.next_declarer, []))
    if "match_forfeit" in kinds:
        parts.append("判负（自动生效）" if outcome.get("automatic") else f"判负{AWAITING}")
    if "disqualification" in kinds:
        parts.append(f"取消比赛资格{AWAITING}")
    return parts


def _title(name, offence, path, outcome, occurrence):
    """'庄家方第2次超时出牌（label）': who, which time, how long or how many cards, which option."""
    title = f"第{occurrence}次{name}" if path.used_steps else name
    if path.used_minutes:
        title += f"{offence.minutes or 0}分钟"
        if offence.seconds:
            title += f"{offence.seconds}秒"
    elif "per_card" in outcome:
        title += f"{offence.cards}张"
    if path.used_role:
        title = f"{ROLE_ZH[offence.role]}{title}"
    if path.chosen is not None:
        title += f"（{path.labels[path.chosen]}）"
    return title


# --- the ledger --------------------------------------------------------------------------------

@dataclass
class _Tally:
    """Running counts per side within the match: offences per code, warnings, violations."""

    offences: Counter = field(default_factory=Counter)
    warnings: Counter = field(default_factory=Counter)
    violations: Counter = field(default_factory=Counter)


class PenaltyLedger:
    """The sanction record of one match under one profile's sanction table (contract)."""

    def __init__(self, profile, entries=()):
        self.slug, self.table = _table_of(profile)
        self.appeal = AppealRule(**{key: self.table["appeal"].get(key)
                                    for key in AppealRule.__dataclass_fields__})
        self.other_side_may_choose = self.table["other_side_may_choose"]
        self.penalties_waivable_by_agreement = self.table.get("penalties_waivable_by_agreement", False)
        clamp = self.table.get("points_clamp")
        self.points_clamp = tuple(clamp) if clamp else None
        self._entries = []
        self._voided = set()
        self._sanctions = []
        self._tally = _Tally()
        for entry in entries:
            self._replay_one(Offence.of(entry))

    def _replay_one(self, offence):
        """Record a stored offence again. Its choice was made for the sanction it had then: once an earlier
        entry is void the offence may be counted as another repeat, whose step offers no such choice (003
        二.13: a 3rd signal's "out of the event" is a 2nd signal's −50 again); the choice is then left out."""
        inputs = {"minutes": offence.minutes, "cards": offence.cards, "role": offence.role,
                  "seconds": offence.seconds, "waived_by": offence.waived_by}
        side = offence.seat or offence.side
        try:
            return self.record(offence.code, side, choice=offence.choice, **inputs)
        except UserError as exc:
            if offence.choice is None or exc.field != "choice":
                raise
        return self.record(offence.code, side, choice=None, **inputs)

    @classmethod
    def replay(cls, profile, entries):
        """A fresh ledger holding ``entries`` (Offence objects or mappings) recorded in order."""
        return cls(profile, entries)

    def tally(self) -> dict:
        """The running counts the next sanction depends on, as JSON-ready data (see :meth:`resume`)."""
        t = self._tally
        return {"offences": [[side, code, n] for (side, code), n in t.offences.items()],
                "warnings": dict(t.warnings), "violations": dict(t.violations)}

    @classmethod
    def resume(cls, profile, tally):
        """A ledger that records on top of earlier offences known only by their :meth:`tally`: the next
        ``record`` gives the sanction a replay of every earlier offence would give. Its ``entries`` and
        ``sanctions`` hold only what is recorded on it."""
        ledger = cls(profile)
        ledger._tally = _Tally(offences=Counter({(side, code): n for side, code, n in tally["offences"]}),
                               warnings=Counter(tally["warnings"]), violations=Counter(tally["violations"]))
        return ledger

    @property
    def codes(self):
        """The offence codes this profile lists."""
        return tuple(self.table["offences"])

    @property
    def entries(self):
        """Every recorded offence in order, voided ones included (see ``voided``)."""
        return tuple(self._entries)

    @property
    def voided(self):
        return frozenset(self._voided)

    @property
    def sanctions(self):
        """The sanction of each entry, index-aligned with ``entries`` (None where voided)."""
        return tuple(self._sanctions)

    @property
    def active(self):
        """The sanctions in force, in order (voided entries left out)."""
        return tuple(s for s in self._sanctions if s is not None)

    def record(self, code, side, *, minutes=None, cards=None, choice=None, role=None, seconds=None,
               waived_by=None):
        """Record an offence by ``side`` (or a seat) and return its Sanction (contract).

        ``minutes`` and ``seconds`` (0..59) together give a lateness: 5 and 30 is over 5 minutes.
        ``waived_by``: the non-offending side waives the sanction where the profile allows it (see
        :meth:`may_waive`); the offence is on record with no sanction and counts toward no repeat or
        escalation.
        """
        offence = self._offence(code, side, minutes=minutes, cards=cards, choice=choice, role=role, seconds=seconds,
                                waived_by=waived_by)
        sanction = self._sanction(offence, self._tally)
        self._entries.append(offence)
        self._sanctions.append(sanction)
        _count_in(self._tally, sanction, self._who(offence))
        return sanction

    def preview(self, code, side, *, minutes=None, cards=None, choice=None, role=None, seconds=None,
                waived_by=None):
        """The Sanction ``record`` would return, without recording anything."""
        offence = self._offence(code, side, minutes=minutes, cards=cards, choice=choice, role=role, seconds=seconds,
                                waived_by=waived_by)
        return self._sanction(offence, self._tally)

    def may_waive(self, code) -> bool:
        """May the non-offending side waive the sanction of offence ``code``? Profile data: the offence's
        ``waivable_by_other_side`` (000 第十七条（三）) or the table's ``penalties_waivable_by_agreement``
        (2008 末段: any 罚则 by agreement)."""
        node = self.table["offences"].get(code) or {}
        return bool(self.penalties_waivable_by_agreement or node.get("waivable_by_other_side"))

    def void(self, index):
        """Void entry ``index`` (0-based, in recording order) and recompute every later sanction.

        Returns the sanctions in force afterwards, index-aligned with ``entries``.
        """
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self._entries):
            raise UserError(gettext_noop("There is no entry %(index)r."), field="index", index=index)
        if index in self._voided:
            raise UserError(gettext_noop("Entry %(index)s is already void."), field="index", index=index)
        self._voided.add(index)
        self._tally = _Tally()
        for position, offence in enumerate(self._entries):
            sanction = None if position in self._voided else self._sanction_again(offence, self._tally)
            self._sanctions[position] = sanction
            if sanction is not None:
                _count_in(self._tally, sanction, self._who(offence))
        return self.sanctions

    # --- internals ---------------------------------------------------------------------------

    def _offence(self, code, side, *, minutes, cards, choice, role, seconds, waived_by=None):
        if code not in self.table["offences"]:
            message = (gettext_noop("Unknown offence code %(code)r (profile %(slug)s).") if code not in CODES
                       else gettext_noop("Offence %(code)r is not listed by profile %(slug)s."))
            raise UserError(message, field="code", code=code, slug=self.slug)
        if role is not None and role not in ROLES:
            raise UserError(gettext_noop("The role must be declarers or defenders, not %(value)r."),
                            field="role", value=role)
        seat = offending_seat(side) or None
        return Offence(code=code, side=normalise_side(side), minutes=_count(minutes, "minutes"),
                       cards=_count(cards, "cards"), role=role,
                       choice=None if choice is None else str(choice),
                       seconds=_count(seconds, "seconds", maximum=59), seat=seat,
                       waived_by=self._waiver(code, side, waived_by))

    def _waiver(self, code, side, waived_by):
        """The side that waives (None: no waiver), checked against the profile and the offending side."""
        if waived_by in (None, ""):
            return None
        if not self.may_waive(code):
            raise UserError(gettext_noop("The rules do not let this offence's sanction be waived."),
                            field="waived_by")
        if waived_by not in SIDES or waived_by != _other(normalise_side(side)):
            raise UserError(gettext_noop("Only the non-offending side may waive the sanction."), field="waived_by")
        return waived_by

    def _sanction(self, offence, tally):
        node = self.table["offences"][offence.code]
        occurrence = tally.offences[(offence.side, offence.code)] + 1
        if offence.waived_by:
            return self._waived(offence, node, occurrence)
        path = _Path(clause=node["clause"], notes=[])
        outcome = _Resolver(offence, occurrence, self.slug).resolve(node, path)
        if offence.choice is not None and path.chosen is None and not path.options:
            raise UserError(gettext_noop("This offence has no sanction to choose now: send no choice."),
                            field="choice")
        points = _outcome_points(outcome, offence)
        effect = _effect(outcome, offence.side)
        kinds = _kinds(outcome, points, effect, path.pending)
        escalated, notes = self._escalate(kinds, self._who(offence), tally)
        return self._build(offence, node, path, outcome, points=points, effect=effect, kinds=kinds,
                           escalation=(escalated, notes), occurrence=occurrence)

    def _sanction_again(self, offence, tally):
        """An entry's sanction counted again after a void: a choice its new repeat no longer offers is left out
        (see ``_replay_one``)."""
        try:
            return self._sanction(offence, tally)
        except UserError as exc:
            if offence.choice is None or exc.field != "choice":
                raise
        return self._sanction(replace(offence, choice=None), tally)

    def _waived(self, offence, node, occurrence):
        """The Sanction of a waived offence: on record, nothing applied (no points, levels, redeal)."""
        title = _title(node["name"], offence, _Path(clause=node["clause"], notes=[]), {}, occurrence)
        return Sanction(code=offence.code, side=offence.side, beneficiary=_other(offence.side), kinds=frozenset(),
                        role=offence.role, explanation=f"{title}：{WAIVED}", clause=node["clause"],
                        source=self.table["source"], occurrence=occurrence, waivable=True,
                        waived_by=offence.waived_by)

    def _who(self, offence):
        """Whose warnings and violations an offence counts toward: its side, or its seat when the
        table counts per player (``escalation.counted_per: player``) and the seat is known."""
        rule = self.table.get("escalation") or {}
        if rule.get("counted_per") == "player" and offence.seat:
            return offence.seat
        return offence.side

    def _escalate(self, kinds, side, tally):
        """Apply the table's escalation (shenzhen 第十六条) to ``kinds`` in place.

        ``side``: whose counts apply (a side, or a seat when counted per player). Returns (steps
        taken, Chinese notes): "warning_to_violation" when this is the n-th warning (every one from
        the n-th, or only the n-th with ``warnings_converted: nth_only``) and the table records it as
        a violation; "match_forfeit_proposed" when this is the n-th recorded violation and a match
        loss goes to the chief referee.
        """
        rule = self.table.get("escalation") or {}
        steps, notes = [], []
        nth_warning = tally.warnings[side] + 1
        from_nth = rule.get("warning_becomes_violation_from")
        only_nth = rule.get("warnings_converted") == "nth_only"
        if "warning" in kinds and from_nth and (nth_warning == from_nth if only_nth else nth_warning >= from_nth):
            kinds.discard("warning")
            kinds.add("violation")
            steps.append("warning_to_violation")
            notes.append(f"同轮第{nth_warning}次警告")
        nth_violation = tally.violations[side] + 1
        at = rule.get("match_forfeit_at_violations")
        if "violation" in kinds and at and nth_violation >= at:
            kinds.add("match_forfeit")
            steps.append("match_forfeit_proposed")
            notes.append(f"同轮第{nth_violation}次违例")
        return tuple(steps), notes

    def _build(self, offence, node, path, outcome, *, points, effect, kinds, escalation, occurrence):
        """Assemble the Sanction and its Chinese explanation."""
        escalated, escalation_notes = escalation
        title = _title(node["name"], offence, path, outcome, occurrence)
        if path.pending:
            text = f"{title}：由非违规方选择：{' / '.join(path.labels.values())}"
        else:
            parts = escalation_notes + _describe(kinds, points, outcome, effect) + path.notes
            text = f"{title}：{'，'.join(parts) or '不处罚'}"
        by_side = path.chooser == "other_side"
        return Sanction(
            code=offence.code, side=offence.side, beneficiary=_other(offence.side),
            kinds=frozenset(kinds), points=points, levels=effect.levels,
            needs_approval=bool(kinds & APPROVAL_KINDS) and not outcome.get("automatic", False),
            automatic=bool(kinds & APPROVAL_KINDS) and outcome.get("automatic", False),
            options=path.options if by_side else (), referee_options=() if by_side else path.options,
            choice=path.chosen, chooser=path.chooser if path.chosen else None, role=offence.role,
            effect=effect, explanation=text, clause=path.clause, source=self.table["source"],
            occurrence=occurrence, escalated=escalated,
            waivable=bool(node.get("waivable_by_other_side")))


def _count_in(tally, sanction, who):
    """Add one sanction to the running counts (a converted warning still counts as one warning).

    Repeat counts per offence are kept per side; warnings and violations per ``who`` (side or seat).
    A waived sanction counts toward nothing: a later offence of its kind is counted as if it were not there.
    """
    if sanction.waived_by:
        return
    tally.offences[(sanction.side, sanction.code)] += 1
    if "warning" in sanction.kinds or "warning_to_violation" in sanction.escalated:
        tally.warnings[who] += 1
    if "violation" in sanction.kinds:
        tally.violations[who] += 1


def _table_of(profile):
    """(slug, validated sanction table) from a profile object or a {"slug", "sanctions"} dict."""
    if isinstance(profile, Mapping):
        slug, table = profile.get("slug"), profile.get("sanctions")
    else:
        slug, table = getattr(profile, "slug", None), getattr(profile, "sanctions", None)
    if not isinstance(slug, str) or not slug:
        raise UserError(gettext_noop("The rule profile has no slug: %(value)r."), field="profile",
                        value=profile)
    if not table:
        raise UserError(gettext_noop("Rule profile %(slug)s has no sanction table (its sanctions key is "
                                     "empty)."), field="profile", slug=slug)
    key = (id(table), slug)
    known = _VALIDATED.get(key)
    if known is not None and known[0] is table:   # the very table object validated before
        return slug, known[1]
    validated = validate_sanctions(table, f"profile {slug}")
    if len(_VALIDATED) >= 64:
        _VALIDATED.pop(next(iter(_VALIDATED)))
    _VALIDATED[key] = (table, validated)   # holding the table keeps its id from being reused
    return slug, validated


# Sanction tables validated, by the identity of the table object (a process shares one copy of a stored
# profile version: ``scoring.profile_store.shared_profile``), so a ledger per request validates nothing.
_VALIDATED: dict = {}

