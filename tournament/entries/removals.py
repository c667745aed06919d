"""Suspension (停赛, 000 第十七条（八）) and disqualification: a chief referee's decision that takes a pair
out of the event's remaining play. Like a withdrawal, each match it has still to play becomes a walkover
(:func:`tournament.competition.results.entry_withdrawn`); the pair keeps its results so far and its name,
and every page shows its status (``Pair.__str__``).

    remove_pair(pair, user, *, kind, reason="", ruling=None) -> PairRemoval
    restore_pair(removal, user, *, reason="", by_ruling=False) -> PairRestoration   the removal lifted
    kind_of_sanction(sanction) -> Pair.Status      which removal a ruling's disqualification means

In the final ranking (:mod:`tournament.competition.placings`) a suspended pair keeps its place, as a withdrawn
one does; a disqualified pair takes no place and no award (the places below move up) until it is lifted.

A removal that came from a ruling is lifted when the ruling no longer stands (voided, reversed or amended
on appeal: ``rulings.pair_removals.restore_if_lifted``): the pair is active again and its walkovers not yet
begun are played after all (:func:`tournament.competition.results.entry_restored`).
"""
from __future__ import annotations

from django.db import transaction

from common.errors import ConflictError, ForbiddenError, UserError, gettext_noop
from infra import clock
from tournament import access
from tournament.competition import results
from tournament.models import Event, Pair, PairRemoval, PairRestoration

REASON_MAX = 500


def kind_of_sanction(sanction) -> str:
    """A ruling's disqualification is a suspension where the profile's option says 停赛 (000 第十七条（八）)."""
    words = f"{getattr(sanction, 'explanation', '')} {getattr(sanction, 'choice', '') or ''}"
    return Pair.Status.SUSPENDED if ("停赛" in words or "suspension" in words) else Pair.Status.DISQUALIFIED


@transaction.atomic
def remove_pair(pair, user, *, kind, reason="", ruling=None) -> PairRemoval:
    """The chief referee suspends or disqualifies ``pair``: its remaining matches become walkovers."""
    event = Event.objects.select_for_update().get(pk=pair.event_id)
    if not access.may(user, access.APPROVE, event=event):
        raise ForbiddenError(gettext_noop("Only a chief referee may suspend or disqualify a pair."))
    if kind not in Pair.REMOVED:
        raise UserError(gettext_noop("Choose suspension or disqualification."), field="kind")
    if len(reason or "") > REASON_MAX:
        raise UserError(gettext_noop("The reason may be at most %(max)s characters."), field="reason", max=REASON_MAX)
    pair = Pair.objects.select_for_update().get(pk=pair.pk)
    if pair.event_id != event.pk:
        raise UserError(gettext_noop("This pair does not belong to this event."), field="pair")
    if pair.status != Pair.Status.ACTIVE:
        raise ConflictError(gettext_noop("%(name)s is already out of the event (%(status)s)."), field="pair",
                            name=pair.name, status=pair.get_status_display())
    pair.status = kind
    pair.save(update_fields=["status"])
    row = PairRemoval.objects.create(pair=pair, kind=kind, reason=reason or "", ruling=ruling, decided_by=user,
                                     decided_at=clock.now())
    results.entry_withdrawn(pair)
    return row


@transaction.atomic
def restore_pair(removal, user, *, reason="", by_ruling=False) -> PairRestoration:
    """Lift ``removal``: the pair is active again and its walkovers not yet begun are played after all.

    ``by_ruling``: the removal's ruling was voided or decided on appeal by ``user``, whose right the ruling's
    service has checked (an arbitration group's member lifts it that way); otherwise a chief referee only.
    """
    event = Event.objects.select_for_update().get(pk=removal.pair.event_id)
    if not by_ruling and not access.may(user, access.APPROVE, event=event):
        raise ForbiddenError(gettext_noop("Only a chief referee may suspend or disqualify a pair."))
    pair = Pair.objects.select_for_update().get(pk=removal.pair_id)
    if PairRestoration.objects.filter(removal=removal).exists() or pair.status != removal.kind:
        raise ConflictError(gettext_noop("This removal has already been lifted."), field="pair")
    pair.status = Pair.Status.ACTIVE
    pair.save(update_fields=["status"])
    row = PairRestoration.objects.create(removal=removal, reason=(reason or "")[:REASON_MAX], decided_by=user,
                                         decided_at=clock.now())
    results.entry_restored(pair)
    return row
