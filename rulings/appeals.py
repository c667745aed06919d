"""Appeals against rulings: filing within the profile's deadline, and decisions by instance.

The route is the profile's (``rulings.appeal_route``): who sits on the first instance and on the second,
or none (the first is final); an arbitration member involved in the first ruling may not sit. The outcomes:
维持 (upheld), 撤销 (reversed: the ruling leaves the replay, so its points and levels leave the scores) and
改判 (amended: a new ruling with the sanction the deciding body gives takes the appealed one's place; it is
replayed where the old one stood). Either way the match's result is settled again by its one owner.
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, ForbiddenError, gettext_noop
from infra import clock
from rulings import appeal_route
from rulings.engine import normalise_side, offending_seat
from rulings.models import Appeal, AppealDecision, Approval, Ruling
from rulings.pair_removals import remove_from_event, restore_if_lifted
from rulings.services import Conflict, RulingError, engine_call, lock_match
from tournament import access
from tournament.competition import results
from tournament.models import Round
from tournament.models.competition import describe_key
from tournament.records import match as match_record
from tournament.records.closing import appeal_deadline_of
from tournament.records.ledger import (
    mark_new,
    match_rulings,
    related_row,
    replay_rulings,
    sanction_dict,
)

# What an amendment (改判) may give: the engine's inputs of the new sanction.
AMENDMENT_FIELDS = ("code", "side", "minutes", "seconds", "cards", "choice", "role")


def appeal_deadline_for(ruling):
    """The last moment an appeal against ``ruling`` is accepted (None while the time does not run yet, or
    without a limit). Reads the round afresh (filing an appeal checks it)."""
    started = Round.objects.filter(pk=ruling.match.round_id).values_list("results_published_at", flat=True).first()
    return deadline_after(ruling, started)


def deadline_after(ruling, published_at, ends=None):
    """The appeal deadline of ``ruling`` once its round's results were published at ``published_at`` (None:
    not published). Counted from the table's end of play where the profile says so (000 第十九条（二）), which
    runs before the close and is not moved by a reopen. The logs pass the round they read with the rulings,
    and ``ends`` (:func:`tournament.records.closing.ends_of_play` of their matches)."""
    if ends is not None and ruling.match_id in ends:
        return appeal_deadline_of(ruling.match, ruling.profile, published_at=published_at, end=ends[ruling.match_id])
    return appeal_deadline_of(ruling.match, ruling.profile, published_at=published_at)


def file_appeal(ruling, user, side, grounds=""):
    """A side appeals a ruling; refused after the profile's deadline or against a void ruling."""
    side = engine_call(lambda side: normalise_side(side), side=side)
    deadline = appeal_deadline_for(ruling)
    if deadline is not None and clock.now() > deadline:
        raise RulingError(gettext_noop("The appeal deadline has passed (it was %(deadline)s)."), field="ruling",
                          deadline=f"{deadline:%Y-%m-%d %H:%M}")
    if related_row(ruling, "void") is not None:
        raise RulingError(gettext_noop("A void ruling cannot be appealed."), field="ruling")
    try:
        with transaction.atomic():
            lock_match(ruling.match_id)
            return Appeal.objects.create(ruling=ruling, side=side, grounds=grounds or "", filed_by=user,
                                         filed_at=clock.now())
    except IntegrityError as exc:
        raise Conflict(gettext_noop("This side has already appealed this ruling."), field="side") from exc


def involved_in(ruling, user):
    """True when ``user`` took part in the first ruling: recorded, voided, approved or decided it."""
    ids = {ruling.recorded_by_id}
    for name, attr in (("approval", "decided_by_id"), ("choice_made", "recorded_by_id"), ("void", "voided_by_id")):
        row = related_row(ruling, name)
        if row is not None:
            ids.add(getattr(row, attr))
    ids.update(AppealDecision.objects.filter(appeal__ruling=ruling, instance=1).values_list("decided_by_id", flat=True))
    return user.pk in ids


