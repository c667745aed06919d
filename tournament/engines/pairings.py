"""Pure pairing and draw functions for tournaments (no Django imports).

Everything here takes plain values and returns plain values. Every function
that uses chance takes a ``seed`` (int or str) and draws only from
``random.Random(seed)``: the same input and seed give the same result on every
run and machine. (``random.Random`` hashes a str seed with SHA-512, not with
Python's randomised ``hash``; and nothing here iterates over a set.)

Contract (called by an outside test suite; names and shapes are fixed):
``round_robin``, ``elimination_slots``, ``draw_groups``, ``draw_pairs``,
``draw_seats``, ``draw_tables``, ``cross_seed``.

Entries may be any hashable values (ids, names, objects). ``None`` is never an
entry: it marks a bye.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from common.errors import UserError, gettext_noop

Entry = Hashable
Match = tuple[Any, Any]

__all__ = [
    "round_robin",
    "elimination_slots",
    "bracket_positions",
    "draw_groups",
    "draw_pairs",
    "draw_seats",
    "draw_tables",
    "cross_seed",
]


# --------------------------------------------------------------------------- helpers
def check_entries(entries: Sequence, field: str) -> list:
    """Return ``entries`` as a list after checking: no None, no duplicates."""
    items = list(entries)
    seen: dict = {}
    for i, entry in enumerate(items):
        if entry is None:
            raise UserError(gettext_noop("Entry number %(number)s is empty: an entry cannot be None."),
                            field=field, number=i + 1)
        if entry in seen:
            raise UserError(gettext_noop("The entry %(entry)r appears twice."), field=field, entry=entry)
        seen[entry] = i
    return items


def _rng(seed: int | str) -> random.Random:
    """The only source of chance: ``random.Random`` seeded with an int or str."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise UserError(gettext_noop("The seed of the draw must be a whole number or a text, not %(type)s."),
                        field="seed", type=type(seed).__name__)
    return random.Random(seed)


# --------------------------------------------------------------------------- round robin
def round_robin(entries: Sequence[Entry]) -> list[list[Match]]:
    """All rounds of a single round robin, by the circle method (Berger tables).

    Entries are numbered 1..n in the given order; an odd count gets a dummy
    n+1 (the bye). With m = n-1 (n even) rounds, in round r (0-based) the
    fixed entry n meets entry c = r*n/2 mod m, and every other table pairs
    c+k with c-k (mod m). This reproduces the FIDE Berger tables exactly,
    including the side (first or second in the tuple) and the table order;
    the fixed entry alternates sides. A bye is written ``(entry, None)`` and
    put last in its round. Deterministic; every pair meets exactly once.
    """
    items = check_entries(entries, "entries")
    if len(items) < 2:
        return []
    players: list = items + [None] if len(items) % 2 else items
    n = len(players)
    m, half = n - 1, n // 2
    fixed = players[-1]
    rounds = []
    for r in range(m):
        c = (r * half) % m
        first = (players[c], fixed) if r % 2 == 0 else (fixed, players[c])
        tables = [first] + [(players[(c + k) % m], players[(c - k) % m]) for k in range(1, half)]
        rounds.append(_byes_last(tables))
    return rounds


def _byes_last(tables: list[Match]) -> list[Match]:
    """Write a bye as ``(entry, None)`` and move it to the end of the round."""
    played = [t for t in tables if None not in t]
    byes = [(t[0], None) if t[1] is None else (t[1], None) for t in tables if None in t]
    return played + byes


