"""The rulings of a match as they stand: every ruling with its sanction in force and its derived state.

The sanction in force of every ruling is recomputed by replaying the match's live rulings through a
fresh :class:`rulings.engine.PenaltyLedger`, so repeat counts and escalation stay right after a void
or a reversal. A ruling's state (pending, in force, rejected, void, reversed) is derived from the rows
that point at it (void, approval, choice, appeal decisions), never stored by editing.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, prefetch_related_objects

from common.errors import UserError, gettext_noop
from rulings.engine import Effect, Offence, PenaltyLedger, Sanction
from rulings.models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid
from scoring.models import RuleProfile

# Derived states of a ruling.
PENDING = "pending"      # waits for the chief referee's approval or the other side's choice
IN_FORCE = "in_force"
REJECTED = "rejected"    # the chief referee refused the match loss; the rest of the sanction stands
VOID = "void"
REVERSED = "reversed"    # reversed on appeal (撤销)
AMENDED = "amended"      # replaced on appeal by another ruling (改判): the replacement applies instead
LAPSED = "lapsed"        # a replacement a later instance set aside (the original stands again, or another)
LIVE_STATES = (PENDING, IN_FORCE, REJECTED)  # the rulings the ledger counts
# What a reader sees for each state (English msgids, translated by the presenters).
STATE_LABELS = {PENDING: gettext_noop("Pending"), IN_FORCE: gettext_noop("In effect"),
                REJECTED: gettext_noop("Forfeit not approved"), VOID: gettext_noop("Void"),
                REVERSED: gettext_noop("Reversed on appeal"), AMENDED: gettext_noop("Amended on appeal"),
                LAPSED: gettext_noop("Set aside on appeal")}


def profile_table_source(profile):
    """What PenaltyLedger accepts for a stored RuleProfile: its slug and its ``sanctions`` key."""
    data = profile.data or {}
    return {"slug": profile.slug, "sanctions": data.get("sanctions")}


def ledger_for(profile, entries=()):
    return PenaltyLedger(profile_table_source(profile), entries)


# What replaying the rulings never reads (only presenting them does): left out of a write's read.
_PRESENTATION_ONLY = ("sanction", "note")


def match_rulings(match, *, for_replay=False):
    """Every ruling of the match in order, with the rows that decide its state prefetched.

    ``for_replay``: only what the replay reads (no recorder, no stored sanction snapshot or note), for a
    write that presents nothing but its own new ruling.
    """
    queryset = Ruling.objects.filter(match=match).order_by("sequence")
    if for_replay:
        queryset = queryset.select_related("void", "approval", "choice_made").defer(*_PRESENTATION_ONLY)
    else:
        queryset = queryset.select_related("void", "approval", "choice_made", "recorded_by")
    rulings = list(queryset.annotate(appealed=Exists(Appeal.objects.filter(ruling=OuterRef("pk")))))
    _prefetch_appeals(rulings)
    share_profiles(rulings, {match.profile_id: match.profile})
    return rulings


def _prefetch_appeals(rulings):
    """Prefetch the appeals (with their decisions) of the rulings annotated ``appealed``; the others
    are known to have none, so a match without appeals costs no query for them."""
    appealed = [ruling for ruling in rulings if ruling.appealed]
    for ruling in rulings:
        if not ruling.appealed:
            ruling._prefetched_objects_cache = {"appeals": _no_appeals()}
    prefetch_related_objects(appealed, Prefetch("appeals", queryset=Appeal.objects.prefetch_related("decisions")))


def share_profiles(rulings, known=None):
    """Set ``ruling.profile`` from ``known`` ({id: RuleProfile}), reading any other version once.

    A profile row carries the whole profile JSON; joining it to every ruling would transfer and
    decode it once per ruling, while a match's rulings nearly always share the match's version.
    """
    profiles = dict(known or {})
    missing = {r.profile_id for r in rulings} - set(profiles)
    if missing:
        profiles.update(RuleProfile.objects.in_bulk(missing))
    for ruling in rulings:
        ruling.profile = profiles[ruling.profile_id]


def mark_new(ruling):
    """A ruling just created has no void, approval, choice or appeal yet: say so to Django's relation
    caches, so deriving its state and presenting it costs no query."""
    for name in ("void", "approval", "choice_made"):
        getattr(Ruling, name).related.set_cached_value(ruling, None)
    ruling._prefetched_objects_cache = {"appeals": _no_appeals()}
    return ruling


def _no_appeals():
    """An empty appeals queryset already evaluated, as Django's prefetch leaves one (reading it costs nothing)."""
    empty = Appeal.objects.none()
    empty._result_cache, empty._prefetch_done = [], True
    return empty


def related_row(ruling, name):
    try:
        return getattr(ruling, name)
    except (RulingVoid.DoesNotExist, Approval.DoesNotExist, ChoiceMade.DoesNotExist):
        return None


def final_decision(appeal):
    """The decision that stands on an appeal: the highest instance decided so far (or None)."""
    decisions = sorted(appeal.decisions.all(), key=lambda d: d.instance)
    return decisions[-1] if decisions else None


