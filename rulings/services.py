"""Rulings in the database: record, preview, void, approve, choose, appeal, decide; and what the
rulings do to the match (``hand_adjustments`` for the scoring layer, approved forfeits).

The sanction in force of every ruling is recomputed by replaying the match's live rulings through a
fresh :class:`rulings.engine.PenaltyLedger`, so repeat counts and escalation stay right after a void
or a reversal. Writers lock the Match row (``select_for_update``) inside ``transaction.atomic``.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef, Prefetch, prefetch_related_objects

from config import clock
from config.db import lock_row
from rulings.engine import Offence, PenaltyLedger, appeal_deadline, defender_points_delta, normalise_side
from scoring.models import RuleProfile
from tournament import roles
from tournament.models import Match

from .models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid

SEAT_SIDE = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
NEXT_SEAT = {"N": "W", "W": "S", "S": "E", "E": "N"}   # 下家, counter-clockwise

# Derived states of a ruling.
PENDING = "pending"      # waits for the chief referee's approval or the other side's choice
IN_FORCE = "in_force"
REJECTED = "rejected"    # the chief referee refused the match loss; the rest of the sanction stands
VOID = "void"
REVERSED = "reversed"    # reversed on appeal
LIVE_STATES = (PENDING, IN_FORCE, REJECTED)  # the rulings the ledger counts
STATE_LABELS = {PENDING: "待定", IN_FORCE: "生效", REJECTED: "未核准判负", VOID: "已作废", REVERSED: "申诉撤销"}


class RulingError(ValueError):
    """A refused action, with a Chinese message for the user (``field`` names the input at fault)."""

    def __init__(self, message, field=None):
        super().__init__(message)
        self.field = field


class Conflict(RulingError):
    """A concurrent write got there first (the API answers 409)."""


# --- the profile and the table -----------------------------------------------------------------

def profile_table_source(profile):
    """What PenaltyLedger accepts for a stored RuleProfile: its slug and its ``sanctions`` key."""
    data = profile.data or {}
    return {"slug": profile.slug, "sanctions": data.get("sanctions")}


def ledger_for(profile, entries=()):
    return PenaltyLedger(profile_table_source(profile), entries)


@dataclass(frozen=True)
class TableState:
    """The table as the console shows it: levels, declarer seat and the hand now being played."""

    levels: dict
    declarer: str | None
    hand_number: int
    winner: str | None = None

    @property
    def declaring_side(self):
        return SEAT_SIDE.get(self.declarer) if self.declarer else None

    @property
    def level_played(self):
        side = self.declaring_side
        return self.levels.get(side) if side else None


    @classmethod
    def of(cls, state):
        """The table as the engine's MatchState leaves it."""
        return cls(levels=dict(state.levels), declarer=state.declarer, hand_number=state.hand_count + 1,
                   winner=state.winner)


def match_replay(match, entries=None, hands=None):
    """The scoring layer's Replay of the match (hands, adjustments, state), computed once.

    ``entries`` (from :func:`match_entries`) and ``hands`` (the current hands) when the caller has
    them already: nothing is read twice and the rulings are not replayed again.
    """
    from scoring import services as scoring_services

    return scoring_services.load_replay(match, hands=hands, adjust=adjustments_for(match, entries))


def table_state(match, entries=None):
    """Levels, declarer and the hand now in play, replayed by the scoring layer.

    ``entries`` (from :func:`match_entries`) saves replaying the rulings twice.
    """
    return TableState.of(match_replay(match, entries).state)


# --- derived state -------------------------------------------------------------------------------

# What replaying the rulings never reads (only presenting them does): left out of a write's read.
_PRESENTATION_ONLY = ("sanction", "note")


def _match_rulings(match, *, for_replay=False):
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


def is_reversed(ruling):
    """True when an appeal against the ruling ends, so far, in a reversal."""
    for appeal in ruling.appeals.all():
        decision = final_decision(appeal)
        if decision is not None and decision.outcome == AppealDecision.Outcome.REVERSED:
            return True
    return False


def ruling_state(ruling, sanction=None):
    """pending / in_force / rejected / void / reversed, from the rows pointing at the ruling."""
    if related_row(ruling, "void") is not None:
        return VOID
    if is_reversed(ruling):
        return REVERSED
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
                   choice=choice, role=ruling.role or None)


