"""Who holds a drawn place now: a union team's reserve pair brought in after the draw
(:class:`~tournament.models.PairSubstitution`, ``tournament.entries.substitutions``) holds the place of the
pair it replaced. Read only; the bracket (``progress``) and the group tables (``ranking``) both read it.

    holders(event_id) -> ({drawn pair: pair now holding its place}, {every pair that held a place: drawn pair})
"""
from __future__ import annotations

from tournament.models import PairSubstitution


def holders(event_id) -> tuple[dict, dict]:
    """The event's reserve substitutions in order, as who holds each drawn place now and whose place each
    pair held (a pair brought back later holds its place again). Both empty when nothing was substituted."""
    holder, origin = {}, {}
    for out, came in (PairSubstitution.objects.filter(event_id=event_id).order_by("decided_at", "id")
                      .values_list("pair_out_id", "pair_in_id")):
        place = origin.get(out, out)
        holder[place] = came
        origin.setdefault(out, place)
        origin[came] = place
    return holder, origin
