"""Who holds a drawn slot now (a slot: the line a draw gave a pair in a group, its entry in a bracket; not a
place of the final ranking, ``placings``): a union team's reserve pair brought in after the draw
(:class:`~tournament.models.PairSubstitution`, ``tournament.entries.substitutions``) holds the slot of the
pair it replaced. Read only; the bracket (``knockout``) and the group tables (``group_standings``) both read it.

    holders(event_id) -> ({drawn pair: pair now holding its slot}, {every pair that held a slot: drawn pair})
"""
from __future__ import annotations

from tournament.models import PairSubstitution


def holders(event_id) -> tuple[dict, dict]:
    """The event's reserve substitutions in order, as who holds each drawn slot now and whose slot each
    pair held (a pair brought back later holds its slot again). Both empty when nothing was substituted."""
    holder, origin = {}, {}
    for out, came in (PairSubstitution.objects.filter(event_id=event_id).order_by("decided_at", "id")
                      .values_list("pair_out_id", "pair_in_id")):
        place = origin.get(out, out)
        holder[place] = came
        origin.setdefault(out, place)
        origin[came] = place
    return holder, origin