@dataclass
class Entry:
    """One ruling of a match with its derived sanction (None when void or reversed) and state."""

    ruling: Ruling
    sanction: object
    state: str


def match_entries(match, rulings=None):
    """Replay the match's rulings: every ruling with the sanction now in force and its state."""
    return _replay_rulings(match, _match_rulings(match) if rulings is None else rulings)[1]


def _replay_rulings(match, rulings):
    """(the ledger holding the live rulings, every ruling as an Entry): the one replay of the rulings."""
    live = [r for r in rulings if related_row(r, "void") is None and not is_reversed(r)]
    ledger = ledger_for(match.profile, [_offence(r) for r in live])
    by_id = dict(zip((r.pk for r in live), ledger.sanctions))
    entries = []
    for ruling in rulings:
        sanction = by_id.get(ruling.pk)
        entries.append(Entry(ruling, sanction, ruling_state(ruling, sanction)))
    return ledger, entries


def _live_ledger(match, rulings):
    return _replay_rulings(match, rulings)[0]


def sanction_dict(sanction):
    """A JSON snapshot of a Sanction (what the console shows and the ruling stores)."""
    data = dataclasses.asdict(sanction)
    data["kinds"] = sorted(sanction.kinds)
    data["effect"]["drop_to"] = [list(pair) for pair in sanction.effect.drop_to]
    for key in ("options", "referee_options", "escalated"):
        data[key] = list(data[key])
    data["pending_choice"] = sanction.pending_choice
    return data


# --- recording -----------------------------------------------------------------------------------

def _engine_call(func, **inputs):
    """Call the engine and turn its UserError into a RulingError naming the field."""
    try:
        return func(**inputs)
    except ValueError as exc:
        field = getattr(exc, "field", None)
        raise RulingError(str(exc), field=field if field in inputs or field == "code" else None) from exc


def _inputs(code, side, minutes, cards, choice, role):
    return {"code": code, "side": side, "minutes": minutes, "cards": cards,
            "choice": choice or None, "role": role or None}


def _offender_role(side, role, state):
    """The offending side's role in the current hand: as given, else from the declaring side."""
    if role:
        return role
    declaring = state.declaring_side
    if declaring is None:
        return ""
    return "declarers" if declaring == side else "defenders"


def preview(match, code, side, *, minutes=None, cards=None, choice=None, role=None):
    """The sanction that recording this offence now would give (nothing is stored)."""
    ledger = _live_ledger(match, _match_rulings(match))
    return _engine_call(ledger.preview, **_inputs(code, side, minutes, cards, choice, role))


def _locked_match(match_id, profile=None):
    """The match row, locked until the transaction ends (only the match row, not the joined ones).

    ``profile``: the RuleProfile the caller already read for this match; a version a match uses is
    never changed, so it is reused instead of reading (and decoding) the profile JSON again.
    """
    related = ("round", "ns", "ew", "hand_allowance")  # the allowance: for the clock's end-of-match check
    related = related if profile is not None else ("profile", *related)
    locked = lock_row(Match.objects.select_related(*related), match_id)
    if profile is not None:
        if locked.profile_id == profile.pk:
            locked.profile = profile
        else:  # the match moved to another version meanwhile: read that one
            locked.profile = RuleProfile.objects.get(pk=locked.profile_id)
    return locked


def record_ruling(match, user, code, side, *, minutes=None, cards=None, choice=None, role=None,
                  hand_number=None, declarer=None, note="", idempotency_key=""):
    """Store a ruling and return it; the same ``idempotency_key`` again returns the stored one.

    ``declarer`` (a seat) is needed only when the sanction moves the stage or the levels while the
    table has no declarer yet (the first hand before it is recorded).
    """
    return record_ruling_entry(match, user, code, side, minutes=minutes, cards=cards, choice=choice, role=role,
                               hand_number=hand_number, declarer=declarer, note=note,
                               idempotency_key=idempotency_key).ruling


