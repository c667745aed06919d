"""Deleting a withdrawn entry that never played: its row, and its players who are in no other entry, go,
so its name (and its players) are free again. A pair that played, got a walkover, sits in a group or a
draw, or went out or came in for a team's reserve stays (the record needs it)."""
from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from common.errors import ConflictError, gettext_noop
from tournament.models import GroupEntry, Match, Pair, PairSubstitution, Registration


def _unused(pairs):
    """Of ``pairs``, those in no match (as a side or its winner), no group and no reserve substitution: the record
    does not need them."""
    in_match = Match.objects.filter(Q(ns=OuterRef("pk")) | Q(ew=OuterRef("pk")) | Q(winner=OuterRef("pk")))
    swapped = PairSubstitution.objects.filter(Q(pair_out=OuterRef("pk")) | Q(pair_in=OuterRef("pk")))
    return (pairs.exclude(Exists(in_match)).exclude(Exists(GroupEntry.objects.filter(pair=OuterRef("pk"))))
            .exclude(Exists(swapped)))


def deletable_ids(event) -> set[int]:
    """The withdrawn entries of ``event`` that :func:`delete_withdrawn_pair` deletes (the list offers it them)."""
    return set(_unused(Pair.objects.filter(event=event, status=Pair.Status.WITHDRAWN)).values_list("pk", flat=True))


@transaction.atomic
def delete_withdrawn_pair(event, pair) -> str:
    """Delete ``pair`` (withdrawn, never in a match or a group) and its otherwise unused players; its name."""
    pair = Pair.objects.select_for_update().select_related("player1", "player2").get(pk=pair.pk, event=event)
    if pair.status != Pair.Status.WITHDRAWN:
        raise ConflictError(gettext_noop("Only a withdrawn entry can be deleted."), field="pair")
    if not _unused(Pair.objects.filter(pk=pair.pk)).exists():
        raise ConflictError(gettext_noop("%(name)s has been drawn or has played: it stays in the record."),
                            field="pair", name=pair.name)
    name, players = pair.name, [pair.player1, pair.player2]
    Registration.objects.filter(pair=pair).update(pair=None)
    pair.delete()
    for player in players:
        in_use = (Pair.objects.filter(Q(player1=player) | Q(player2=player)).exists()
                  or Registration.objects.filter(player=player).exists())
        if not in_use:
            player.delete()
    return name
