"""Pure unit (team) standings of a union meet (团体总分), from the pairs' final places (no Django imports).

The rules (printed under the table by :func:`rules_text`):

1. Each pair earns the points of its final place from ``points`` (default 9-7-6-5-4-3-2-1 for places
   1–8, the common sports-meet scale); places beyond the scale earn 0. Pairs sharing a place cover
   the places from it on and share their points equally: two joint thirds of 9-7-6-5-… take
   (6 + 5) / 2 = 5.5 each.
2. A unit's score is the sum over its pairs, or over its best ``best_n`` pairs when set.
3. ``women_bonus`` (0: none) is added once for each of the unit's women's pairs that earned points.
4. Units level on score are ranked by more first places, then more second places, then by lot
   drawn with ``random.Random(lot_seed)`` (without a seed the tie stays shared and awaits the lot).

Scores are :class:`fractions.Fraction` (exact halves and thirds); :func:`plain` shows them.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from common.errors import UserError, gettext_noop

__all__ = ["DEFAULT_POINTS", "PlacedPair", "UnitRow", "UnitTable", "clean_rules", "place_points", "plain",
           "unit_standings"]

DEFAULT_POINTS = (9, 7, 6, 5, 4, 3, 2, 1)


@dataclass(frozen=True)
class PlacedPair:
    """A pair's final place: ``place`` is shared when another pair has the same number."""

    entry: Hashable
    unit: Hashable
    place: int
    women: bool = False


@dataclass(frozen=True)
class UnitRow:
    """One unit's line: ``counted`` holds (entry, place, points) of the pairs that count, best first."""

    rank: int
    unit: Hashable
    score: Fraction
    counted: tuple
    bonus: int
    firsts: int
    seconds: int
    decided_by: str | None  # "score", "firsts", "seconds", "lot", or None (not tied / tie still open)
    shared: bool = False
    lot_pending: bool = False


@dataclass(frozen=True)
class UnitTable:
    rows: tuple[UnitRow, ...]
    points: tuple[int, ...]
    best_n: int | None
    women_bonus: int
    lot_seed: str | int | None


def plain(value) -> int | float:
    """A score as an int when whole, else a float rounded to two places (for pages and spreadsheets)."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else round(float(value), 2)


def clean_rules(rules: dict | None) -> dict:
    """The rules ``points``/``best_n``/``women_bonus`` checked and completed with the defaults."""
    rules = dict(rules or {})
    points = rules.get("points", DEFAULT_POINTS)
    if points is None:
        points = DEFAULT_POINTS
    if (not isinstance(points, (list, tuple)) or not points
            or any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in points)):
        raise UserError(gettext_noop("Points per place must be a list of whole numbers of 0 or more."),
                        field="points")
    best_n = rules.get("best_n")
    if best_n is not None and (isinstance(best_n, bool) or not isinstance(best_n, int) or best_n < 1):
        raise UserError(gettext_noop("The number of pairs that count must be a whole number of 1 or more."),
                        field="best_n")
    bonus = rules.get("women_bonus") or 0
    if isinstance(bonus, bool) or not isinstance(bonus, int) or bonus < 0:
        raise UserError(gettext_noop("The women's pair bonus must be a whole number of 0 or more."),
                        field="women_bonus")
    return {"points": tuple(points), "best_n": best_n, "women_bonus": bonus}


def place_points(places: Sequence[int], points: Sequence[int] = DEFAULT_POINTS) -> list[Fraction]:
    """Points for each of ``places`` (one per pair); k pairs on place p share places p..p+k-1."""
    count: dict[int, int] = {}
    for p in places:
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise UserError(gettext_noop("A final place must be a whole number of 1 or more, not %(place)s."),
                            field="place", place=p)
        count[p] = count.get(p, 0) + 1

    def of(place: int) -> int:
        return points[place - 1] if place <= len(points) else 0

    share = {p: Fraction(sum(of(q) for q in range(p, p + k)), k) for p, k in count.items()}
    return [share[p] for p in places]


def unit_standings(pairs: Iterable[PlacedPair], units: Iterable[Hashable] = (), *, points=DEFAULT_POINTS,
                   best_n: int | None = None, women_bonus: int = 0,
                   lot_seed: str | int | None = None) -> UnitTable:
    """Rank the units from their pairs' final places (see the module's rules 1–4).

    ``units``: every unit to list (one with no placed pair scores 0), in a stable order; units of the
    pairs not named there are added after them. Same inputs and seed, same table.
    """
    rules = clean_rules({"points": points, "best_n": best_n, "women_bonus": women_bonus})
    pairs = list(pairs)
    earned = place_points([p.place for p in pairs], rules["points"])
    order = list(dict.fromkeys([*units, *(p.unit for p in pairs)]))
    lines: dict = {u: [] for u in order}
    for pair, value in zip(pairs, earned):
        lines[pair.unit].append((pair, value))
    scored = {}
    for unit in order:
        mine = sorted(lines[unit], key=lambda item: (-item[1], item[0].place))
        counted = mine[: rules["best_n"]] if rules["best_n"] else mine
        bonus = rules["women_bonus"] * sum(1 for pair, value in counted if pair.women and value > 0)
        score = sum((value for _pair, value in counted), Fraction(0)) + bonus
        scored[unit] = (score, tuple((p.entry, p.place, value) for p, value in counted), bonus,
                        sum(1 for p, _v in mine if p.place == 1), sum(1 for p, _v in mine if p.place == 2))
    return UnitTable(tuple(_rank(order, scored, lot_seed)), rules["points"], rules["best_n"],
                     rules["women_bonus"], lot_seed)


def _rank(order: list, scored: dict, lot_seed) -> list[UnitRow]:
    keys = (("score", 0), ("firsts", 3), ("seconds", 4))
    rng = random.Random(lot_seed) if lot_seed is not None else None
    blocks: list[tuple[list, str | None, bool]] = [(sorted(order, key=lambda u: -scored[u][0]), None, False)]
    for name, index in keys:
        split = []
        for block, decided, shared in blocks:
            if len(block) == 1:
                split.append((block, decided, shared))
                continue
            ranked = sorted(block, key=lambda u: -scored[u][index])
            groups: list[list] = []
            for u in ranked:
                if groups and scored[groups[-1][0]][index] == scored[u][index]:
                    groups[-1].append(u)
                else:
                    groups.append([u])
            split += [(g, name if len(groups) > 1 else decided, False) for g in groups]
        blocks = split
    rows, position = [], 1
    for block, decided, _shared in blocks:
        if len(block) > 1 and rng is not None:
            drawn = list(block)
            rng.shuffle(drawn)
            for u in drawn:
                rows.append(_row(position, u, scored, "lot", False, False))
                position += 1
            continue
        tied = len(block) > 1
        rows += [_row(position, u, scored, None if tied else decided, tied, tied) for u in block]
        position += len(block)
    return rows


def _row(rank, unit, scored, decided_by, shared, pending) -> UnitRow:
    score, counted, bonus, firsts, seconds = scored[unit]
    return UnitRow(rank, unit, score, counted, bonus, firsts, seconds, decided_by, shared, pending)
