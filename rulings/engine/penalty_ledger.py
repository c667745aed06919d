"""The penalty ledger: the sanction record of one match under one profile's sanction table (pure)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from common.errors import UserError, gettext_noop
from common.seats import SIDES
from rulings.sanction_tables import CODES, ROLES, validate_sanctions

from .phrases import describe, item, text, title_item
from .resolve import Resolver, Walk, effect_of, kinds_of, outcome_points
from .values import (
    APPROVAL_KINDS,
    AppealRule,
    Offence,
    Sanction,
    check_count,
    normalise_side,
    offending_seat,
    other_side,
)


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
        return Offence(code=code, side=normalise_side(side), minutes=check_count(minutes, "minutes"),
                       cards=check_count(cards, "cards"), role=role,
                       choice=None if choice is None else str(choice),
                       seconds=check_count(seconds, "seconds", maximum=59), seat=seat,
                       waived_by=self._waiver(code, side, waived_by))

    def _waiver(self, code, side, waived_by):
        """The side that waives (None: no waiver), checked against the profile and the offending side."""
        if waived_by in (None, ""):
            return None
        if not self.may_waive(code):
            raise UserError(gettext_noop("The rules do not let this offence's sanction be waived."),
                            field="waived_by")
        if waived_by not in SIDES or waived_by != other_side(normalise_side(side)):
            raise UserError(gettext_noop("Only the non-offending side may waive the sanction."), field="waived_by")
        return waived_by

    def _sanction(self, offence, tally):
        node = self.table["offences"][offence.code]
        occurrence = tally.offences[(offence.side, offence.code)] + 1
        if offence.waived_by:
            return self._waived(offence, node, occurrence)
        path = Walk(clause=node["clause"], notes=[])
        outcome = Resolver(offence, occurrence, self.slug).resolve(node, path)
        if offence.choice is not None and path.chosen is None and not path.options:
            raise UserError(gettext_noop("This offence has no sanction to choose now: send no choice."),
                            field="choice")
        points = outcome_points(outcome, offence)
        effect = effect_of(outcome, offence.side)
        kinds = kinds_of(outcome, points, effect, path.pending)
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
        items = (title_item(offence=offence.code, name=node["name"]), item("waived"))
        return Sanction(code=offence.code, side=offence.side, beneficiary=other_side(offence.side), kinds=frozenset(),
                        role=offence.role, explanation=text(items), items=items, clause=node["clause"],
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
        taken, their phrases): "warning_to_violation" when this is the n-th warning (every one from
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
            notes.append(item("warning_nth", n=nth_warning))
        nth_violation = tally.violations[side] + 1
        at = rule.get("match_forfeit_at_violations")
        if "violation" in kinds and at and nth_violation >= at:
            kinds.add("match_forfeit")
            steps.append("match_forfeit_proposed")
            notes.append(item("violation_nth", n=nth_violation))
        return tuple(steps), notes

    def _build(self, offence, node, path, outcome, *, points, effect, kinds, escalation, occurrence):
        """Assemble the Sanction and its explanation (items, and the Chinese they read as)."""
        escalated, escalation_notes = escalation
        title = _title(node["name"], offence, path, outcome, occurrence)
        if path.pending:
            parts = [item("choose", options=list(path.labels), labels=list(path.labels.values()))]
        else:
            parts = escalation_notes + describe(kinds, points, outcome, effect) + path.notes or [item("no_penalty")]
        items = (title, *parts)
        by_side = path.chooser == "other_side"
        return Sanction(
            code=offence.code, side=offence.side, beneficiary=other_side(offence.side),
            kinds=frozenset(kinds), points=points, levels=effect.levels,
            needs_approval=bool(kinds & APPROVAL_KINDS) and not outcome.get("automatic", False),
            automatic=bool(kinds & APPROVAL_KINDS) and outcome.get("automatic", False),
            options=path.options if by_side else (), referee_options=() if by_side else path.options,
            choice=path.chosen, chooser=path.chooser if path.chosen else None, role=offence.role,
            effect=effect, explanation=text(items), items=items, clause=path.clause, source=self.table["source"],
            occurrence=occurrence, escalated=escalated,
            waivable=bool(node.get("waivable_by_other_side")))


def _title(name, offence, path, outcome, occurrence):
    """The title item: who (when the role decided), which time (when a repeat's step did), how long or how
    many cards, which option."""
    per_card = not path.used_minutes and "per_card" in outcome
    return title_item(offence=offence.code, name=name, nth=occurrence if path.used_steps else None,
                      minutes=(offence.minutes or 0) if path.used_minutes else None,
                      seconds=offence.seconds if path.used_minutes and offence.seconds else None,
                      cards=offence.cards if per_card else None, per_card=per_card,
                      role=offence.role if path.used_role else None, option=path.chosen,
                      label=path.labels[path.chosen] if path.chosen is not None else None)


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