def record_ruling_entry(match, user, code, side, *, minutes=None, cards=None, choice=None, role=None,
                        hand_number=None, declarer=None, note="", idempotency_key="") -> Entry:
    """:func:`record_ruling`, returning the ruling as an :class:`Entry` (its sanction in force and state),
    from the one replay of the match's rulings the write needed anyway."""
    try:
        with transaction.atomic():
            locked = _locked_match(match.pk, profile=match.profile if _loaded(match, "profile") else None)
            rulings = _match_rulings(locked, for_replay=True)
            existing = _with_key(rulings, idempotency_key)
            if existing is not None:  # presented in full: read the match's rulings as the log does
                return entry_of(locked, existing)
            return _create_ruling(locked, user, _inputs(code, side, minutes, cards, choice, role),
                                  hand_number, declarer, note, idempotency_key, rulings)
    except IntegrityError as exc:
        if idempotency_key:
            existing = Ruling.objects.filter(match=match, idempotency_key=idempotency_key).first()
            if existing is not None:
                return entry_of(match, existing)
        raise Conflict("同时有另一条判罚写入，请刷新后重试（conflict）") from exc


def _loaded(instance, relation):
    """True when ``instance`` already holds its ``relation`` (a forward foreign key), so reading it costs nothing."""
    return instance._meta.get_field(relation).is_cached(instance)


def _with_key(rulings, idempotency_key):
    """The ruling already stored with this client-supplied key (None without a key or when none is)."""
    if not idempotency_key:
        return None
    return next((r for r in rulings if r.idempotency_key == idempotency_key), None)


def _create_ruling(match, user, inputs, hand_number, declarer, note, idempotency_key, rulings):
    """Store the new ruling of the (locked) ``match`` and bring the match up to date; returns its Entry.

    The live rulings are replayed once: the ledger records the new offence on top of them, and the new
    ruling's entry is appended to theirs (it is the latest, so the earlier sanctions stay as they are).
    """
    if match.status in (Match.Status.BYE, Match.Status.WALKOVER) or match.ns_id is None or match.ew_id is None:
        raise RulingError("本场比赛没有对局，不能记录判罚（no play at this table）", field="match")
    ledger, entries = _replay_rulings(match, rulings)
    sanction = _engine_call(ledger.record, **inputs)
    before = match_replay(match, entries)
    state = _with_declarer(TableState.of(before.state), declarer, sanction)
    if sanction.effect.applies_to == "first_hand":
        hand_number = 1
    hand_number = _check_hand_number(hand_number or state.hand_number, state.hand_number)
    side = normalise_side(inputs["side"])
    sequence = (max((r.sequence for r in rulings), default=0)) + 1
    ruling = mark_new(Ruling.objects.create(
        match=match, sequence=sequence, hand_number=hand_number, code=inputs["code"], side=side,
        role=inputs["role"] or "", offender_role=_offender_role(side, inputs["role"], state),
        minutes=inputs["minutes"], cards=inputs["cards"], choice=inputs["choice"] or "",
        sanction=sanction_dict(sanction), clause=sanction.clause[:120], table=match.table,
        profile=match.profile, profile_version=match.profile.version,
        context={"declarer": state.declarer, "levels": state.levels, "level_played": state.level_played,
                 "hand_number": state.hand_number},
        note=note or "", idempotency_key=idempotency_key or "", recorded_by=user, recorded_at=clock.now()))
    entry = Entry(ruling, sanction, ruling_state(ruling, sanction))
    if _touches_scores(ruling, before.hands):
        apply_match_result(match, [*entries, entry], hands=before.hands)
    return entry


def _touches_scores(ruling, hands):
    """Does a new ruling change the replayed match now? Levels and stage do; points only when their
    hand is already recorded (``hands``: the current hands; else the scoring layer counts them when
    the hand is recorded)."""
    snapshot = ruling.sanction
    effect = snapshot.get("effect", {})
    if effect.get("stage") or effect.get("levels") or effect.get("drop_to") or effect.get("levels_per_points"):
        return True
    return bool(snapshot.get("points")) and any(hand.number == ruling.hand_number for hand in hands)


