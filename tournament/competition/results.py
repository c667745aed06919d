"""The one owner of a match's result: status, winner, levels, finish time and note are written here only.

    decide(state, forfeit, allowance, *, decision=None, standing=None) -> Verdict   what the records say
    settle(match, *, record) -> Verdict                  store it in one save and move the competition on
    expected(match, *, record) -> Verdict | None         what settle would store now (read only)
    record_decision(match, user, *, winner, kind, reason) -> ResultDecision   a chief's result where the
                                                        hands cannot decide (no hand at time-up, no play)
    advance_bracket(stage, *, refuse_started=False)     write a knock-out's resolved entrants, byes, walkovers
    entry_withdrawn(pair) -> int                         walkovers for a pair that left, then the brackets
    entry_restored(pair) -> int                          a removal lifted: its walkovers not begun are played
    entry_substituted(pair_out, pair_in) -> int          a reserve pair takes a pair's place in matches not begun
    give_swiss_bye(rnd, pair_id) -> Match                a Swiss round's bye: a win for the entry

Every source of a result calls :func:`settle` inside its own transaction, holding the Match lock:
recording or correcting a hand (``scoring.services``), a ruling that changes the replay or decides a
forfeit (``rulings.services`` and ``rulings.appeals``), the clock fixing a table's last hand at time-up
(``tournament.clocks.tables``), a chief's decision (:func:`record_decision`). It hands over the match's
records as it read them (:class:`tournament.records.match.MatchRecord`: the replay, the approved forfeit, a
result kept on appeal), so this module reads no hand or ruling itself; a caller holding only a replay passes
``replay=`` (and ``entries=``) and the record is made from them. Byes and walkovers come from the bracket
and from withdrawals, below.

When the outcome changes (a match ends, changes winner, or is reopened), the competition moves on
explicitly: the knock-out's next matches get their entrants (or lose them), a group's knock-out gets
its qualifiers. A next match that has already begun is never changed: the change is refused with a
:class:`~common.errors.ConflictError` naming that match, and the caller's transaction rolls back, so
nothing is half-saved. A group's kept standings (:func:`tournament.competition.group_standings.keep_groups`) are
ranked again from its results in the same transaction whenever one of them changes.
"""
from __future__ import annotations

from typing import NamedTuple

from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.utils.translation import gettext as _

from common.errors import ConflictError, ForbiddenError, UserError, gettext_noop
from infra import clock
from infra.db import lock_row
from tournament import access, pagecache
from tournament.competition import allowances, display_cache, group_standings, knockout
from tournament.competition.referees import drop_conflicting_referees
from tournament.models import Event, HandAllowance, Match, Pair, ResultDecision, Stage
from tournament.models.competition import describe_key
from tournament.records import match as match_record
from tournament.records.match import MatchRecord
from tournament.records.notes import SWISS_BYE_NOTE, WALKOVER_NOTE

# How a match ended (Verdict.how) and the note stored with results that the levels alone do not explain.
TOP, HANDS, TIME, FORFEIT, DECISION, STANDS = "top", "hands", "time", "forfeit", "decision", "stands"
_NOTES = {
    HANDS: gettext_noop("Last allowed hand played; decided by level"),
    TIME: gettext_noop("Time is up; decided by level"),
    STANDS: gettext_noop("The result stands by the appeal's decision (the next match had begun or the round "
                         "was closed)"),
}


class NextMatchBegun(ConflictError):
    """A change of result refused: ``begun`` (a Match), whose entrants it would change, has already begun."""

    def __init__(self, message, *, begun, **params):
        super().__init__(message, **params)
        self.begun = begun


class Verdict(NamedTuple):
    """What the records say: over or not, the winning side ("NS"/"EW"/None), how, and a note."""

    over: bool
    winner: str | None = None
    how: str = ""
    note: str = ""


