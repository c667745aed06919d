"""What waits at the tables where the players record (reads only): an entry waits for the other side's
confirmation, or is disputed (有异议) and waits for the floor referee.

    state_of(entry) -> "waiting" | "disputed" | "confirmed" | "decided" | "withdrawn" | "lapsed"
    read_one(entry_id, match_id=None) -> HandEntry | None   one entry read anew (at that match), ``state`` set
    open_entry(match) -> HandEntry | None        the table's entry still waiting or disputed
    entries_of(match, limit=20, ids=None) -> [HandEntry]  the table's entries, newest first, steps read
    open_tables(rnd) -> [int]                     the tables of a round with an entry open (it cannot close)
    open_entries(*, event=None, rnd=None, referee=None) -> [HandEntry]   what the desk and a floor referee
                                                  see: the open entries, newest first

An entry **lapses** (counts as nothing, blocks nothing) when the hand it was for got recorded otherwise: a new
hand's number was recorded (a referee's own entry where either may record), or the version a correction
replaces was replaced first. Each entry carries ``.state`` once read through these functions.
"""
from __future__ import annotations

from django.db.models import Exists, OuterRef, Prefetch

from scoring.models import Hand
from tournament.models import EntryStep, HandEntry, Match

WAITING, DISPUTED, LAPSED = "waiting", "disputed", "lapsed"
OPEN = (WAITING, DISPUTED)
_ENDINGS = tuple(EntryStep.ENDINGS)


def _state(entry, steps, lapsed: bool) -> str:
    ending = next((step for step in steps if step.state in _ENDINGS), None)
    if ending is not None:
        return ending.state
    if lapsed:
        return LAPSED
    return DISPUTED if any(step.state == EntryStep.State.DISPUTED for step in steps) else WAITING


def _lapsed_query():
    """Annotations saying whether an entry's hand was recorded otherwise (see the module's text)."""
    recorded = Hand.objects.filter(match_id=OuterRef("match_id"), number=OuterRef("number"))
    replaced = Hand.objects.filter(supersedes_id=OuterRef("base_hand_id"))
    return {"number_taken": Exists(recorded), "base_replaced": Exists(replaced)}


def _is_lapsed(entry) -> bool:
    if entry.kind == HandEntry.Kind.CORRECTION:
        return bool(entry.base_replaced)
    return bool(entry.number_taken)


def _read(queryset, limit=None) -> list:
    steps = Prefetch("steps", queryset=EntryStep.objects.select_related("by").order_by("pk"))
    query = queryset.annotate(**_lapsed_query()).prefetch_related(steps)
    entries = list(query if limit is None else query[:limit])
    for entry in entries:
        entry.state = _state(entry, list(entry.steps.all()), _is_lapsed(entry))
    return entries


def _not_ended():
    return HandEntry.objects.exclude(Exists(EntryStep.objects.filter(entry_id=OuterRef("pk"),
                                                                     state__in=_ENDINGS)))


def state_of(entry) -> str:
    """The state of one entry (read anew)."""
    return read_one(entry.pk).state


def read_one(entry_id, match_id=None) -> HandEntry | None:
    """One entry read anew, with its ``state`` and steps (None: no such entry, or not at ``match_id``)."""
    query = HandEntry.objects.filter(pk=entry_id).order_by()   # one row: not the model's order (a join to the event)
    found = _read(query if match_id is None else query.filter(match_id=match_id))
    return found[0] if found else None


def open_entry(match):
    """The entry of ``match`` waiting for the other side or for the referee (None: the table may enter)."""
    found = [e for e in _read(_not_ended().filter(match_id=match.pk).order_by("-pk")) if e.state in OPEN]
    return found[0] if found else None


def entries_of(match, limit: int | None = 20, ids=None) -> list:
    """The last ``limit`` entries of ``match`` (None: all; ``ids``: those only), newest first, each with its
    ``state`` and steps."""
    query = HandEntry.objects.filter(match_id=match.pk if isinstance(match, Match) else match).order_by("-pk")
    if ids is not None:
        query = query.filter(pk__in=list(ids))
    return _read(query, limit)


def open_entries(*, event=None, rnd=None, referee=None, match_ids=None) -> list:
    """The open entries (waiting or disputed), newest first: of an event, a round, the matches ``match_ids``,
    and/or the tables ``referee`` is assigned to (a floor referee's block)."""
    query = _not_ended().select_related("match__round__stage")
    if event is not None:
        query = query.filter(match__round__stage__event=event)
    if rnd is not None:
        query = query.filter(match__round=rnd)
    if match_ids is not None:
        query = query.filter(match_id__in=list(match_ids))
    if referee is not None:
        query = query.filter(match__referees=referee)
    return [entry for entry in _read(query.order_by("-pk")) if entry.state in OPEN]


def open_tables(rnd) -> list:
    """The tables of ``rnd`` with a hand waiting for confirmation or a dispute open, in table order."""
    return sorted({entry.match.table for entry in open_entries(rnd=rnd)}, key=lambda t: (t is None, t))