def _with_declarer(state, declarer, sanction):
    """The table state, with the declarer seat the referee gave when the table has none yet."""
    if state.declarer is not None:
        return state
    if declarer:
        if declarer not in SEAT_SIDE:
            raise RulingError(f"declarer：应为座位 N/E/S/W，收到 {declarer!r}（declarer must be a seat）",
                              field="declarer")
        return dataclasses.replace(state, declarer=declarer)
    if _needs_seat(sanction.effect.award_kwargs(None)):
        raise RulingError("declarer：本副尚无庄家记录，请填写本副庄家座位（the declarer seat is required）",
                          field="declarer")
    return state


def _needs_seat(award):
    """An award that moves the stage, drops a level or names a relative next declarer needs a seat."""
    return award is not None and bool(award["stage"] == "change" or award["drop_to"] or award["next_declarer"])


def _check_hand_number(value, in_play):
    """A ruling belongs to a recorded hand or to the hand in play (``in_play``), never to a later one."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulingError(f"hand_number：应为正整数，收到 {value!r}（hand_number must be >= 1）", field="hand_number")
    if value > in_play:
        raise RulingError(f"hand_number：本桌正在进行第{in_play}副，不能记到第{value}副"
                          f"（hand {value} has not started; the hand in play is {in_play}）", field="hand_number")
    return value


def void_ruling(ruling, user, reason=""):
    """Void a ruling (a new RulingVoid row); later sanctions are recomputed by the replay.

    A ruling the chief referee approved or that is under appeal is voided by a chief referee only: a
    table referee cannot undo a decision taken above them.
    """
    decided_above = Approval.objects.filter(ruling=ruling).exists() or Appeal.objects.filter(ruling=ruling).exists()
    if decided_above and not user.has_perm("tournament.approve_rulings"):
        raise PermissionDenied("该判罚已经裁判长核准或正在申诉，只有裁判长可以作废"
                               "（only a chief referee can void an approved or appealed ruling）")
    try:
        with transaction.atomic():
            match = _locked_match(ruling.match_id)
            if RulingVoid.objects.filter(ruling=ruling).exists():
                raise RulingError("该判罚已作废（already void）", field="ruling")
            row = RulingVoid.objects.create(ruling=ruling, reason=reason or "", voided_by=user,
                                            voided_at=clock.now())
            apply_match_result(match)
            return row
    except IntegrityError as exc:
        raise Conflict("该判罚刚被作废（conflict: already void）") from exc


def last_live_ruling(match):
    """The latest ruling of the match that is not void (None when there is none)."""
    return (Ruling.objects.filter(match=match, void__isnull=True).order_by("-sequence").first())


def void_last_ruling(match, user, reason=""):
    """Void the match's latest non-void ruling (the console's undo)."""
    ruling = last_live_ruling(match)
    if ruling is None:
        raise RulingError("本场没有可作废的判罚（nothing to void）", field="ruling")
    return void_ruling(ruling, user, reason)


# --- approvals and choices -------------------------------------------------------------------------

def approve(ruling, user, *, approved=True, note=""):
    """The chief referee approves (or rejects) a proposed match forfeit or disqualification.

    The person who recorded the ruling may not decide on it. An approved forfeit ends the match.
    """
    if ruling.recorded_by_id == user.pk:
        raise PermissionDenied("提出判罚的人不能核准自己的判罚（the proposer cannot approve）")
    try:
        with transaction.atomic():
            match = _locked_match(ruling.match_id)
            entry = entry_of(match, ruling)
            if entry.state in (VOID, REVERSED) or not entry.sanction.needs_approval:
                raise RulingError("该判罚无需核准（nothing to approve）", field="ruling")
            if Approval.objects.filter(ruling=ruling).exists():
                raise RulingError("该判罚已核准或驳回（already decided）", field="ruling")
            row = Approval.objects.create(ruling=ruling, approved=bool(approved), note=note or "",
                                          decided_by=user, decided_at=clock.now())
            apply_match_result(match)  # approved: the forfeit ends the match; rejected: the rest applies
            return row
    except IntegrityError as exc:
        raise Conflict("该判罚刚被他人核准（conflict）") from exc


def entry_of(match, ruling):
    """The Entry of ``ruling`` among the match's replayed rulings."""
    return _entry_among(match_entries(match), ruling)


def _entry_among(entries, ruling):
    for entry in entries:
        if entry.ruling.pk == ruling.pk:
            return entry
    raise RulingError("判罚不属于该场比赛（ruling not in this match）", field="ruling")


