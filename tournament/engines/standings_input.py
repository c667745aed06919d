"""The inputs of the pure standings: one finished match as plain values, and the checks of what a caller
passes (entries, results, the metric order, the points table), with errors naming the item at fault."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.errors import UserError, gettext_noop

WIN, LOSS, DRAW = "win", "loss", "draw"
TERMINALS = ("lot", "shared")


@dataclass(frozen=True)
class MatchResult:
    """One finished match as plain values.

    ``winner`` is ``a``, ``b`` or None (draw, or double forfeit when
    ``forfeit``); ``level_a``/``level_b`` are final levels as ladder strings
    (may be None for a forfeit unless ``forfeit_rule="recorded"``).
    """

    a: Any
    b: Any
    winner: Any
    level_a: str | None
    level_b: str | None
    forfeit: bool = False


def _as_result(value: Any, i: int) -> MatchResult:
    """Accept a MatchResult, a mapping with its field names, or a 5/6-tuple."""
    if isinstance(value, MatchResult):
        return value
    if isinstance(value, Mapping):
        try:
            return MatchResult(**value)
        except TypeError as exc:
            raise UserError(gettext_noop("Result number %(number)s has wrong fields (%(problem)s)."),
                            field=f"results[{i}]", number=i + 1, problem=str(exc)) from None
    if isinstance(value, (tuple, list)) and len(value) in (5, 6):
        return MatchResult(*value)
    raise UserError(gettext_noop("Result number %(number)s must be a MatchResult, a mapping or a 5- or 6-tuple."),
                    field=f"results[{i}]", number=i + 1)


def check_results(entries: list, results: Sequence[Any]) -> list[MatchResult]:
    """Normalise results and check their entries and winner."""
    known = {e: True for e in entries}
    checked = []
    for i, value in enumerate(results):
        r = _as_result(value, i)
        for side, entry in (("a", r.a), ("b", r.b)):
            if entry not in known:
                raise UserError(gettext_noop("Result number %(number)s: %(entry)r is not an entry of this group."),
                                field=f"results[{i}].{side}", number=i + 1, entry=entry)
        if r.a == r.b:
            raise UserError(gettext_noop("Result number %(number)s has an entry playing itself."),
                            field=f"results[{i}]", number=i + 1)
        if r.winner is not None and r.winner != r.a and r.winner != r.b:
            raise UserError(gettext_noop("Result number %(number)s: the winner %(winner)r is neither side of it."),
                            field=f"results[{i}].winner", number=i + 1, winner=r.winner)
        checked.append(r)
    return checked


def check_entries(entries: Sequence[Any]) -> list:
    """Entries as a list; duplicates are an error."""
    items = list(entries)
    seen: dict = {}
    for e in items:
        if e in seen:
            raise UserError(gettext_noop("The entry %(entry)r appears twice."), field="entries", entry=e)
        seen[e] = True
    return items


def check_order(order: Sequence[str], metrics: Mapping[str, Any]) -> tuple[str, ...]:
    """Known names only; "lot"/"shared" may only come last."""
    names = tuple(order)
    if not names:
        raise UserError(gettext_noop("The ranking order must name at least one criterion."), field="order")
    for i, name in enumerate(names):
        if name in TERMINALS:
            if i != len(names) - 1:
                raise UserError(gettext_noop("%(name)r can only come last in the ranking order."), field="order", name=name)
        elif name not in metrics:
            raise UserError(gettext_noop("Unknown ranking criterion %(name)r."), field="order", name=name)
    return names


def points_table(points: Mapping[str, float], results: list[MatchResult]) -> dict:
    """(outcome, forfeit) -> match points; ``forfeit_loss`` defaults to ``loss``.

    Raises UserError when the results need an outcome the table lacks.
    """
    table = {(outcome, forfeit): points[outcome]
             for outcome in (WIN, LOSS, DRAW) for forfeit in (False, True) if outcome in points}
    if "forfeit_loss" in points:
        table[(LOSS, True)] = points["forfeit_loss"]
    needed = [WIN, LOSS] if results else []
    if any(r.winner is None and not r.forfeit for r in results):
        needed.append(DRAW)
    for outcome in needed:
        if outcome not in points:
            raise UserError(gettext_noop("The points table has no value for %(outcome)r."), field="points", outcome=outcome)
    return table
