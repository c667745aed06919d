"""The exact part of the Swiss pairing: the field's inputs scaled to integers, one minimum-weight perfect
matching whose single integer weight orders the criteria of :func:`tournament.engines.swiss.swiss_round`, and the
quick pairing returned when it provably meets the bounds. Pure Python (networkx)."""
from __future__ import annotations

import math
import random
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from numbers import Rational

import networkx as nx

from common.errors import UserError, gettext_noop

EXACT_LIMIT = 64  # fields up to this size are paired by one exact matching
CHUNK = 48  # window size (even) for larger fields; see swiss_round
MAX_WINDOW = 3 * CHUNK  # a window that cannot avoid rematches grows up to this
_TIE_RANGE = 1 << 10  # random tie-break weights per pair lie in [0, _TIE_RANGE)
_IMPROVE_PASSES = 10  # rounds of partner exchanges in the quick pairing
_PRUNE_LIMIT = 256  # largest set of entries whose pairs are pruned by the bound table

Pair = tuple  # (index, index) or (index, None): indices into the ranking


# --------------------------------------------------------------------------- input
class SwissField:
    """The checked input, by ranking index 0..n-1."""

    def __init__(self, ranking, scores, played, had_bye, units, seed) -> None:
        self.entries = list(ranking)
        self.n = n = len(self.entries)
        self.index: dict = {}
        for i, entry in enumerate(self.entries):
            if entry is None:
                raise UserError(gettext_noop("Entry number %(number)s is empty: an entry cannot be None."),
                                field="ranking", number=i + 1)
            if entry in self.index:
                raise UserError(gettext_noop("The entry %(entry)r appears twice."), field="ranking", entry=entry)
            self.index[entry] = i
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise UserError(gettext_noop("The seed of the draw must be a whole number or a text, not %(type)s."),
                            field="seed", type=type(seed).__name__)
        self.rng = random.Random(seed)
        self.score = _scaled_scores(self.entries, scores)
        self.opponents: list[set] = [set() for _ in range(n)]
        for pair in played:
            members = [self.index.get(x) for x in pair]
            if len(members) == 2 and None not in members and members[0] != members[1]:
                a, b = members
                self.opponents[a].add(b)
                self.opponents[b].add(a)
        byes = {self.index[x] for x in had_bye if x in self.index}
        # Lower is better: no bye before, then lowest-ranked. Always < 2n.
        self.bye_key = [(n if i in byes else 0) + (n - 1 - i) for i in range(n)]
        unit_of = units or {}
        self.unit = [unit_of.get(entry) for entry in self.entries]

    def same_unit(self, a: int, b: int) -> bool:
        return self.unit[a] is not None and self.unit[a] == self.unit[b]

    def output(self, pairs: list[Pair]) -> list[tuple]:
        games = sorted((min(a, b), max(a, b)) for a, b in pairs if b is not None)
        result = [(self.entries[a], self.entries[b]) for a, b in games]
        result += [(self.entries[a], None) for a, b in pairs if b is None]
        return result


def _scaled_scores(entries: list, scores: Mapping) -> list[int]:
    """Scores as integers (exactly: every score times one common denominator)."""
    values = []
    for entry in entries:
        try:
            raw = scores[entry]
        except (KeyError, IndexError, TypeError):
            raise UserError(gettext_noop("The score of %(entry)r is missing."), field="scores", entry=entry) from None
        if isinstance(raw, bool) or not isinstance(raw, (int, float, Decimal, Rational)):
            raise UserError(gettext_noop("The score of %(entry)r is not a number: %(value)r."),
                            field="scores", entry=entry, value=raw)
        try:
            values.append(Fraction(raw))
        except (ValueError, OverflowError, ArithmeticError):
            raise UserError(gettext_noop("The score of %(entry)r is not valid: %(value)r."),
                            field="scores", entry=entry, value=raw) from None
    denominator = 1
    for value in values:
        denominator = math.lcm(denominator, value.denominator)
    return [int(value * denominator) for value in values]


