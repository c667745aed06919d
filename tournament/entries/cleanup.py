"""Deleting a withdrawn entry that never played: its row, and its players who are in no other entry, go,
so its name (and its players) are free again. A pair that played, got a walkover or sits in a group or a
draw stays (the record needs it)."""
from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from common.errors import ConflictError, gettext_noop
from tournament.models import GroupEntry, Match, Pair, Registration


@transaction.atomic
def delete_withdrawn_pair(event, pair) -> str:
    """Delete ``pair`` (withdrawn, never in a match or a group) and its otherwise unused players; its name."""
    pair = Pair.objects.select_for_update().select_related("player1", "player2").get(pk=pair.pk, event=event)
    if pair.status != Pair.Status.WITHDRAWN:
        raise ConflictError(gettext_noop("Only a withdrawn entry can be deleted."), field="pair")
    used = (Match.objects.filter(Q(ns=pair) | Q(ew=pair) | Q(winner=pair)).exists()
            or GroupEntry.objects.filter(pair=pair).exists())
    if used:
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
