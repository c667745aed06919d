"""Who holds a drawn slot now (a slot: the line a draw gave a pair in a group, its entry in a bracket; not a
place of the final ranking, ``placings``): a union team's reserve pair brought in after the draw
(:class:`~tournament.models.PairSubstitution`, ``tournament.entries.substitutions``) holds the slot of the
pair it replaced. Read only; the bracket (``knockout``) and the group tables (``group_standings``) both read it.

    holders(event_id) -> ({drawn pair: pair now holding its slot}, {every pair that held a slot: drawn pair})
    history(event_id) -> (the two above, {drawn pair: (every pair that held its slot, the drawn pair first)})
    places_among(held, slots) -> {pair: the slot of ``slots`` it held}

A pair may hold two slots in turn (brought back later for another pair): ``holders`` names its last slot
(what a bracket reads), ``places_among`` the one among a group's slots (its results there count for that one).
"""
from __future__ import annotations

from tournament.models import PairSubstitution


def history(event_id) -> tuple[dict, dict, dict]:
    """(holder, origin, held) from the event's substitutions in order: ``holders``' two and, for each slot
    that changed hands, the pairs that held it in order, the drawn pair first."""
    holder, origin, held = {}, {}, {}
    for out, came in (PairSubstitution.objects.filter(event_id=event_id).order_by("decided_at", "id")
                      .values_list("pair_out_id", "pair_in_id")):
        place = origin.get(out, out)
        holder[place] = came
        held.setdefault(place, [place]).append(came)
        origin.setdefault(out, place)
        origin[came] = place
    return holder, origin, {slot: tuple(pairs) for slot, pairs in held.items()}


def places_among(held: dict, slots) -> dict:
    """{pair: the slot of ``slots`` it held} (a group's drawn pairs): a pair that held one of them counts
    there for it, whatever slot it holds elsewhere later."""
    return {pair: slot for slot in slots for pair in held.get(slot, ()) if pair != slot}


def holders(event_id) -> tuple[dict, dict]:
    """The event's reserve substitutions in order, as who holds each drawn slot now and whose slot each
    pair held last (a pair brought back later holds its slot again, or another's). Both empty when nothing
    was substituted."""
    holder, origin, _held = history(event_id)
    return holder, origin