def decide_appeal(appeal, user, *, instance, outcome, reason="", amendment=None, result_stands=False):
    """Decide an appeal at ``instance`` by the body the profile's route names (``rulings.appeal_route``).

    Instance 2 needs instance 1 first and exists only where the route has one; an arbitration member involved in the first ruling may not sit.
    A reversal takes the ruling out of the replay, so its points and levels leave the scores. An amendment
    needs ``amendment`` ({"code", "side", "minutes", "seconds", "cards", "choice", "role"}; the code and side
    default to the appealed ruling's): the new ruling is stored, linked to the appealed one, and applies.

    Appeals come after the match (within the appeal window): the match is settled again by its one owner
    (``results.settle``), the bracket moving with a changed winner. Where the decision would change the
    result but the winner's next match has begun, or leave a match of a closed round without a result, it is
    refused with that reason (a 409 naming the match) and the way the rules leave: the deciding body decides
    again with ``result_stands`` (the sanction as decided goes on the record, the match's result and the
    bracket stand: ``AppealDecision.result_stands``), or the round is reopened first.
    """
    if instance not in (1, 2):
        raise RulingError(gettext_noop("The instance must be 1 (the chief referee) or 2 (the arbitration group)."),
                          field="instance")
    if outcome not in AppealDecision.Outcome.values:
        raise RulingError(gettext_noop("The outcome must be upheld, amended or reversed."), field="outcome")
    if outcome == AppealDecision.Outcome.AMENDED and not amendment:
        raise RulingError(gettext_noop("An amended ruling needs the new sanction: give the offence and its details."),
                          field="amendment")
    ruling = appeal.ruling
    if instance > appeal_route.instances(ruling.profile):
        raise ConflictError(gettext_noop("Under this event's rules the first decision on an appeal is final."),
                            field="instance")
    if not appeal_route.may_decide(user, ruling, instance):
        raise ForbiddenError(gettext_noop("This instance of the appeal is decided by: %(body)s."), field="instance",
                             body=_(appeal_route.BODY_LABELS[appeal_route.body_at(ruling.profile, instance)]))
    if (instance == 2 or appeal_route.body_at(ruling.profile, instance) == "arbitration_group") \
            and involved_in(ruling, user):
        raise ForbiddenError(gettext_noop("An arbitration member involved in the first ruling must stand aside."))
    try:
        with transaction.atomic():
            match = lock_match(ruling.match_id)
            decided = set(AppealDecision.objects.filter(appeal=appeal).values_list("instance", flat=True))
            if instance in decided:
                raise RulingError(gettext_noop("This instance has already decided."), field="instance")
            if instance == 2 and 1 not in decided:
                raise RulingError(gettext_noop("The chief referee must decide the first instance first."), field="instance")
            kept = _side_of(match, match.winner_id) if match.is_over else None
            if result_stands and kept is None:
                raise RulingError(gettext_noop("The match has no winner yet, so there is no result to keep."),
                                  field="result_stands")
            replacement = None
            if outcome == AppealDecision.Outcome.AMENDED:
                replacement = _replacement(match, ruling, user, amendment=amendment, reason=reason)
            row = AppealDecision.objects.create(appeal=appeal, instance=instance, outcome=outcome,
                                                reason=reason or "", replacement=replacement,
                                                result_stands=kept if result_stands else "", decided_by=user,
                                                decided_at=clock.now())
            _resettle(match, kept, result_stands)
            restore_if_lifted(match, user, ruling)
            sanction = _sanction_of(match, replacement) if replacement is not None else None
            if sanction is not None and access.may(user, access.APPROVE, match=match):
                remove_from_event(match, user, replacement, sanction=sanction)  # a disqualification given on appeal
            return row
    except IntegrityError as exc:
        raise Conflict(gettext_noop("Someone else has just decided at this instance."), field="instance") from exc


def _side_of(match, pair_id):
    return {match.ns_id: "NS", match.ew_id: "EW"}.get(pair_id) if pair_id else None