# --------------------------------------------------------------------------- exact
def solve_exact(field: SwissField, nodes: list[int], *, bye: bool) -> list[Pair]:
    """Lexicographically best pairing of ``nodes`` (one of them gets the bye if ``bye``).

    1. A quick pairing: the bye to the best bye key, the others sorted by
       score (ties in an order drawn from the seed) and paired first-fit, each
       with the next free entry that is no earlier opponent (and, if one is
       free, not of its unit; a rematch only if nothing else is free); any
       rematch is exchanged out as in step f of ``swiss_round`` (if one
       cannot be: go to 3 on all nodes); then partners are exchanged between
       two pairs while that lowers (score difference, same-unit pairs)
       without a rematch.
    2. If it has no same-unit pair and its score-difference sum D equals the
       lower bound LB (the sum of every other gap in score order: the optimum
       for points on a line), every criterion up to 4 is at its minimum:
       return it. Otherwise it still fixes criteria 1 (no rematch) and 2 (the
       bye keys are distinct, so the best one is the only optimum), and any
       optimal pair (u, v) must satisfy |s_u - s_v| + LB(rest without u, v)
       <= D; only such rematch-free pairs are kept for step 3.
    3. Minimum-cost perfect matching (networkx ``max_weight_matching`` with
       ``maxcardinality=True``, weight = big - cost) on the kept pairs, or on
       the complete graph plus a dummy node for the bye. Each pair costs
       ``W1*rematch + W2*bye_key + W3*|score diff| + W4*same_unit + tie`` with
       scores scaled exactly to integers and ``tie`` drawn from the seed; each
       weight exceeds the largest sum of all lower terms over a whole
       pairing, so the minimum is the lexicographic one.
    """
    found = _first_fit(field, nodes, bye=bye)
    if found is None:
        return min_cost_matching(field, nodes, bye=bye)
    pairs, bye_entry, bound = found
    pairs = _improve(field, pairs)
    diff = sum(abs(field.score[a] - field.score[b]) for a, b in pairs)
    if diff != bound or any(field.same_unit(a, b) for a, b in pairs):
        rest = [x for pair in pairs for x in pair]
        limit = diff if len(rest) <= _PRUNE_LIMIT else None
        pairs = min_cost_matching(field, rest, bye=False, diff_limit=limit)
    if bye:
        pairs.append((bye_entry, None))
    return pairs


def _first_fit(field: SwissField, nodes: list[int], *, bye: bool):
    """Step 1 of ``solve_exact`` before the exchanges: ``(pairs, bye entry, LB)`` or None."""
    rest = list(nodes)
    bye_entry = min(rest, key=field.bye_key.__getitem__) if bye else None
    if bye:
        rest.remove(bye_entry)
    field.rng.shuffle(rest)
    score = field.score
    rest.sort(key=lambda i: -score[i])
    bound = sum(score[rest[x]] - score[rest[x + 1]] for x in range(0, len(rest), 2))
    taken = [False] * len(rest)
    pairs: list[Pair] = []
    for x, a in enumerate(rest):
        if taken[x]:
            continue
        opponents = field.opponents[a]
        partner = rematch = None
        for y in range(x + 1, len(rest)):
            b = rest[y]
            if taken[y]:
                continue
            if b in opponents:
                rematch = y if rematch is None else rematch
            elif not field.same_unit(a, b):
                partner = y
                break
            elif partner is None:
                partner = y
        partner = rematch if partner is None else partner
        taken[x] = taken[partner] = True
        pairs.append((a, rest[partner]))
    pairs = exchange_rematches(field, pairs)
    return None if pairs is None else (pairs, bye_entry, bound)


def _improve(field: SwissField, pairs: list[Pair]) -> list[Pair]:
    """Exchange partners of two pairs while that lowers (score diff, same unit), no rematch."""
    pairs = list(pairs)
    score = field.score
    opponents = field.opponents

    def cost(a: int, b: int) -> tuple[int, int]:
        return abs(score[a] - score[b]), int(field.same_unit(a, b))

    for _ in range(_IMPROVE_PASSES):
        changed = False
        for k in range(len(pairs)):
            for other in range(k + 1, len(pairs)):
                a, b = pairs[k]
                c, d = pairs[other]
                (d1, u1), (d2, u2) = cost(a, b), cost(c, d)
                old = (d1 + d2, u1 + u2)
                for p, q in (((a, c), (b, d)), ((a, d), (b, c))):
                    if p[1] in opponents[p[0]] or q[1] in opponents[q[0]]:
                        continue
                    (e1, v1), (e2, v2) = cost(*p), cost(*q)
                    if (e1 + e2, v1 + v2) < old:
                        pairs[k], pairs[other] = p, q
                        changed = True
                        break
        if not changed:
            break
    return pairs


def _bounds_without_two(values: list[int]) -> list[list[int]]:
    """``table[p][q]`` (p < q): LB of ``values`` (sorted, even length) without items p and q.

    LB of a sorted sequence = sum of the gaps (0,1), (2,3), ... For fixed p
    let A be the rest; removing A[j] leaves A[:j] and A[j+1:], paired in
    order: j even -> gaps at even i < j and at odd i > j; j odd -> even i < j-1,
    the gap A[j-1] - A[j+1], and odd i > j+1. Prefix sums make each O(1).
    """
    m = len(values)
    table = [[0] * m for _ in range(m)]
    for p in range(m):
        rest = values[:p] + values[p + 1:]
        gaps = [rest[i] - rest[i + 1] for i in range(m - 2)] + [0, 0]
        even, odd = [0], [0]
        for i, gap in enumerate(gaps):
            even.append(even[-1] + (0 if i % 2 else gap))
            odd.append(odd[-1] + (gap if i % 2 else 0))
        row = table[p]
        for q in range(p + 1, m):
            j = q - 1
            if j % 2 == 0:
                row[q] = even[j] + odd[-1] - odd[j + 1]
            else:
                row[q] = even[j - 1] + rest[j - 1] - rest[j + 1] + odd[-1] - odd[j + 2]
    return table