def decide(state, forfeit, allowance, *, decision=None, standing=None) -> Verdict:
    """The verdict on a match from its replayed ``state`` (hands and rulings), the approved ``forfeit``
    ((winner side or None, its note) from :attr:`tournament.records.match.MatchRecord.forfeit`, or None), the
    clock's ``allowance`` (in force: ``tournament.competition.allowances.InForce``, or None while its hands are not limited) and the
    chief's latest ``decision`` (a ResultDecision, or None).

    A result an appeal's deciding body kept (``standing``: the side, ``MatchRecord.standing``)
    decides first; then a forfeit; then a side past the top level; then the chief's decision (made only where
    the hands could not decide); then the last allowed hand, where the profile's time-up rule names the
    winner (``MatchState.winner_at_time``).
    """
    if standing is not None:
        return Verdict(True, standing, STANDS, _(_NOTES[STANDS]))
    if forfeit is not None:
        winner, note = forfeit
        return Verdict(True, winner, FORFEIT, note)
    if state.winner is not None:
        return Verdict(True, state.winner, TOP)
    if decision is not None:
        return Verdict(True, decision.winner, DECISION, decision.reason)
    if allowance is not None and state.hand_count >= allowance.last_hand:
        how = TIME if allowance.reason == HandAllowance.Reason.TIME_UP else HANDS
        return Verdict(True, state.winner_at_time(), how, _(_NOTES[how]))
    return Verdict(False)


_STATUS = {(FORFEIT, ""): Match.Status.FORFEIT, (DECISION, "walkover"): Match.Status.WALKOVER}
# what settle() writes, in one UPDATE
_SETTLED = ("ns_level", "ew_level", "status", "winner", "finished_at", "result_note", "started_at")


def _allowance(match, state):
    """The match's hand allowance in force (``tournament.competition.allowances.InForce``) or None; the
    HandAllowance from the match's read when it joined ``hand_allowance``."""
    if Match.hand_allowance.related.is_cached(match):
        row = getattr(match, "hand_allowance", None)
    else:
        row = HandAllowance.objects.filter(match_id=match.pk).first()
    return allowances.in_force(row, state, match)


def _latest_decision(match):
    """The chief's latest decision of ``match``, or None. A decision always leaves the match over (its
    verdict is over whatever else happens), so a match not over has none: no query for it."""
    if match.status not in Match.OVER:
        return None
    return ResultDecision.objects.filter(match_id=match.pk).order_by("-decided_at", "-id").first()


def _record(match, *, record, replay, entries) -> MatchRecord:
    """The record settle and expected decide from: the caller's (with ``replay`` when given), else one made
    from the caller's ``replay`` and ``entries`` (read when None)."""
    if record is None:
        return match_record.of(match, replay=replay, entries=entries)
    return record if replay is None else record.replayed(replay)


def settle(match, *, record=None, replay=None, entries=None, decision=None) -> Verdict:
    """Store the result the records give ``match`` (locked by the caller, in its transaction).

    ``record``: the match's records as the caller read them and its write left them
    (:class:`~tournament.records.match.MatchRecord`, its ``replay`` set); or ``replay``: the match replayed
    with the rulings' adjustments and ``entries``: its replayed rulings (read when None). ``decision``: a
    chief's decision just stored. The levels, status, winner, finish and start times and note are written in
    one save; when the outcome changed the competition moves on (or the change is refused, naming the next
    match already begun). Byes and walkovers are left as they are.
    """
    decision = decision or _latest_decision(match)
    if match.status in (Match.Status.BYE, Match.Status.WALKOVER) and decision is None:
        return Verdict(True, None)
    record = _record(match, record=record, replay=replay, entries=entries)
    state = record.replay.state
    verdict = decide(state, record.forfeit, _allowance(match, state), decision=decision, standing=record.standing)
    before = (match.is_over, match.winner_id)
    shown = (match.status, match.winner_id, match.ns_level, match.ew_level)
    now = clock.now()
    match.ns_level, match.ew_level = state.levels["NS"], state.levels["EW"]
    if verdict.over:
        status = _STATUS.get((verdict.how, decision.kind if verdict.how == DECISION else ""), Match.Status.FINISHED)
        winner_id = {"NS": match.ns_id, "EW": match.ew_id}.get(verdict.winner)
        if (match.status, match.winner_id) != (status, winner_id):
            match.finished_at = now
        match.status, match.winner_id, match.result_note = status, winner_id, verdict.note
    elif match.status in Match.DECIDED:  # reopened by a correction or a void
        match.status = Match.Status.PLAYING if state.hand_count else Match.Status.SCHEDULED
        match.winner_id, match.finished_at, match.result_note = None, None, ""
    elif state.hand_count and match.status in Match.WAITING:
        match.status = Match.Status.PLAYING
    if state.hand_count and match.started_at is None:
        match.started_at = now
    with group_standings.keeping():
        match.save(update_fields=_SETTLED)
    result_changed = (match.status, match.winner_id) != shown[:2] or (
        match.status in Match.DECIDED and (match.ns_level, match.ew_level) != shown[2:])
    if result_changed and match.group_id is not None:
        # the group's kept standings follow in this transaction, before the knock-out reads its qualifiers
        group_standings.keep_groups(_event(match.round_id), [match.group_id])
    if (match.is_over, match.winner_id) != before:
        move_on(match, was_over=before[0])
    # the pages show a result (and the standings its levels) at once; a level of a match in play within
    # pagecache.PAGE_TTL (the live parts of the pages follow it within seconds)
    if result_changed:
        pagecache.changed_match(match)
    round_id = match.round_id
    transaction.on_commit(lambda: display_cache.tables_changed(round_id))
    return verdict


