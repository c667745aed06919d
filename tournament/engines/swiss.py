"""Pure Swiss-system pairing of one round (no Django imports).

Contract (called by an outside test suite; name and meaning are fixed):
``swiss_round``, re-exported as ``tournament.engines.pairings.swiss_round``.

Plain values in, plain values out. Chance comes only from
``random.Random(seed)``, and nothing that decides the result iterates over a
set, so the same inputs and seed give the same pairing on every run.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

__all__ = ["swiss_round", "EXACT_LIMIT"]
from tournament.engines.swiss_matching import (  # noqa: F401  (EXACT_LIMIT re-exported)
    CHUNK,
    EXACT_LIMIT,
    MAX_WINDOW,
    Pair,
    SwissField,
    count_rematches,
    exchange_rematches,
    min_cost_matching,
    solve_exact,
)


def swiss_round(
    ranking: Sequence[Hashable],
    scores: Mapping[Hashable, object],
    played: Iterable[Iterable[Hashable]],
    *,
    had_bye: Iterable[Hashable] = frozenset(),
    units: Mapping[Hashable, Hashable | None] | None = None,
    seed: int | str = 0,
) -> list[tuple[Hashable, Hashable | None]]:
    """Pair one Swiss round; return ``[(a, b), ...]`` plus at most one ``(x, None)``.

    ``ranking``: entries best first (tie-breaks already applied); ``scores``:
    entry -> points so far (int, float, Fraction or Decimal); ``played``:
    pairs ``frozenset({a, b})`` that have already met (pairs naming an entry
    outside ``ranking`` are ignored); ``had_bye``: entries that had a bye;
    ``units``: entry -> unit name or None (missing = None); ``seed``: int or
    str for the final tie-break.

    In every pair ``a`` is ranked above ``b``; pairs are listed in ranking
    order of ``a``, the bye ``(x, None)`` last (only for an odd field). Every
    entry appears exactly once. 0 entries give ``[]``, 1 entry ``[(x, None)]``.
    A field of two or more is never refused: a rematch is made when no pairing
    avoids it (the caller reports it). Duplicates or None in ``ranking``, a
    missing or non-numeric score, or a bad seed raise ``UserError`` (a ``ValueError``) naming the field.

    Criteria, compared in this order (the first difference decides):

    1. the number of rematches (pairs in ``played``);
    2. the bye: to an entry without a previous bye where possible, then to the
       lowest-ranked such entry (if all had one: the lowest-ranked);
    3. the sum over pairs of |score difference| (the bye adds nothing);
    4. the number of pairs of one unit (units equal and not None);
    5. any tie left is decided by ``random.Random(seed)``: the order of equal
       scores in the quick pairing below, or the tie weights of the matching.

    Fields of up to ``EXACT_LIMIT`` (64) entries: the optimum of 1-4 is exact
    (``solve_exact``). A quick pairing (bye to the best bye key, the rest
    first-fit in score order, rematches exchanged out, then partner exchanges
    lowering the score difference and same-unit count) is returned only when
    it provably meets the bounds: no rematch, no same-unit pair, score
    difference equal to the line bound (the sum of every other gap in score
    order). Otherwise a minimum-cost perfect matching (networkx
    ``max_weight_matching`` with ``maxcardinality=True``) decides: on the
    complete graph plus a dummy node whose partner gets the bye, or, when the
    quick pairing has no rematch (so 1 and 2 are settled), on the pairs that
    can still beat it (|s_u - s_v| + line bound of the others <= its sum).
    Each pair costs one integer
    ``W1*rematch + W2*bye_key + W3*|score diff| + W4*same_unit + tie``; scores
    are scaled exactly to integers (``Fraction``), ``tie`` is drawn from the
    seed in [0, 1024), and each weight exceeds the largest possible sum of all
    lower terms over a whole pairing, so the criteria are lexicographic.

    Larger fields (``n > 64``): (1) and (2) still hold exactly, (3) comes from
    windows of the score order:

    a. Bye (odd field): to the entry with the best bye key as in (2).
    b. Let m be the number of remaining entries and d the largest number of
       earlier opponents any of them has among the others. If d <= m/2 - 1
       the graph of allowed (non-rematch) pairs has minimum degree >= m/2, so
       by Dirac's theorem it has a Hamiltonian cycle and hence a rematch-free
       perfect matching: 0 rematches with that bye is achievable and is what
       the steps below deliver. Otherwise (very long histories only) the
       exact method above is used on the whole field (correct but slow).
    c. The remaining entries are sorted by (score desc, ranking) and cut into
       consecutive windows of even size, at most 48 (72 for the last), each
       cut placed where possible at an even position where the score
       changes. Cutting a sorted sequence at even positions keeps the
       unconstrained minimum of (3): pairing neighbours is optimal for points
       on a line.
    d. Each window is solved exactly by the method above (criteria 1, 3, 4, 5
       within the window; a window of one score is usually settled by the
       quick pairing).
    e. A window whose best pairing still has a rematch is merged with the next
       window and solved again, up to 144 entries.
    f. Any rematch left is removed by exchanging partners with another pair
       ((a,b),(c,d) -> (a,c),(b,d) or (a,d),(b,c)) so that neither new pair
       is a rematch, choosing the exchange that adds the least score
       difference, then fewest same-unit pairs. Under the degree condition of
       (b) such an exchange always exists (a and b have >= m/2 allowed
       partners each among the other m/2 - 1 pairs, so some pair is joined to
       both crosswise), and each one lowers the rematch count.
    """
    field = SwissField(ranking, scores, played, had_bye, units, seed)
    n = field.n
    if n == 0:
        return []
    if n == 1:
        return [(field.entries[0], None)]
    if n <= EXACT_LIMIT:
        pairs = solve_exact(field, list(range(n)), bye=n % 2 == 1)
    else:
        pairs = _solve_large(field)
    return field.output(pairs)


# --------------------------------------------------------------------------- large fields
def _solve_large(field: SwissField) -> list[Pair]:
    """Pairing of a field above EXACT_LIMIT by score windows (see ``swiss_round``)."""
    n = field.n
    bye = min(range(n), key=field.bye_key.__getitem__) if n % 2 else None
    rest = [i for i in range(n) if i != bye]
    m = len(rest)
    most_opponents = max(len(field.opponents[i]) - (bye in field.opponents[i]) for i in rest)
    if most_opponents > m // 2 - 1:
        return solve_exact(field, list(range(n)), bye=bye is not None)
    order = sorted(rest, key=lambda i: (-field.score[i], i))
    pairs: list[Pair] = []
    carry: list[int] = []
    windows = _windows(field, order)
    for w, window in enumerate(windows):
        nodes = carry + window
        solved = solve_exact(field, nodes, bye=False)
        if (count_rematches(field, solved) and w + 1 < len(windows)
                and len(nodes) + len(windows[w + 1]) <= MAX_WINDOW):
            carry = nodes
            continue
        pairs += solved
        carry = []
    exchanged = exchange_rematches(field, pairs)
    if exchanged is None:  # cannot happen under the degree condition; stay correct anyway
        exchanged = min_cost_matching(field, [x for pair in pairs for x in pair], bye=False)
    pairs = exchanged
    if bye is not None:
        pairs.append((bye, None))
    return pairs


def _windows(field: SwissField, order: list[int]) -> list[list[int]]:
    """Cut ``order`` (even length) into consecutive even windows, at score changes if possible."""
    score = field.score
    m = len(order)
    windows = []
    start = 0
    while start < m:
        if m - start <= CHUNK + CHUNK // 2:
            end = m
        else:
            end = start + CHUNK
            for cut in range(start + CHUNK, start + CHUNK // 2, -2):
                if score[order[cut - 1]] != score[order[cut]]:
                    end = cut
                    break
        windows.append(order[start:end])
        start = end
    return windows
