"""Swiss pairing (tournament.engines.pairings.swiss_round): contract, optimality, examples."""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.refusals import refused
from tournament.engines.pairings import swiss_round
from tournament.engines.swiss import EXACT_LIMIT
from tournament.engines.swiss_matching import SwissField, _bounds_without_two, exchange_rematches, min_cost_matching


# --------------------------------------------------------------------------- helpers
def criteria(pairs, ranking, scores, played, had_bye=frozenset(), units=None):
    """The tuple the contract minimises: (rematches, bye key, score-diff sum, same-unit pairs)."""
    units = units or {}
    rank = {e: i for i, e in enumerate(ranking)}
    rematches = diff = same = 0
    bye = (0, 0)
    for a, b in pairs:
        if b is None:
            bye = (a in had_bye, -rank[a])
            continue
        rematches += frozenset({a, b}) in played
        diff += abs(scores[a] - scores[b])
        same += units.get(a) is not None and units.get(a) == units.get(b)
    return rematches, bye, diff, same


def all_pairings(items):
    """Every way to pair ``items`` (odd: one of them with None, the bye)."""
    if len(items) % 2:
        for i, x in enumerate(items):
            for rest in _even_pairings(items[:i] + items[i + 1:]):
                yield rest + [(x, None)]
    else:
        yield from _even_pairings(items)


def _even_pairings(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, partner in enumerate(rest):
        for tail in _even_pairings(rest[:i] + rest[i + 1:]):
            yield [(first, partner)] + tail


def check_contract(pairs, ranking):
    """Each entry once, a ranked above b, at most one bye and only for an odd field."""
    rank = {e: i for i, e in enumerate(ranking)}
    seen = [x for pair in pairs for x in pair if x is not None]
    assert sorted(seen) == sorted(ranking)
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == len(ranking) % 2
    if byes:
        assert pairs[-1][1] is None
    for a, b in pairs:
        assert a is not None
        if b is not None:
            assert rank[a] < rank[b]


@st.composite
def fields(draw, min_size=2, max_size=40):
    """A random field: ranking, scores, played pairs, byes, units."""
    ranking = draw(st.lists(st.integers(1, 10_000), min_size=min_size, max_size=max_size,
                            unique=True))
    n = len(ranking)
    points = st.sampled_from([0, 1, 2, 3, Fraction(1, 2), Fraction(3, 2), 2.5])
    scores = {e: draw(points) for e in ranking}
    index_pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                                max_size=3 * n))
    played = {frozenset({ranking[i], ranking[j]}) for i, j in index_pairs if i != j}
    had_bye = {e for e in ranking if draw(st.booleans()) and draw(st.booleans())}
    units = {e: draw(st.sampled_from([None, "A", "B", "C"])) for e in ranking}
    seed = draw(st.integers(0, 2**32))
    return ranking, scores, played, had_bye, units, seed


def play(field):
    ranking, scores, played, had_bye, units, seed = field
    return swiss_round(ranking, scores, played, had_bye=had_bye, units=units, seed=seed)


# --------------------------------------------------------------------------- properties
@settings(max_examples=150, deadline=None)
@given(fields())
def test_contract_on_random_fields(field):
    pairs = play(field)
    check_contract(pairs, field[0])
    assert play(field) == pairs  # same inputs, same answer


@settings(max_examples=150, deadline=None)
@given(fields(min_size=2, max_size=10))
def test_optimal_against_brute_force(field):
    ranking, scores, played, had_bye, units, _ = field
    pairs = play(field)
    check_contract(pairs, ranking)
    best = min(criteria(p, ranking, scores, played, had_bye, units) for p in all_pairings(ranking))
    assert criteria(pairs, ranking, scores, played, had_bye, units) == best


@settings(max_examples=8, deadline=None)
@given(st.integers(65, 130), st.integers(0, 1000))
def test_large_fields_keep_rematches_and_bye(n, seed):
    """Beyond 64 entries: valid, no rematch, bye to the lowest-ranked without one."""
    rng = random.Random(seed)
    ranking, scores, played, had_bye, units = simulated_field(n, rounds=4, rng=rng)
    pairs = swiss_round(ranking, scores, played, had_bye=had_bye, units=units, seed=seed)
    check_contract(pairs, ranking)
    assert criteria(pairs, ranking, scores, played)[0] == 0
    if n % 2:
        expected = max((e for e in ranking if e not in had_bye), key=ranking.index)
        assert pairs[-1] == (expected, None)