def _event(round_id) -> Event:
    """The event of a round, with its profile (what the standings are ranked by)."""
    return Event.objects.select_related("profile").get(stages__rounds=round_id)


def expected(match, *, record=None, replay=None, entries=None, standing=True) -> Verdict | None:
    """What :func:`settle` would conclude for ``match`` now, read only (``manage.py verify_replay``): None
    for a bye or a walkover the records leave as they are. ``record`` (or ``replay`` and ``entries``) as for
    :func:`settle`. ``standing=False``: what the records give without a result an appeal kept (does a decision
    change the result?)."""
    decision = _latest_decision(match)
    if match.status in (Match.Status.BYE, Match.Status.WALKOVER) and decision is None:
        return None
    record = _record(match, record=record, replay=replay, entries=entries)
    state = record.replay.state
    return decide(state, record.forfeit, _allowance(match, state), decision=decision,
                  standing=record.standing if standing else None)


def status_of(match, verdict) -> str:
    """The status :func:`settle` stores for an over ``verdict``."""
    decision = _latest_decision(match) if verdict.how == DECISION else None
    return _STATUS.get((verdict.how, decision.kind if decision is not None else ""), Match.Status.FINISHED)


def decide_match(match, user, *, winner, kind, reason):
    """A chief referee decides a match the recorded hands cannot decide: a walkover or a decided winner.

    Locks the match, replays it once and records the decision (:func:`record_decision`); returns the row.
    """
    if not access.may(user, access.DECIDE_RESULT, match=match):
        raise ForbiddenError(gettext_noop("Only a chief referee may decide a result."))
    with transaction.atomic():
        locked = lock_row(Match.objects.select_related("round", "ns", "ew", "profile", "hand_allowance"), match.pk)
        return record_decision(locked, user, winner=winner, kind=kind, reason=reason,
                               record=match_record.of(locked))


def record_decision(match, user, *, winner, kind, reason, record=None, replay=None, entries=None):
    """Store a chief's decision of the (locked) ``match`` and settle it; ``record`` (or ``replay`` and
    ``entries``) as for :func:`settle`. Refused when the hands,
    a forfeit or the top level already decide it, or once the round's results are published. The
    decision is a new append-only row; the result is then settled like every other (and the bracket moves).
    """
    if winner not in ("NS", "EW"):
        raise UserError(gettext_noop("Choose the winning side."), field="winner")
    if kind not in ResultDecision.Kind.values:
        raise UserError(gettext_noop("Choose a walkover or a decided winner."), field="kind")
    if not (reason or "").strip():
        raise UserError(gettext_noop("Give the reason for the decision."), field="reason")
    if match.ns_id is None or match.ew_id is None:
        raise ConflictError(gettext_noop("This table has no two entries to decide between."), field="winner")
    if match.round.results_published_at is not None:
        raise ConflictError(gettext_noop("The round is closed: reopen it before changing a result."), field="winner")
    record = _record(match, record=record, replay=replay, entries=entries)
    state = record.replay.state
    by_records = decide(state, record.forfeit, _allowance(match, state))
    if by_records.over and by_records.winner is not None:
        raise ConflictError(gettext_noop("The recorded hands and rulings already decide this match."), field="winner")
    row = ResultDecision.objects.create(match=match, kind=kind, winner=winner, reason=reason.strip()[:300],
                                        decided_by=user, decided_at=clock.now())
    settle(match, record=record, decision=row)
    return row


def move_on(match, *, was_over=False):
    """The outcome of ``match`` changed: re-derive what depends on it (refusing to touch begun matches)."""
    stage = Stage.objects.get(rounds=match.round_id)
    if stage.kind == Stage.Kind.ELIMINATION:
        advance_bracket(stage, refuse_started=True)
        return
    group_open = match.group_id and Match.objects.filter(group_id=match.group_id).exclude(
        status__in=(*Match.DECIDED, Match.Status.BYE)).exists()
    if group_open and not was_over:
        return  # the group's qualifiers were not known before and are not now
    for following in stage.next_stages.filter(kind=Stage.Kind.ELIMINATION):
        advance_bracket(following, refuse_started=True)