def _resettle(match, kept, result_stands):
    """Settle the (locked) match again after a decision, through its one owner; ``kept``: the winner side
    before it. A decision that changes the result where it can no longer change is refused with the reason
    and what the deciding body can do (:class:`ResultCannotChange`)."""
    record = match_record.of(match)   # the records as the decision leaves them
    winner = str(match.winner) if match.winner_id else ""   # before settle changes the locked match
    would = results.expected(match, record=record, standing=False)
    if would is None:   # a bye or a walkover: its result is not the records'
        if result_stands:
            raise RulingError(gettext_noop("This decision does not change the result: there is nothing to keep."),
                              field="result_stands")
        results.settle(match, record=record)
        return
    changes = kept is not None and (not would.over or would.winner != kept)
    if result_stands and not changes:
        raise RulingError(gettext_noop("This decision does not change the result: there is nothing to keep."),
                          field="result_stands")
    closed = match.round.results_published_at is not None
    if changes and not result_stands and closed and not (would.over and would.winner):
        after = results.expected(match, record=record)
        if not (after.over and after.winner):   # no result an earlier decision kept either
            raise ResultCannotChange(
                gettext_noop("With this decision the recorded hands and rulings no longer decide %(match)s (its "
                             "winner now %(winner)s), and the round is closed, so it cannot be played on. Decide "
                             "again with “the result stands” to record the decision and keep %(winner)s as the "
                             "winner, or reopen the round first."),
                field="result_stands", match=str(match), winner=winner)
    try:
        results.settle(match, record=record)
    except results.NextMatchBegun as exc:
        begun = exc.begun
        raise ResultCannotChange(
            gettext_noop("This decision changes the result of %(match)s (winner now %(winner)s), but the winner's "
                         "next match, %(next)s (table %(table)s), has already begun, so the result can no longer "
                         "change. Decide again with “the result stands”: the decision goes on the record and "
                         "%(winner)s stays the winner (the chief referee's decision under the rules)."),
            field="result_stands", match=str(match), winner=winner,
            next=f"{begun.round} {describe_key(begun.bracket_key)}", table=begun.table or "") from exc


class ResultCannotChange(Conflict):
    """An appeal decision that would change a result which can no longer change (HTTP 409): the message says
    why and offers ``result_stands``."""


def _replacement(match, ruling, user, *, amendment, reason):
    """The new ruling an amendment (改判) stores: the deciding body's sanction for the same hand, computed
    by the ledger as if it stood where the appealed ruling stood; a match loss it gives is decided by the
    deciding body (its Approval row), not sent back for approval."""
    unknown = set(amendment) - set(AMENDMENT_FIELDS)
    if unknown:
        raise RulingError(gettext_noop("Unknown detail of the new sanction: %(name)s."), field="amendment",
                          name=", ".join(sorted(unknown)))
    inputs = {key: amendment.get(key) for key in AMENDMENT_FIELDS}
    inputs["code"] = inputs["code"] or ruling.code
    named = inputs["side"] or ruling.seat or ruling.side   # the appealed ruling's player unless another is named
    inputs["side"] = engine_call(lambda side: normalise_side(side), side=named)
    seat = offending_seat(named)
    inputs["choice"], inputs["role"] = inputs["choice"] or None, inputs["role"] or None
    earlier = [r for r in match_rulings(match) if r.sequence < ruling.sequence]
    sanction = engine_call(replay_rulings(match, earlier)[0].preview, **{**inputs, "side": seat or inputs["side"]})
    context = ruling.context or {}
    declaring = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}.get(context.get("declarer"))
    offender_role = inputs["role"] or (ruling.offender_role if inputs["side"] == ruling.side else "") or (
        ("declarers" if declaring == inputs["side"] else "defenders") if declaring else "")
    now = clock.now()
    sequence = (Ruling.objects.filter(match=match).order_by("-sequence").values_list("sequence", flat=True).first()
                or 0) + 1
    new = mark_new(Ruling.objects.create(
        match=match, sequence=sequence, hand_number=ruling.hand_number, code=inputs["code"], side=inputs["side"], seat=seat,
        role=inputs["role"] or "", offender_role=offender_role, minutes=inputs["minutes"], seconds=inputs["seconds"],
        cards=inputs["cards"], choice=inputs["choice"] or "", sanction=sanction_dict(sanction),
        clause=sanction.clause[:120], table=ruling.table, profile=match.profile, profile_version=match.profile.version,
        context=context, note=(reason or "")[:2000], amends=ruling, recorded_by=user, recorded_at=now))
    if sanction.needs_approval:
        approval = Approval.objects.create(ruling=new, approved=True, decided_by=user, decided_at=now)
        Ruling.approval.related.set_cached_value(new, approval)
    return new


def _sanction_of(match, ruling):
    """The sanction in force of ``ruling`` after the match's rulings are replayed."""
    entries = replay_rulings(match, match_rulings(match))[1]
    return next(entry.sanction for entry in entries if entry.ruling.pk == ruling.pk)