def record_choice(ruling, user, side, option):
    """Record which option the non-offending ``side`` chose; the sanction then takes effect."""
    side = _engine_call(lambda side: normalise_side(side), side=side)
    try:
        with transaction.atomic():
            match = _locked_match(ruling.match_id)
            entry = entry_of(match, ruling)
            if entry.sanction is None or not entry.sanction.pending_choice:
                raise RulingError("该判罚无需选择（no choice pending）", field="ruling")
            if side != entry.sanction.beneficiary:
                raise RulingError("只有非违规方可以选择（only the non-offending side chooses）", field="side")
            ledger = ledger_for(match.profile)
            _engine_call(ledger.preview, code=ruling.code, side=ruling.side, minutes=ruling.minutes,
                         cards=ruling.cards, choice=option, role=ruling.role or None)
            row = ChoiceMade.objects.create(ruling=ruling, side=side, option=str(option), recorded_by=user,
                                            recorded_at=clock.now())
            apply_match_result(match)
            return row
    except IntegrityError as exc:
        raise Conflict("该判罚的选择已记录（conflict: already chosen）") from exc


# --- appeals ---------------------------------------------------------------------------------------

def appeal_deadline_for(ruling):
    """The last moment an appeal against ``ruling`` is accepted (None while the clock has not started)."""
    from tournament.models import Round

    ledger = ledger_for(ruling.profile)
    started = Round.objects.filter(pk=ruling.match.round_id).values_list("results_published_at", flat=True).first()
    return appeal_deadline(ledger.appeal, started) if started else None


def file_appeal(ruling, user, side, grounds=""):
    """A side appeals a ruling; refused after the profile's deadline or against a void ruling."""
    side = _engine_call(lambda side: normalise_side(side), side=side)
    deadline = appeal_deadline_for(ruling)
    if deadline is not None and clock.now() > deadline:
        raise RulingError(f"申诉期限已过（截止 {deadline:%Y-%m-%d %H:%M}）（the appeal deadline has passed）",
                          field="ruling")
    if related_row(ruling, "void") is not None:
        raise RulingError("不能对已作废的判罚申诉（the ruling is void）", field="ruling")
    try:
        with transaction.atomic():
            _locked_match(ruling.match_id)
            return Appeal.objects.create(ruling=ruling, side=side, grounds=grounds or "", filed_by=user,
                                         filed_at=clock.now())
    except IntegrityError as exc:
        raise Conflict("该方已对此判罚提出申诉（this side already appealed）") from exc


def involved_in(ruling, user):
    """True when ``user`` took part in the first ruling: recorded, voided, approved or decided it."""
    ids = {ruling.recorded_by_id}
    for name, attr in (("approval", "decided_by_id"), ("choice_made", "recorded_by_id"), ("void", "voided_by_id")):
        row = related_row(ruling, name)
        if row is not None:
            ids.add(getattr(row, attr))
    ids.update(AppealDecision.objects.filter(appeal__ruling=ruling, instance=1).values_list("decided_by_id", flat=True))
    return user.pk in ids


def decide_appeal(appeal, user, *, instance, outcome, reason=""):
    """Decide an appeal: instance 1 by the chief referee, then instance 2 by the arbitration group.

    Instance 2 needs instance 1 first; an arbitration member involved in the first ruling may not sit.
    A reversal takes the ruling out of the replay, so its points and levels leave the scores.
    """
    if instance not in (1, 2):
        raise RulingError("instance：应为 1（裁判长）或 2（仲裁组）（instance must be 1 or 2）", field="instance")
    if outcome not in AppealDecision.Outcome.values:
        raise RulingError("outcome：应为 upheld 或 reversed（outcome must be upheld or reversed）", field="outcome")
    user_roles = roles.user_roles(user)
    needed = roles.CHIEF_REFEREE if instance == 1 else roles.ARBITRATION
    if needed not in user_roles and not user.is_superuser:
        raise PermissionDenied("一审由裁判长决定，二审由仲裁组决定（wrong instance for your role）")
    ruling = appeal.ruling
    if instance == 2 and involved_in(ruling, user):
        raise PermissionDenied("参与过原判罚的仲裁组成员须回避（involved in the first ruling）")
    try:
        with transaction.atomic():
            match = _locked_match(ruling.match_id)
            decided = set(AppealDecision.objects.filter(appeal=appeal).values_list("instance", flat=True))
            if instance in decided:
                raise RulingError("该审级已作出决定（already decided at this instance）", field="instance")
            if instance == 2 and 1 not in decided:
                raise RulingError("须先由裁判长作出一审决定（the chief referee decides first）", field="instance")
            row = AppealDecision.objects.create(appeal=appeal, instance=instance, outcome=outcome,
                                                reason=reason or "", decided_by=user, decided_at=clock.now())
            apply_match_result(match)
            return row
    except IntegrityError as exc:
        raise Conflict("该审级刚被他人决定（conflict）") from exc