def min_cost_matching(field: SwissField, nodes: list[int], *, bye: bool,
              diff_limit: int | None = None) -> list[Pair]:
    """Step 3 of ``solve_exact``: the minimum-cost matching (pruned if ``diff_limit``)."""
    k = len(nodes)
    n_pairs = (k + 1) // 2
    scores = [field.score[i] for i in nodes]
    spread = max(scores) - min(scores)
    max_tie = n_pairs * (_TIE_RANGE - 1)
    w_unit = max_tie + 1
    max_unit_and_below = n_pairs * w_unit + max_tie
    w_diff = max_unit_and_below + 1
    max_diff_and_below = n_pairs * spread * w_diff + max_unit_and_below
    w_bye = max_diff_and_below + 1
    max_bye_and_below = (2 * field.n - 1) * w_bye + max_diff_and_below if bye else max_diff_and_below
    w_rematch = max_bye_and_below + 1
    big = (n_pairs + 1) * w_rematch  # above any single pair's cost: all weights > 0

    if diff_limit is not None:
        order = sorted(range(k), key=lambda x: -scores[x])
        position = [0] * k
        for p, x in enumerate(order):
            position[x] = p
        without_two = _bounds_without_two([scores[x] for x in order])

    rng = field.rng
    graph = nx.Graph()
    graph.add_nodes_from(range(k + 1 if bye else k))
    for x in range(k):
        a = nodes[x]
        opponents = field.opponents[a]
        for y in range(x + 1, k):
            b = nodes[y]
            diff = abs(scores[x] - scores[y])
            if diff_limit is not None:
                p, q = sorted((position[x], position[y]))
                if b in opponents or diff + without_two[p][q] > diff_limit:
                    continue
            cost = (
                (w_rematch if b in opponents else 0)
                + w_diff * diff
                + (w_unit if field.same_unit(a, b) else 0)
                + rng.randrange(_TIE_RANGE)
            )
            graph.add_edge(x, y, weight=big - cost)
        if bye:
            graph.add_edge(x, k, weight=big - w_bye * field.bye_key[a] - rng.randrange(_TIE_RANGE))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < graph.number_of_nodes():  # cannot happen; stay correct anyway
        return min_cost_matching(field, nodes, bye=bye)
    pairs: list[Pair] = []
    for x, y in sorted((min(e), max(e)) for e in matching):
        pairs.append((nodes[x], None) if y == k else (nodes[x], nodes[y]))
    return pairs


def count_rematches(field: SwissField, pairs: list[Pair]) -> int:
    return sum(1 for a, b in pairs if b is not None and b in field.opponents[a])


def exchange_rematches(field: SwissField, pairs: list[Pair]) -> list[Pair] | None:
    """Exchange partners until no pair is a rematch (step f of ``swiss_round``), or None.

    Each exchange replaces a rematch (a, b) and another pair (c, d) by two
    pairs that are no rematch, adding the least score difference, then the
    fewest same-unit pairs; None if some rematch has no such exchange.
    """
    pairs = list(pairs)
    score = field.score
    opponents = field.opponents

    def cost(a: int, b: int) -> tuple[int, int]:
        return abs(score[a] - score[b]), int(field.same_unit(a, b))

    while True:
        bad = next((k for k, (a, b) in enumerate(pairs) if b in opponents[a]), None)
        if bad is None:
            return pairs
        a, b = pairs[bad]
        best = None
        for other, (c, d) in enumerate(pairs):
            if other == bad:
                continue
            old = cost(a, b), cost(c, d)
            for p, q in (((a, c), (b, d)), ((a, d), (b, c))):
                if p[1] in opponents[p[0]] or q[1] in opponents[q[0]]:
                    continue
                new = cost(*p), cost(*q)
                delta = (
                    new[0][0] + new[1][0] - old[0][0] - old[1][0],
                    new[0][1] + new[1][1] - old[0][1] - old[1][1],
                    other,
                )
                if best is None or delta < best[0]:
                    best = (delta, other, p, q)
        if best is None:
            return None
        _, other, p, q = best
        pairs[bad], pairs[other] = p, q
