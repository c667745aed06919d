"""A ruling's hold on a pair's place in the event: a disqualification (or 停赛) a chief referee decided takes
the pair out of the event's remaining play (``tournament.entries.removals``), and a ruling that no longer
stands (void, reversed or amended on appeal, or no longer a disqualification once the ledger counts again)
gives the pair its place back.

    remove_from_event(match, user, ruling, *, sanction)
    restore_if_lifted(match, user, ruling, *, reason="") -> PairRestoration | None
    lift_undone_removals(match, user, entries, *, reason="") -> [PairRestoration]
"""
from __future__ import annotations

from rulings.engine import explanation_text
from tournament.entries import removals
from tournament.models import PairRemoval
from tournament.records.ledger import AMENDED, IN_FORCE, REVERSED, VOID, entry_of


def remove_from_event(match, user, ruling, *, sanction):
    """A disqualification (or 停赛, 000 第十七条（八）) the chief referee decided takes the offending pair out
    of the event's remaining play, not only this match (``tournament.entries.removals``)."""
    if "disqualification" not in sanction.kinds:
        return
    pair = match.ns if sanction.side == "NS" else match.ew
    if pair is not None and pair.status == pair.Status.ACTIVE:
        removals.remove_pair(pair, user, kind=removals.kind_of_sanction(sanction),
                             reason=explanation_text(sanction.items, approval=True)[:500], ruling=ruling)


def restore_if_lifted(match, user, ruling, *, reason=""):
    """A suspension or disqualification that took a pair out of the event (``remove_from_event``) is lifted
    once its ruling no longer stands (void, reversed or amended on appeal): the pair plays on, its later
    matches not yet begun are no longer walkovers (``tournament.entries.removals.restore_pair``)."""
    removal = (PairRemoval.objects.filter(ruling=ruling, restoration__isnull=True).select_related("pair")
               .order_by("-decided_at").first())
    if removal is None or removal.pair.status != removal.kind:
        return None
    if entry_of(match, ruling).state not in (VOID, REVERSED, AMENDED):
        return None
    return removals.restore_pair(removal, user, reason=reason or "", by_ruling=True)


def lift_undone_removals(match, user, entries, *, reason=""):
    """After a void, the later rulings are counted again (``tournament.records.ledger.replay_rulings``): one
    that took a pair out of the event (``remove_from_event``) and no longer carries a disqualification in force
    gives the pair back its place, as :func:`restore_if_lifted` does for the voided ruling itself. ``entries``:
    the match's rulings replayed after the void."""
    carrying = {e.ruling.pk for e in entries if e.state == IN_FORCE and e.sanction is not None
                and "disqualification" in e.sanction.kinds}
    rows = (PairRemoval.objects.filter(ruling__match_id=match.pk, restoration__isnull=True)
            .exclude(ruling_id__in=carrying).select_related("pair").order_by("decided_at", "pk"))
    return [removals.restore_pair(row, user, reason=reason or "", by_ruling=True)
            for row in rows if row.pair.status == row.kind]