# --- into the match --------------------------------------------------------------------------------

def _state_award(match, ruling, sanction, seats, penalty_points):
    """Keyword arguments for ``MatchState.award`` (the engine's ``award_kwargs``), or None.

    ``seats`` maps hand numbers to the declarer seat of the recorded hands; for a hand not recorded
    yet, the seat the referee saw (``context``) is used as ``first_declarer`` (needed only before
    the first hand is played). Levels that depend on the hand's score (union-games bury) wait until
    the hand is recorded: till then there is no award and the hand stays open for recording.
    """
    context = ruling.context or {}
    points = None
    if sanction.effect.needs_points:
        points = _hand_points(match, ruling.hand_number, penalty_points)
        if points is None:
            return None
    kwargs = sanction.effect.award_kwargs(context.get("level_played"), reason=sanction.explanation,
                                          defender_points=points)
    seat = seats.get(ruling.hand_number) or context.get("declarer")
    if kwargs is None:
        return None
    if seat not in NEXT_SEAT:  # before the first hand: only a side's levels can move
        return None if _needs_seat(kwargs) else kwargs
    return {**kwargs, "first_declarer": seat}


def _hand_points(match, number, penalty_points):
    """The defenders' final points of recorded hand ``number`` with ``penalty_points`` (None if unrecorded)."""
    from scoring import services as scoring_services
    from scoring.engine import final_points

    hand = match.hands.filter(number=number, superseded_by__isnull=True).first()
    if hand is None:
        return None
    return final_points(scoring_services.engine_profile(match.profile), defender_points=hand.defender_points,
                        bottom_points=hand.bottom_points, penalty_points=penalty_points,
                        last_trick=scoring_services.last_trick_from(hand.last_trick, hand.trump))


def _signed_points(ruling, sanction, seats):
    """Points toward the defenders for one sanction; 0 while the offender's role is unknown."""
    role = ruling.offender_role or ruling.role
    if not role:
        declaring = SEAT_SIDE.get(seats.get(ruling.hand_number))
        if declaring is None:
            return 0
        role = "declarers" if declaring == ruling.side else "defenders"
    return defender_points_delta(sanction, role)


def _declarer_seats(match, hands=None):
    """{hand number: declarer seat} from the current recorded hands (``hands`` when already read)."""
    if hands is not None:
        return {hand.number: hand.declarer_seat for hand in hands if hand.declarer_seat}
    try:
        hands = match.hands.filter(superseded_by__isnull=True).values_list("number", "declarer_seat")
    except AttributeError:
        return {}
    return {number: seat for number, seat in hands if seat}