# --------------------------------------------------------------------------- elimination
def bracket_positions(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a power-of-two ``size``.

    Built by doubling: [1, 2] -> [1, 4, 2, 3] -> [1, 8, 4, 5, 2, 7, 3, 6] ...
    (each seed s is followed by its first-round opponent size+1-s). Seeds
    1..2^k then lie in different sections of size/2^k, so they can meet only
    once 2^k entries remain.
    """
    if size < 1 or size & (size - 1):
        raise UserError(gettext_noop("The bracket size must be a power of two, not %(size)s."), field="size", size=size)
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def elimination_slots(
    entries_in_seed_order: Sequence[Entry],
    unit: Callable[[Entry], Hashable] | None = None,
) -> list[Match]:
    """First-round ``(a, b)`` pairs of a single-elimination bracket, in bracket order.

    Seeding: the bracket has N = next power of two >= n places; seed s sits at
    ``bracket_positions(N)`` and meets seed N+1-s. Seeds above n are byes
    (``None``), so the byes go to seeds 1, 2, ... (the top seeds).

    Unit separation (``unit(entry)`` gives the entry's unit; None = no unit):
    a first-round clash (both entries of one unit) is removed by exchanging the
    lower-seeded entries of two first-round matches. Only entries of the
    lowest seed band (seeds N/2+1..n, the ones that face a top-half seed) are
    moved, and only between matches that both have two entries, so every seed
    1..N/2 keeps its place, byes stay with the top seeds and the guarantee
    "seeds 1..2^k meet only when 2^k remain" holds. Byes count too: bye holders
    that would meet in round 2 (their first real match) are separated the same
    way among the bye holders of seeds N/4+1..N/2 (:func:`_separate_bye_holders`). For a clash of unit u the
    exchange partner is the nearest seed number (weaker first) whose match
    has no entry of u; each exchange removes at least one clash and adds
    none, so the result has the fewest clashes possible: max(0, c_u - M) for
    the one unit u with c_u entries in the M two-entry matches, if any
    unit has more than M; otherwise none.
    """
    items = check_entries(entries_in_seed_order, "entries_in_seed_order")
    n = len(items)
    if n < 2:
        raise UserError(gettext_noop("A knock-out needs at least 2 entries, not %(count)s."),
                        field="entries_in_seed_order", count=n)
    size = 1 << (n - 1).bit_length()
    by_seed = items + [None] * (size - n)  # by_seed[s-1] is seed s
    positions = bracket_positions(size)
    if unit is not None:
        _separate_units(by_seed, size, n, unit)
        _separate_bye_holders(by_seed, size, n, unit)
    return [(by_seed[positions[i] - 1], by_seed[positions[i + 1] - 1]) for i in range(0, size, 2)]


def _separate_bye_holders(by_seed: list, size: int, n: int, unit: Callable) -> None:
    """Byes count: two entries with byes whose first real match is in round 2 are separated too.

    Seeds 1..k (k = size - n) have byes; in round 2 seed s meets seed size/2+1-s, so seeds s and
    size/2+1-s both holding byes meet in their first real match (e.g. an 18-entry draw in 32 places:
    seeds 3..14). That round is a first round of size/2 among the bye holders: the same exchange
    (:func:`_separate_units`) among the bye holders of its lower band (seeds size/4+1..k) removes the
    clashes, keeping seeds 1..size/4 in place and every bye with an entry of the top half.
    """
    k, half = size - n, size // 2
    if size < 4 or k <= half // 2:
        return
    virtual = by_seed[:k] + [None] * (half - k)   # seeds k+1..size/2 meet round-1 winners: unknown
    _separate_units(virtual, half, k, unit)
    by_seed[:k] = virtual[:k]


def _separate_units(by_seed: list, size: int, n: int, unit: Callable) -> None:
    """Exchange lowest-band entries in place so first-round unit clashes are fewest.

    ``by_seed[s-1]`` is seed s. Seed b in N/2+1..n faces seed N+1-b; see
    ``elimination_slots`` for the method and why it is optimal. One pass in
    seed order suffices: an exchange fixes the clash at b, never creates a
    clash, and fixes the partner's clash if it had one. A unit found with no
    exchange partner left stays so (every two-entry match then holds it).
    """
    low = list(range(size // 2 + 1, n + 1))
    unit_of_seed = {s: unit(by_seed[s - 1]) for s in range(size + 1 - n, n + 1)}
    hopeless: dict = {}
    for b in low:
        u = unit_of_seed[b]
        if u is None or u in hopeless or u != unit_of_seed[size + 1 - b]:
            continue
        partner = _exchange_partner(b, low, u, unit_of_seed, size)
        if partner is None:
            hopeless[u] = True
            continue
        by_seed[b - 1], by_seed[partner - 1] = by_seed[partner - 1], by_seed[b - 1]
        unit_of_seed[b], unit_of_seed[partner] = unit_of_seed[partner], u


def _exchange_partner(b: int, low: list[int], u, unit_of_seed: dict, size: int) -> int | None:
    """Nearest movable seed (weaker first) whose match holds no entry of unit ``u``."""
    first, last = low[0], low[-1]
    for d in range(1, last - first + 1):
        for cand in (b + d, b - d):
            if (first <= cand <= last and unit_of_seed[cand] != u
                    and unit_of_seed[size + 1 - cand] != u):
                return cand
    return None


# --------------------------------------------------------------------------- groups
def draw_groups(
    entries: Sequence[Entry],
    n_groups: int,
    seed: int | str,
    unit: Callable[[Entry], Hashable] | None = None,
    *,
    seeded: int = 0,
) -> list[list[Entry]]:
    """Draw entries into ``n_groups`` groups by lot; list index 0 is group A.

    - Sizes differ by at most one.
    - ``seeded=k``: the first k entries (given in seed order) are placed by
      snake order: 1->A, 2->B, ..., then back from the last group.
    - The other entries are grouped by unit (units in random order, entries of
      a unit in random order) and dealt one by one round the groups, starting
      with the groups holding fewest seeded entries, in random order among
      equals. A unit's entries are dealt consecutively, so its counts per
      group differ by at most one. A repair pass then exchanges unseeded
      entries between groups while that makes some unit's spread (counting the
      seeded entries too) more even without making another unit's worse.
    - Chance comes only from ``random.Random(seed)``.
    """
    items = check_entries(entries, "entries")
    _check_group_count(n_groups, len(items))
    if isinstance(seeded, bool) or not isinstance(seeded, int) or not 0 <= seeded <= len(items):
        raise UserError(gettext_noop("The number of seeded entries must be between 0 and %(most)s, not %(value)r."),
                        field="seeded", most=len(items), value=seeded)
    rng = _rng(seed)
    unit_of = unit if unit is not None else (lambda e: None)
    groups: list[list] = [[] for _ in range(n_groups)]
    for i, entry in enumerate(items[:seeded]):
        lap, pos = divmod(i, n_groups)
        groups[pos if lap % 2 == 0 else n_groups - 1 - pos].append(entry)
    _deal_unseeded(groups, items[seeded:], unit_of, rng)
    if unit is not None:
        _even_out_units(groups, items[:seeded], unit_of)
    return groups


def _check_group_count(n_groups: int, n_entries: int) -> None:
    """``n_groups`` must be an int between 1 and the number of entries."""
    if isinstance(n_groups, bool) or not isinstance(n_groups, int) or n_groups < 1:
        raise UserError(gettext_noop("The number of groups must be a positive whole number, not %(value)r."),
                        field="n_groups", value=n_groups)
    if n_groups > n_entries:
        raise UserError(gettext_noop("%(groups)s groups are more than the %(entries)s entries."),
                        field="n_groups", groups=n_groups, entries=n_entries)


def _deal_unseeded(groups: list[list], unseeded: list, unit_of: Callable, rng: random.Random) -> None:
    """Deal the unseeded entries round the groups, a unit's entries consecutively."""
    by_unit: dict = {}
    for entry in unseeded:
        by_unit.setdefault(unit_of(entry), []).append(entry)
    unit_keys = list(by_unit)
    rng.shuffle(unit_keys)
    deck = []
    for key in unit_keys:
        members = by_unit[key]
        rng.shuffle(members)
        deck.extend(members)
    cycle = list(range(len(groups)))
    rng.shuffle(cycle)
    cycle.sort(key=lambda g: len(groups[g]))  # stable: fewest seeded first, random among equals
    for i, entry in enumerate(deck):
        groups[cycle[i % len(cycle)]].append(entry)


def _even_out_units(groups: list[list], seeded: list, unit_of: Callable) -> None:
    """Swap unseeded entries between groups while a unit's spread gets more even.

    A swap moves an entry of unit u from a group where u is most frequent to
    a group where u is at least two fewer, in exchange for an entry of unit v
    that is more frequent in the target group than in the source (or has no
    unit). The sum of squared per-group unit counts strictly falls, so this
    stops. Seeded entries never move.
    """
    fixed = {entry: True for entry in seeded}  # lookup only, never iterated
    improved = True
    while improved:
        improved = False
        counts = _unit_counts(groups, unit_of)
        for u, per_group in counts.items():
            if u is None:
                continue
            hi = max(range(len(groups)), key=per_group.__getitem__)
            lo = min(range(len(groups)), key=per_group.__getitem__)
            if per_group[hi] - per_group[lo] >= 2 and _swap_for_unit(
                groups, hi, lo, u, counts, unit_of, fixed
            ):
                improved = True
                break


def _unit_counts(groups: list[list], unit_of: Callable) -> dict:
    """unit -> list of counts per group (units in order of first appearance)."""
    counts: dict = {}
    for g, grp in enumerate(groups):
        for entry in grp:
            counts.setdefault(unit_of(entry), [0] * len(groups))[g] += 1
    return counts


def _swap_for_unit(groups, hi, lo, u, counts, unit_of, fixed) -> bool:
    """Exchange an unseeded u-entry of group ``hi`` with a suitable entry of ``lo``."""
    for i, x in enumerate(groups[hi]):
        if unit_of(x) != u or x in fixed:
            continue
        for j, y in enumerate(groups[lo]):
            v = unit_of(y)
            if y in fixed or v == u:
                continue
            if v is None or counts[v][lo] > counts[v][hi]:
                groups[hi][i], groups[lo][j] = y, x
                return True
    return False


# --------------------------------------------------------------------------- small draws
def draw_pairs(individuals: Sequence[Entry], seed: int | str) -> list[tuple[Entry, Entry]]:
    """Draw partners by lot: shuffle with ``Random(seed)`` and pair neighbours.

    An odd number of individuals is an error (nobody is left as a single).
    """
    items = check_entries(individuals, "individuals")
    if len(items) % 2:
        raise UserError(gettext_noop("An odd number of individual sign-ups (%(count)s) cannot be drawn into pairs: "
                                     "add or remove one."), field="individuals", count=len(items))
    rng = _rng(seed)
    rng.shuffle(items)
    return [(items[i], items[i + 1]) for i in range(0, len(items), 2)]


def draw_seats(matches: Sequence[Match], seed: int | str) -> list[Match]:
    """For each match ``(a, b)`` draw which side sits North–South.

    Returns ``(ns, ew)`` per match, in the same order. A bye ``(a, None)`` has
    no table and is returned unchanged (no draw is spent on it).
    """
    rng = _rng(seed)
    seats = []
    for i, match in enumerate(_check_matches(matches)):
        a, b = match
        if b is None:
            seats.append((a, None))
        else:
            seats.append((a, b) if rng.random() < 0.5 else (b, a))
    return seats


def draw_tables(matches: Sequence[Match], seed: int | str, first_table: int = 1) -> list[int | None]:
    """Draw table numbers by lot; returns the table number of each match, in order.

    Tables are ``first_table``, ``first_table+1``, ... in a random order for
    the matches that are played; a bye ``(a, None)`` gets ``None``.
    """
    if isinstance(first_table, bool) or not isinstance(first_table, int) or first_table < 1:
        raise UserError(gettext_noop("The first table number must be a positive whole number, not %(value)r."),
                        field="first_table", value=first_table)
    checked = _check_matches(matches)
    played = [i for i, (_, b) in enumerate(checked) if b is not None]
    numbers = list(range(first_table, first_table + len(played)))
    _rng(seed).shuffle(numbers)
    tables: list[int | None] = [None] * len(checked)
    for i, number in zip(played, numbers):
        tables[i] = number
    return tables


def _check_matches(matches: Sequence[Match]) -> list[Match]:
    """Each match must be a 2-tuple with an entry first; a bye has ``None`` second."""
    checked = []
    for i, match in enumerate(matches):
        if not isinstance(match, (tuple, list)) or len(match) != 2 or match[0] is None:
            raise UserError(gettext_noop("Match number %(number)s must be a pair of entries (a, b)."),
                            field="matches", number=i + 1)
        checked.append(tuple(match))
    return checked


# --------------------------------------------------------------------------- cross seeding
def cross_seed(groups_qualifiers: Sequence[Sequence[Entry]]) -> list[Match]:
    """First-round knock-out pairs from group qualifiers, in bracket order.

    ``groups_qualifiers[g]`` lists group g's qualifiers by finishing place
    (index 0 = winner). With two qualifiers from each of G groups and 2G a
    power of two, groups are taken in neighbouring pairs (A,B), (C,D), ...;
    the top half of the bracket holds A1 v B2, C1 v D2, ... and the bottom half
    B1 v A2, D1 v C2, ... So the two winners of a group pair, and the two
    qualifiers of one group, are in opposite halves (they meet only in the
    final). Any other shape (one or three qualifiers, G not fitting) falls
    back to ``elimination_slots`` with the seed order "all group winners in
    group order, then all runners-up in reverse group order, ..." and the
    group as the unit, so same-group entries avoid each other in round one.
    """
    groups = [list(g) for g in groups_qualifiers]
    if not groups or any(not g for g in groups):
        raise UserError(gettext_noop("Every group needs at least one qualifier."), field="groups_qualifiers")
    check_entries([e for g in groups for e in g], "groups_qualifiers")
    n_groups = len(groups)
    if all(len(g) == 2 for g in groups) and (2 * n_groups) & (2 * n_groups - 1) == 0:
        if n_groups == 1:
            return [(groups[0][0], groups[0][1])]
        pairs = [(groups[i], groups[i + 1]) for i in range(0, n_groups, 2)]
        top = [(x[0], y[1]) for x, y in pairs]
        bottom = [(y[0], x[1]) for x, y in pairs]
        return top + bottom
    group_of: dict = {}
    order = []
    depth = max(len(g) for g in groups)
    for place in range(depth):
        indices = range(n_groups) if place % 2 == 0 else reversed(range(n_groups))
        for g in indices:
            if place < len(groups[g]):
                order.append(groups[g][place])
                group_of[groups[g][place]] = g
    return elimination_slots(order, unit=group_of.__getitem__)

from tournament.engines.swiss import swiss_round  # noqa: E402,F401  (contract name tournament.engines.pairings.swiss_round)