def simulated_field(n, rounds, rng):
    """``n`` entries after ``rounds`` rounds paired by swiss_round, random results."""
    ranking = list(range(1, n + 1))
    scores = {e: 0 for e in ranking}
    units = {e: f"u{rng.randrange(8)}" for e in ranking}
    played, had_bye = set(), set()
    for r in range(rounds):
        ranking.sort(key=lambda e: -scores[e])
        for a, b in swiss_round(ranking, scores, played, had_bye=had_bye, units=units, seed=r):
            if b is None:
                had_bye.add(a)
                scores[a] += 1
            else:
                played.add(frozenset({a, b}))
                scores[rng.choice((a, b))] += 1
    ranking.sort(key=lambda e: -scores[e])
    return ranking, scores, played, had_bye, units


# --------------------------------------------------------------------------- examples
def test_top_plays_second_when_they_have_not_met():
    assert swiss_round([1, 2, 3, 4], {1: 2, 2: 2, 3: 1, 4: 1}, set()) == [(1, 2), (3, 4)]


def test_rematch_avoided_at_the_cost_of_score_difference():
    pairs = swiss_round([1, 2, 3, 4], {1: 2, 2: 2, 3: 1, 4: 1}, {frozenset({1, 2})})
    assert pairs in ([(1, 3), (2, 4)], [(1, 4), (2, 3)])


def test_forced_rematch_in_two_entry_field():
    assert swiss_round(["a", "b"], {"a": 1, "b": 1}, {frozenset({"a", "b"})}) == [("a", "b")]


def test_fewest_rematches_when_some_are_forced():
    # 1-2, 1-3, 2-3 all met: one of them must meet again, 4 takes one of 1, 2, 3.
    played = {frozenset(p) for p in ((1, 2), (1, 3), (2, 3))}
    pairs = swiss_round([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0), played)
    assert criteria(pairs, [1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0), played)[0] == 1


def test_bye_to_lowest_ranked_without_a_bye():
    scores = dict.fromkeys([1, 2, 3, 4, 5], 1)
    assert swiss_round([1, 2, 3, 4, 5], scores, set())[-1] == (5, None)
    assert swiss_round([1, 2, 3, 4, 5], scores, set(), had_bye={5})[-1] == (4, None)
    assert swiss_round([1, 2, 3, 4, 5], scores, set(), had_bye={1, 2, 3, 4, 5})[-1] == (5, None)


def test_bye_to_lowest_ranked_even_with_a_larger_score_gap():
    # Bye before score difference: 3 gets it although 1 v 2 is a 2-point gap.
    pairs = swiss_round([1, 2, 3], {1: 2, 2: 0, 3: 0}, set())
    assert pairs == [(1, 2), (3, None)]


def test_rematches_come_before_the_bye():
    # Bye to 3 would force the rematch 1 v 2, so 2 gets it.
    pairs = swiss_round([1, 2, 3], dict.fromkeys([1, 2, 3], 0), {frozenset({1, 2})})
    assert pairs == [(1, 3), (2, None)]


def test_same_unit_avoided_when_free():
    units = {1: "A", 2: "A", 3: "B", 4: "B"}
    pairs = swiss_round([1, 2, 3, 4], dict.fromkeys(units, 1), set(), units=units)
    assert all(units[a] != units[b] for a, b in pairs)


def test_score_difference_comes_before_units():
    units = {1: "A", 2: "A", 3: "B", 4: "B"}
    pairs = swiss_round([1, 2, 3, 4], {1: 2, 2: 2, 3: 0, 4: 0}, set(), units=units)
    assert pairs == [(1, 2), (3, 4)]


def test_units_none_never_clash():
    units = {1: None, 2: None, 3: "A", 4: "A"}
    pairs = swiss_round([1, 2, 3, 4], dict.fromkeys(units, 0), set(), units=units)
    assert sorted(pairs) in ([(1, 3), (2, 4)], [(1, 4), (2, 3)])


def test_fractional_and_float_scores_are_exact():
    ranking = [1, 2, 3, 4]
    scores = {1: 0.3, 2: 0.2, 3: 0.1, 4: 0.0}
    pairs = swiss_round(ranking, scores, set())
    assert pairs == [(1, 2), (3, 4)]