def hand_adjustments(match, entries=None, *, hands=None):
    """What the live rulings do to each hand, for ``scoring.services.match_state``.

    Returns {hand_number: {"penalty_points": signed int toward the defenders,
    "award": kwargs for MatchState.award or None, "forfeit": kwargs for MatchState.forfeit_match
    or None, "points_against": {"NS": n, "EW": n}}}. Void and reversed rulings are left out, and
    so is a ruling still waiting for the other side's choice; a match forfeit or disqualification
    counts only once the chief referee has approved it (when both sides forfeit, the match has no
    winner and :func:`apply_match_result` records it). ``hands``: the current hands, when already read.
    """
    seats = _declarer_seats(match, hands)
    entries = match_entries(match) if entries is None else entries
    forfeit = approved_forfeit(match, entries)
    result = {}
    live = [entry for entry in entries if entry.state in (IN_FORCE, REJECTED) and entry.sanction is not None]
    for entry in live:  # the hand's points first: a score-dependent award needs their total
        ruling, sanction = entry.ruling, entry.sanction
        slot = result.setdefault(ruling.hand_number, {"penalty_points": 0, "award": None, "forfeit": None,
                                                      "points_against": {"NS": 0, "EW": 0}})
        slot["penalty_points"] += _signed_points(ruling, sanction, seats)
        slot["points_against"][sanction.side] += sanction.points
    for entry in live:
        ruling, sanction = entry.ruling, entry.sanction
        slot = result[ruling.hand_number]
        if slot["award"] is None:
            slot["award"] = _state_award(match, ruling, sanction, seats, slot["penalty_points"])
        if forfeit is not None and forfeit[1] is entry and forfeit[0] is not None:
            slot["forfeit"] = {"winner": forfeit[0], "reason": sanction.explanation}
    return result


def approved_forfeit(match, entries=None):
    """The approved match forfeit in force, as (winner side or None when both sides forfeit, Entry).

    None when no approved forfeit or disqualification is in force.
    """
    losers, first = set(), None
    for entry in match_entries(match) if entries is None else entries:
        if entry.state == IN_FORCE and entry.sanction.kinds & {"match_forfeit", "disqualification"}:
            losers.add(entry.sanction.side)
            first = first or entry
    if first is None:
        return None
    winner = None if len(losers) == 2 else first.sanction.beneficiary
    return winner, first


def adjustments_for(match, entries=None):
    """The scoring layer's hook: ``hands -> hand_adjustments(...)`` with the rulings replayed once.

    ``entries`` (from :func:`match_entries`) when the caller has them; ``hands`` (the current hands)
    may be None, then they are read.
    """
    entries = match_entries(match) if entries is None else entries
    return lambda hands=None: hand_adjustments(match, entries, hands=hands)


def apply_match_result(match, entries=None, *, hands=None):
    """Bring the (locked) match's derived fields up to date after a ruling, inside the caller's transaction.

    The scoring layer replays the hands with :func:`hand_adjustments` (``refresh_match``); then an
    approved forfeit sets the status to "forfeit" (and a reversed one takes it back). Match.status
    and winner are derived fields; this is the one function of this app that writes them.
    ``match`` must be the instance locked by :func:`_locked_match` (it is updated in place);
    ``entries`` and ``hands``: the match's replayed rulings and current hands, when already read.
    """
    from scoring.services import refresh_match

    entries = match_entries(match) if entries is None else entries
    # reopen: voiding or reversing the ruling that decided the match takes the win back (a match the
    # clock ended is finished again by the clock's own check inside refresh_match)
    refresh_match(match, reopen=True, replayed=match_replay(match, entries, hands))
    forfeit = approved_forfeit(match, entries)
    fields = {}
    if forfeit is not None:
        winner, entry = forfeit
        pair = {"NS": match.ns, "EW": match.ew}.get(winner) if winner else None
        fields = {"status": Match.Status.FORFEIT, "winner": pair,
                  "result_note": entry.sanction.explanation[:200], "finished_at": match.finished_at or clock.now()}
    elif match.status == Match.Status.FORFEIT:
        fields = {"status": Match.Status.PLAYING if match.hands.exists() else Match.Status.SCHEDULED,
                  "winner": None, "result_note": "", "finished_at": None}
    if fields:
        for key, value in fields.items():
            setattr(match, key, value)
        match.save(update_fields=list(fields))
    return match


# --- assignments -------------------------------------------------------------------------------------

def assign_referee(match, referee, by):
    """An organiser assigns a table referee to a match (never where the referee's own unit plays)."""
    if roles.TABLE_REFEREE not in roles.user_roles(referee) and roles.CHIEF_REFEREE not in roles.user_roles(referee):
        raise RulingError("只能指派裁判员（the user is not a referee）", field="referee")
    from tournament.services.stages import CompetitionError
    from tournament.services.stages import assign_referee as add_table_referee

    try:
        add_table_referee(match, referee)
    except CompetitionError as exc:
        raise RulingError(str(exc), field="referee") from exc
    return match