def _begun(row) -> bool:
    return row.status in Match.PLAYED or row.started_at is not None


def advance_bracket(stage, *, refuse_started=False) -> list[str]:
    """Write the resolved bracket into the stage's Match rows; returns the keys of stale results.

    Matches being played or decided by play are never changed; byes resolve at once, a withdrawn
    entry's match becomes a walkover for the other side, and referees whose unit now plays at a table
    are taken off it. ``refuse_started``: a begun match whose entrants would change makes this raise
    ConflictError naming it (a result changed after the fact must not rewrite a match under way).
    """
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        view = knockout.bracket_state(stage)
        if view is None:
            return []
        changed, free_tables = [], {}
        for slot in view.bracket.matches:
            row = view.rows.get(slot.key)
            if row is None:
                continue
            ms = view.state.matches[slot.key]
            ns, ew = knockout.sides(slot, row, view.pair_of(ms.a), view.pair_of(ms.b), view.same_place)
            if _begun(row):
                place = view.same_place
                if refuse_started and {place(row.ns_id), place(row.ew_id)} != {place(ns), place(ew)}:
                    raise NextMatchBegun(
                        gettext_noop("The result cannot change: %(match)s (table %(table)s) has already begun."),
                        field="winner", begun=row, match=f"{row.round} {describe_key(row.bracket_key)}", table=row.table)
                continue
            new = (ns, ew, *knockout.derive(view, ms, row))
            new += (_bye_table(row, slot, new[2], free_tables),)
            if (row.ns_id, row.ew_id, row.status, row.winner_id, row.result_note, row.table) != new:
                row.ns_id, row.ew_id, row.status, row.winner_id, row.result_note, row.table = new
                changed.append(row)
        if changed:
            Match.objects.bulk_update(changed, ["ns", "ew", "status", "winner", "result_note", "table"])
            drop_conflicting_referees([r.pk for r in changed])
            pagecache.changed(stage.event_id)
            for round_id in {r.round_id for r in changed}:
                transaction.on_commit(lambda round_id=round_id: display_cache.invalidate(round_id))
        return list(view.state.stale)


def _bye_table(row, slot, status, free_tables):
    """The table of a knock-out match as it moves on: a bye has none (a later round's match whose entrant
    never comes, e.g. the third-place match with a first-round bye's "loser", frees its table); a match
    that was such a bye and is played after all (a result changed) takes the round's next free number."""
    if status == Match.Status.BYE:
        return None
    if row.table is not None or "bye" in (slot.a.kind, slot.b.kind):   # a first-round bye's slot has no table
        return row.table
    if row.round_id not in free_tables:   # the round's highest number so far
        free_tables[row.round_id] = Match.objects.filter(round_id=row.round_id).aggregate(top=Max("table"))["top"] or 0
    free_tables[row.round_id] += 1
    return free_tables[row.round_id]


@transaction.atomic
def entry_withdrawn(pair: Pair) -> int:
    """A pair withdrew: each of its group matches not yet begun becomes a walkover for the opponent,
    and every knock-out of the event is moved on. Returns the number of group walkovers given."""
    given, groups = 0, set()
    for match in (Match.objects.select_for_update()
                  .filter(Q(ns=pair) | Q(ew=pair), group__isnull=False, status__in=Match.WAITING,
                          started_at__isnull=True, ew__isnull=False)):
        other = match.ew_id if match.ns_id == pair.pk else match.ns_id
        Match.objects.filter(pk=match.pk).update(status=Match.Status.WALKOVER, winner_id=other,
                                                 result_note=WALKOVER_NOTE)
        given += 1
        groups.add(match.group_id)
    if groups:
        group_standings.keep_groups(Event.objects.select_related("profile").get(pk=pair.event_id), groups)
    for stage in Stage.objects.filter(event_id=pair.event_id, kind=Stage.Kind.ELIMINATION):
        advance_bracket(stage)
    pagecache.changed(pair.event_id)
    return given


def _restorable(pair: Pair, **where):
    """The walkovers ``pair``'s removal gave (or lost it) that nobody has begun or decided by hand."""
    decided = ResultDecision.objects.filter(match=OuterRef("pk"))
    return (Match.objects.select_for_update()
            .filter(Q(ns=pair) | Q(ew=pair), **where, status=Match.Status.WALKOVER, result_note=WALKOVER_NOTE,
                    started_at__isnull=True, ns__isnull=False, ew__isnull=False)
            .exclude(Exists(decided)))