def test_tiny_fields():
    assert swiss_round([], {}, set()) == []
    assert swiss_round(["x"], {"x": 0}, set()) == [("x", None)]


def test_seed_breaks_remaining_ties_deterministically():
    ranking = list(range(20))
    scores = dict.fromkeys(ranking, 0)
    results = {tuple(swiss_round(ranking, scores, set(), seed=s)) for s in range(10)}
    assert len(results) > 1
    assert swiss_round(ranking, scores, set(), seed=7) == swiss_round(ranking, scores, set(), seed=7)


@pytest.mark.parametrize("ranking, scores, field, message", [
    ([1, 2, 1], {1: 0, 2: 0}, "ranking", "重复"),
    ([1, 2, 3], {1: 0, 2: 0}, "scores", "缺少参赛者 3 的积分"),
    ([1, None], {1: 0}, "ranking", "None"),
    ([1, 2], {1: 0, 2: "x"}, "scores", "不是数字"),
    ([1, 2], {1: 0, 2: float("nan")}, "scores", "无效"),
])
def test_invalid_input(ranking, scores, field, message):
    with refused(field, message):
        swiss_round(ranking, scores, set())


# --------------------------------------------------------------------------- large fields
def test_large_field_with_dense_history_still_has_fewest_rematches():
    """66 entries, the top 34 have all met: one rematch is forced (exact fallback)."""
    ranking = list(range(66))
    clique = ranking[:34]
    played = {frozenset({a, b}) for a in clique for b in clique if a < b}
    pairs = swiss_round(ranking, dict.fromkeys(ranking, 0), played)
    check_contract(pairs, ranking)
    assert criteria(pairs, ranking, dict.fromkeys(ranking, 0), played)[0] == 1


def test_large_field_window_that_cannot_avoid_rematches_is_widened():
    """The top 30 of 100 (one score) have all met: they must play the next ones down."""
    ranking = list(range(100))
    scores = {e: 3 if e < 30 else 2 if e < 60 else 1 for e in ranking}
    played = {frozenset({a, b}) for a in range(30) for b in range(30) if a < b}
    pairs = swiss_round(ranking, scores, played)
    check_contract(pairs, ranking)
    rematches, _, diff, _ = criteria(pairs, ranking, scores, played)
    assert rematches == 0
    assert diff == 30  # each of the top 30 meets a 2-point entry, nobody else crosses


def test_exchange_step_removes_every_rematch():
    ranking = list(range(EXACT_LIMIT + 2))
    played = {frozenset({2 * k, 2 * k + 1}) for k in range(len(ranking) // 2)}
    scores = {e: e // 10 for e in ranking}
    field = SwissField(ranking, scores, played, frozenset(), None, 0)
    pairs = exchange_rematches(field, [(2 * k, 2 * k + 1) for k in range(len(ranking) // 2)])
    named = [(ranking[a], ranking[b]) for a, b in pairs]
    check_contract(sorted((min(p), max(p)) for p in named), ranking)
    assert criteria(named, ranking, scores, played)[0] == 0


# --------------------------------------------------------------------------- internals
@settings(max_examples=100, deadline=None)
@given(fields(min_size=2, max_size=9))
def test_full_matching_alone_is_optimal(field):
    """The weight encoding by itself (no quick pairing, no pruning) gives the minimal tuple."""
    ranking, scores, played, had_bye, units, seed = field
    data = SwissField(ranking, scores, played, had_bye, units, seed)
    pairs = min_cost_matching(data, list(range(len(ranking))), bye=len(ranking) % 2 == 1)
    named = [(ranking[a], None if b is None else ranking[b]) for a, b in pairs]
    best = min(criteria(p, ranking, scores, played, had_bye, units) for p in all_pairings(ranking))
    assert criteria(named, ranking, scores, played, had_bye, units) == best


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=2, max_size=14).map(
    lambda v: sorted(v + v[:len(v) % 2], reverse=True)))
def test_line_bound_without_two_entries(values):
    table = _bounds_without_two(values)
    for p in range(len(values)):
        for q in range(p + 1, len(values)):
            rest = [v for i, v in enumerate(values) if i not in (p, q)]
            assert table[p][q] == sum(rest[i] - rest[i + 1] for i in range(0, len(rest), 2))
