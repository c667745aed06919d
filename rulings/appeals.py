"""Appeals against rulings: filing within the profile's deadline, and decisions by instance.

The route is the profile's (``rulings.appeal_route``): who sits on the first instance and on the second,
or none (the first is final); an arbitration member involved in the first ruling may not sit. A reversal takes the ruling out of the replay, so its points
and levels leave the scores (the match's result is settled again).
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, ForbiddenError, gettext_noop
from config import clock
from rulings import appeal_route
from rulings.engine import appeal_deadline, normalise_side
from rulings.ledger import ledger_for, related_row
from rulings.models import Appeal, AppealDecision
from rulings.services import Conflict, RulingError, apply_match_result, engine_call, lock_match
from tournament.models import Round


def appeal_deadline_for(ruling):
    """The last moment an appeal against ``ruling`` is accepted (None while the clock has not started).
    Reads the round afresh (filing an appeal checks it)."""
    started = Round.objects.filter(pk=ruling.match.round_id).values_list("results_published_at", flat=True).first()
    return deadline_after(ruling, started)


def deadline_after(ruling, published_at):
    """The appeal deadline of ``ruling`` once its round's results were published at ``published_at`` (None:
    not published, appeals open). The logs pass the round they read with the rulings: no query per ruling."""
    return appeal_deadline(ledger_for(ruling.profile).appeal, published_at) if published_at else None


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
    """Decide an appeal at ``instance`` by the body the profile's route names (``rulings.appeal_route``).

    Instance 2 needs instance 1 first and exists only where the route has one; an arbitration member involved in the first ruling may not sit.
    A reversal takes the ruling out of the replay, so its points and levels leave the scores.
    """
    if instance not in (1, 2):
        raise RulingError(gettext_noop("The instance must be 1 (the chief referee) or 2 (the arbitration group)."),
                          field="instance")
    if outcome not in AppealDecision.Outcome.values:
        raise RulingError(gettext_noop("The outcome must be upheld or reversed."), field="outcome")
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
            row = AppealDecision.objects.create(appeal=appeal, instance=instance, outcome=outcome,
                                                reason=reason or "", decided_by=user, decided_at=clock.now())
            apply_match_result(match)
            return row
    except IntegrityError as exc:
        raise Conflict(gettext_noop("Someone else has just decided at this instance."), field="instance") from exc