def appeal_outcome(ruling):
    """What the appeals against the ruling decided so far: "reversed" when one ends in a reversal, else
    "amended" when one ends in an amendment, else None (no appeal decided, or upheld)."""
    outcomes = {decision.outcome for decision in map(final_decision, ruling.appeals.all()) if decision is not None}
    for outcome in (AppealDecision.Outcome.REVERSED, AppealDecision.Outcome.AMENDED):
        if outcome in outcomes:
            return str(outcome)
    return None


def is_reversed(ruling):
    """True when an appeal against the ruling ends, so far, in a reversal or an amendment (either way the
    ruling leaves the replay)."""
    return appeal_outcome(ruling) is not None


def live_replacements(rulings) -> set:
    """The ids of the rulings that replace, on appeal, one of ``rulings`` and still stand: the replacement
    named by the final decision of an appeal that ends in an amendment (改判)."""
    ids = set()
    for ruling in rulings:
        for appeal in ruling.appeals.all():
            decision = final_decision(appeal)
            if decision is not None and decision.outcome == AppealDecision.Outcome.AMENDED:
                ids.add(decision.replacement_id)
    return ids


def ruling_state(ruling, sanction=None, *, lapsed=False):
    """pending / in_force / rejected / void / reversed / amended / lapsed, from the rows pointing at the
    ruling (``lapsed``: the ruling replaced another on appeal and a later instance set it aside)."""
    if related_row(ruling, "void") is not None:
        return VOID
    outcome = appeal_outcome(ruling)
    if outcome is not None:
        return REVERSED if outcome == AppealDecision.Outcome.REVERSED else AMENDED
    if lapsed:
        return LAPSED
    approval = related_row(ruling, "approval")
    needs_approval = sanction.needs_approval if sanction is not None else ruling.needs_approval
    if needs_approval and approval is None:
        return PENDING
    if sanction is not None and sanction.pending_choice:
        return PENDING
    if approval is not None and not approval.approved:
        return REJECTED
    return IN_FORCE


def _offence(ruling):
    made = related_row(ruling, "choice_made")
    choice = made.option if made is not None else (ruling.choice or None)
    return Offence(code=ruling.code, side=ruling.side, minutes=ruling.minutes, cards=ruling.cards,
                   choice=choice, role=ruling.role or None, seconds=ruling.seconds, seat=ruling.seat or None,
                   waived_by=ruling.waived_by or None)


@dataclass
class Entry:
    """One ruling of a match with its derived sanction (None when void or reversed) and state."""

    ruling: Ruling
    sanction: object
    state: str


def match_entries(match, rulings=None):
    """Replay the match's rulings: every ruling with the sanction now in force and its state."""
    return replay_rulings(match, match_rulings(match) if rulings is None else rulings)[1]


def ledger_and_entries(match):
    """(the ledger holding the live rulings, every ruling as an Entry), reading only what a replay needs."""
    return replay_rulings(match, match_rulings(match, for_replay=True))


def replay_rulings(match, rulings):
    """(the ledger holding the live rulings, every ruling as an Entry): the one replay of the rulings."""
    standing = live_replacements(rulings)
    lapsed = {r.pk for r in rulings if r.amends_id is not None and r.pk not in standing}
    live = sorted((r for r in rulings if related_row(r, "void") is None and not is_reversed(r)
                   and r.pk not in lapsed), key=_replay_position(rulings))
    ledger = ledger_for(match.profile, [_offence(r) for r in live])
    by_id = dict(zip((r.pk for r in live), ledger.sanctions))
    entries = []
    for ruling in rulings:
        sanction = by_id.get(ruling.pk)
        entries.append(Entry(ruling, sanction, ruling_state(ruling, sanction, lapsed=ruling.pk in lapsed)))
    return ledger, entries


def _replay_position(rulings):
    """The order the ledger counts rulings in: a replacement (改判) takes the place of the ruling it
    replaces, so repeat counts and escalation stay as they were when the offence happened."""
    sequence_of = {r.pk: r.sequence for r in rulings}
    return lambda r: (sequence_of.get(r.amends_id, r.sequence) if r.amends_id else r.sequence, r.sequence)


def live_ledger(match, rulings):
    return replay_rulings(match, rulings)[0]


_SANCTION_FIELDS = tuple(f.name for f in dataclasses.fields(Sanction))
_EFFECT_FIELDS = tuple(f.name for f in dataclasses.fields(Effect))


def sanction_dict(sanction):
    """A JSON snapshot of a Sanction (what the console shows and the ruling stores): its fields, the
    effect's as a dict, tuples and sets as lists (``dataclasses.asdict`` would deep-copy every value first;
    a test compares the two)."""
    data = {name: getattr(sanction, name) for name in _SANCTION_FIELDS}
    data["effect"] = {name: getattr(sanction.effect, name) for name in _EFFECT_FIELDS}
    data["effect"]["drop_to"] = [list(pair) for pair in sanction.effect.drop_to]
    data["kinds"] = sorted(sanction.kinds)
    for key in ("options", "referee_options", "escalated", "items"):
        data[key] = list(data[key])
    data["pending_choice"] = sanction.pending_choice
    return data

def entry_of(match, ruling):
    """The Entry of ``ruling`` among the match's replayed rulings."""
    return _entry_among(match_entries(match), ruling)


def _entry_among(entries, ruling):
    for entry in entries:
        if entry.ruling.pk == ruling.pk:
            return entry
    raise UserError(gettext_noop("This ruling does not belong to this match."), field="ruling")
