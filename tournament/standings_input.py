"""The inputs of the pure standings: one finished match as plain values, and the checks of what a caller
passes (entries, results, the metric order, the points table), with errors naming the item at fault."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
            raise ValueError(f"results[{i}] 字段不对（results[{i}]: {exc}）") from None
    if isinstance(value, (tuple, list)) and len(value) in (5, 6):
        return MatchResult(*value)
    raise ValueError(f"results[{i}] 格式不对（results[{i}] must be a MatchResult, mapping or 5/6-tuple）")


def _check_results(entries: list, results: Sequence[Any]) -> list[MatchResult]:
    """Normalise results and check their entries and winner."""
    known = {e: True for e in entries}
    checked = []
    for i, value in enumerate(results):
        r = _as_result(value, i)
        for side, entry in (("a", r.a), ("b", r.b)):
            if entry not in known:
                raise ValueError(
                    f"results[{i}].{side} = {entry!r} 不是本组参赛者（results[{i}].{side} is not an entry）"
                )
        if r.a == r.b:
            raise ValueError(f"results[{i}] 自己对自己（results[{i}]: a equals b）")
        if r.winner is not None and r.winner != r.a and r.winner != r.b:
            raise ValueError(
                f"results[{i}].winner = {r.winner!r} 不是本场双方之一（results[{i}].winner not a or b）"
            )
        checked.append(r)
    return checked


def _check_entries(entries: Sequence[Any]) -> list:
    """Entries as a list; duplicates are an error."""
    items = list(entries)
    seen: dict = {}
    for e in items:
        if e in seen:
            raise ValueError(f"entries 中有重复的参赛者：{e!r}（duplicate entry {e!r}）")
        seen[e] = True
    return items


def _check_order(order: Sequence[str], metrics: Mapping[str, Any]) -> tuple[str, ...]:
    """Known names only; "lot"/"shared" may only come last."""
    names = tuple(order)
    if not names:
        raise ValueError("order 不能为空（order must name at least one metric）")
    for i, name in enumerate(names):
        if name in TERMINALS:
            if i != len(names) - 1:
                raise ValueError(f"order 中 {name!r} 只能放在最后（order: {name!r} must be last）")
        elif name not in metrics:
            raise ValueError(f"order 中有未知的排名指标 {name!r}（order: unknown metric {name!r}）")
    return names


def _points_table(points: Mapping[str, float], results: list[MatchResult]) -> dict:
    """(outcome, forfeit) -> match points; ``forfeit_loss`` defaults to ``loss``.

    Raises ValueError when the results need an outcome the table lacks.
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
            raise ValueError(f"积分表 points 缺少 {outcome!r}（points: missing {outcome!r}）")
    return table