@transaction.atomic
def entry_restored(pair: Pair) -> int:
    """A suspension or disqualification was lifted (its ruling voided or decided on appeal): each walkover
    of the pair not yet begun is to be played after all (a walkover for the pair where the opponent has
    gone meanwhile), and the knock-outs are moved on. A knock-out whose next match has already begun keeps
    its walkover (played matches keep their result). Returns the number of matches given back to play."""
    restored, groups = 0, set()
    for match in _restorable(pair, group__isnull=False):
        other = Pair.objects.filter(pk=match.ew_id if match.ns_id == pair.pk else match.ns_id).first()
        gone = other is not None and other.status in Pair.GONE
        status, winner = (Match.Status.WALKOVER, pair.pk) if gone else (Match.Status.SCHEDULED, None)
        Match.objects.filter(pk=match.pk).update(status=status, winner_id=winner,
                                                 result_note=WALKOVER_NOTE if gone else "")
        restored += 0 if gone else 1
        groups.add(match.group_id)
    if groups:
        group_standings.keep_groups(Event.objects.select_related("profile").get(pk=pair.event_id), groups)
    for stage in Stage.objects.filter(event_id=pair.event_id, kind=Stage.Kind.ELIMINATION):
        restored += _reopen_bracket(stage, pair)
    pagecache.changed(pair.event_id)
    return restored


def _reopen_bracket(stage, pair) -> int:
    """Give the pair's knock-out walkovers back to play where no later match has begun; returns how many."""
    rows = list(_restorable(pair, round__stage=stage))
    try:
        with transaction.atomic():
            Match.objects.filter(pk__in=[m.pk for m in rows]).update(status=Match.Status.SCHEDULED, winner_id=None,
                                                                      result_note="")
            advance_bracket(stage, refuse_started=True)
    except ConflictError:
        return 0  # a later match has begun: the walkovers stand
    return len(rows)


@transaction.atomic
def entry_substituted(pair_out: Pair, pair_in: Pair) -> int:
    """A unit team brought in its reserve pair ``pair_in`` for ``pair_out`` (a PairSubstitution just
    stored): every match of ``pair_out`` not yet begun outside a knock-out (and its group byes to come) is now
    ``pair_in``'s, and the knock-outs are moved on (their bracket names the pair holding each drawn slot,
    ``slot_holders.holders``).
    Matches already begun keep the pair that played them. Returns the number of rows changed."""
    changed = 0
    # the matches still to play, and a group round's bye still to come (no winner: it counts for nothing, but
    # it names the pair holding the slot; a Swiss bye is a win and stays with the pair it was given to)
    to_come = Q(status__in=Match.WAITING, started_at__isnull=True) | Q(
        status=Match.Status.BYE, winner__isnull=True, group__isnull=False, round__results_published_at__isnull=True)
    waiting = Match.objects.select_for_update().filter(to_come, round__stage__event_id=pair_out.event_id).exclude(
        round__stage__kind=Stage.Kind.ELIMINATION)
    for side in ("ns", "ew"):
        changed += waiting.filter(**{side: pair_out}).update(**{side: pair_in})
    for stage in Stage.objects.filter(event_id=pair_out.event_id, kind=Stage.Kind.ELIMINATION):
        before = Match.objects.filter(round__stage=stage).filter(Q(ns=pair_in) | Q(ew=pair_in)).count()
        advance_bracket(stage)
        changed += Match.objects.filter(round__stage=stage).filter(Q(ns=pair_in) | Q(ew=pair_in)).count() - before
    for round_id in set(Match.objects.filter(Q(ns=pair_in) | Q(ew=pair_in)).values_list("round_id", flat=True)):
        transaction.on_commit(lambda round_id=round_id: display_cache.invalidate(round_id))
    pagecache.changed(pair_out.event_id)
    return changed




def give_swiss_bye(rnd, pair_id: int) -> Match:
    """A Swiss round's bye: a Match with no opponent and no table, status bye, the entry as its winner.

    The standings count it as a forfeit win (the points of a win, the walkover levels of the stage's
    forfeit rule: :mod:`tournament.competition.swiss_standings`). Called by the Swiss pairing only.
    """
    pagecache.changed(rnd.stage.event_id)
    return Match.objects.create(round=rnd, ns_id=pair_id, profile_id=rnd.stage.event.profile_id,
                                status=Match.Status.BYE, winner_id=pair_id, result_note=SWISS_BYE_NOTE)
