"""Appeals against rulings: filing within the profile's deadline, and decisions by instance.

The route: instance 1 by the chief referee, instance 2 by the arbitration group; an arbitration member
involved in the first ruling may not sit. A reversal takes the ruling out of the replay, so its points
and levels leave the scores (the match's result is settled again).
"""
from __future__ import annotations

from django.db import IntegrityError, transaction

from common.errors import ForbiddenError, gettext_noop
from config import clock
from rulings.engine import appeal_deadline, normalise_side
from rulings.ledger import ledger_for, related_row
from rulings.models import Appeal, AppealDecision
from rulings.services import Conflict, RulingError, apply_match_result, engine_call, lock_match
from tournament import access
from tournament.models import Round


def appeal_deadline_for(ruling):
    """The last moment an appeal against ``ruling`` is accepted (None while the clock has not started)."""
    ledger = ledger_for(ruling.profile)
    started = Round.objects.filter(pk=ruling.match.round_id).values_list("results_published_at", flat=True).first()
    return appeal_deadline(ledger.appeal, started) if started else None


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


def decide_appeal(appeal, user, *, instance, outcome, reason=""):
    """Decide an appeal: instance 1 by the chief referee, then instance 2 by the arbitration group.

    Instance 2 needs instance 1 first; an arbitration member involved in the first ruling may not sit.
    A reversal takes the ruling out of the replay, so its points and levels leave the scores.
    """
    if instance not in (1, 2):
        raise RulingError(gettext_noop("The instance must be 1 (the chief referee) or 2 (the arbitration group)."),
                          field="instance")
    if outcome not in AppealDecision.Outcome.values:
        raise RulingError(gettext_noop("The outcome must be upheld or reversed."), field="outcome")
    if not access.may(user, access.DECIDE_FIRST if instance == 1 else access.DECIDE_SECOND,
                      match=appeal.ruling.match):
        raise ForbiddenError(gettext_noop("The chief referee decides the first instance, the arbitration group the second."),
                             field="instance")
    ruling = appeal.ruling
    if instance == 2 and involved_in(ruling, user):
        raise ForbiddenError(gettext_noop("An arbitration member involved in the first ruling must stand aside."))
    try:
        with transaction.atomic():
            match = lock_match(ruling.match_id)
            decided = set(AppealDecision.objects.filter(appeal=appeal).values_list("instance", flat=True))
            if instance in decided:
                raise RulingError(gettext_noop("This instance has already decided."), field="instance")
            if instance == 2 and 1 not in decided:
                raise RulingError(gettext_noop("The chief referee must decide the first instance first."), field="instance")
            row = AppealDecision.objects.create(appeal=appeal, instance=instance, outcome=outcome,
                                                reason=reason or "", decided_by=user, decided_at=clock.now())
            apply_match_result(match)
            return row
    except IntegrityError as exc:
        raise Conflict(gettext_noop("Someone else has just decided at this instance."), field="instance") from exc
