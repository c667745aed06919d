"""Single-elimination bracket model (pure)."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.refusals import refused
from tournament.engines.brackets import (
    JOINT_THIRD,
    PLACE_QUARTER_FINALISTS,
    THIRD_PLACE_MATCH,
    build_bracket,
)
from tournament.engines.pairings import elimination_slots


def bracket_for(n, places_played=JOINT_THIRD):
    return build_bracket(elimination_slots(list(range(1, n + 1))), places_played=places_played)


def play_all(bracket, pick=min, withdrawn=()):
    """Resolve repeatedly, deciding every ready match with ``pick`` (default: better seed wins)."""
    results = {}
    while True:
        state = bracket.resolve(results, withdrawn=withdrawn)
        ready = [m for m in state.matches.values() if m.status == "ready"]
        if not ready:
            return state, results
        for m in ready:
            results[m.key] = pick(m.a, m.b)


def places(state):
    return {p.entry: p.place for p in state.placements}


def test_keys_rounds_and_labels_for_eight_with_full_placement():
    b = bracket_for(8, PLACE_QUARTER_FINALISTS)
    assert [m.key for m in b.matches] == [
        "R1-M1", "R1-M2", "R1-M3", "R1-M4",
        "R2-M1", "R2-M2", "P5-R1-M1", "P5-R1-M2",
        "R3-M1", "P3-R1-M1", "P5-R2-M1", "P7-R1-M1",
    ]
    final = b.match("R3-M1")
    assert (final.label, final.winner_place, final.loser_place) == ("决赛", 1, 2)
    assert b.final_key == "R3-M1"
    p7 = b.match("P7-R1-M1")
    assert (p7.a.kind, p7.a.value) == ("loser", "P5-R1-M1")
    assert p7.round_no == 3 and b.match("P5-R1-M1").round_no == 2
    assert b.match("R2-M1").a.describe() == "R1-M1 胜者"


def test_union_games_two_joint_third_places_and_four_merit_places():
    state, _ = play_all(bracket_for(8, JOINT_THIRD))
    got = places(state)
    assert got == {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}
    thirds = [p for p in state.placements if p.place == 3]
    assert len(thirds) == 2 and all(p.shared for p in thirds)
    assert not any(k.startswith("P") for k in state.matches)


def test_third_place_match():
    state, _ = play_all(bracket_for(8, THIRD_PLACE_MATCH))
    assert places(state) == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 5, 8: 5}
    assert "P3-R1-M1" in state.matches


def test_shenzhen_all_quarter_finalists_placed_from_sixteen():
    state, _ = play_all(bracket_for(16, PLACE_QUARTER_FINALISTS))
    got = places(state)
    assert [got[s] for s in range(1, 9)] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert all(got[s] == 9 for s in range(9, 17))


def test_byes_advance_automatically():
    state = bracket_for(6).resolve({})
    assert state.matches["R1-M1"].status == "bye" and state.matches["R1-M1"].winner == 1
    assert state.matches["R2-M1"].a == 1 and state.matches["R2-M1"].status == "waiting"


def test_walkover_for_withdrawn_entry_and_it_takes_the_losers_place():
    b = bracket_for(4, THIRD_PLACE_MATCH)
    state = b.resolve({"R1-M1": 1}, withdrawn=[3])
    assert state.matches["R1-M2"].status == "walkover"
    assert state.matches["R1-M2"].winner == 2
    # 3 lost R1 by walkover and loses the third-place match by walkover too
    state = b.resolve({"R1-M1": 1, "R2-M1": 2}, withdrawn=[3])
    assert places(state) == {2: 1, 1: 2, 4: 3, 3: 4}
    assert state.is_complete


def test_played_result_stands_even_if_entry_withdraws_later():
    b = bracket_for(4)
    state = b.resolve({"R1-M2": 3}, withdrawn=[3])
    assert state.matches["R1-M2"].status == "played" and state.matches["R1-M2"].winner == 3


def test_double_withdrawal_gives_the_next_opponent_a_bye():
    b = bracket_for(4)
    state = b.resolve({"R1-M1": 1}, withdrawn=[2, 3])
    assert state.matches["R1-M2"].status == "void"
    assert state.matches["R2-M1"].status == "bye" and state.matches["R2-M1"].winner == 1
    assert places(state) == {1: 1, 4: 3}


def test_strict_mode_rejects_bad_results():
    b = bracket_for(4)
    with refused("results", "R2-M1 的对阵尚未确定"):
        b.resolve({"R2-M1": 1})
    with refused("results", "R1-M1 记录的胜者 3 不在本场对阵中"):
        b.resolve({"R1-M1": 3})
    with refused("results", "X9"):
        b.resolve({"X9": 1})


def test_corrected_result_marks_later_results_stale():
    b = bracket_for(4)
    results = {"R1-M1": 1, "R1-M2": 2, "R2-M1": 1}
    results["R1-M1"] = 4  # corrected: 4 beat 1
    state = b.resolve(results, strict=False)
    assert state.stale == ("R2-M1",)
    assert state.matches["R2-M1"].status == "ready"
    assert (state.matches["R2-M1"].a, state.matches["R2-M1"].b) == (4, 2)


def test_build_rejects_bad_first_round():
    with refused("first_round", "收到 3"):
        build_bracket([(1, 2), (3, 4), (5, 6)])
    with refused("first_round", "重复"):
        build_bracket([(1, 2), (1, 3)])
    with refused("first_round", "轮空"):
        build_bracket([(None, None), (1, 2)])
    with refused("places_played"):
        build_bracket([(1, 2)], places_played=3)


@given(st.integers(2, 40), st.sampled_from([2, 4, 8, 16, 64]), st.integers())
@settings(max_examples=150)
def test_every_entry_gets_exactly_one_place(n, places_played, seed):
    rng = random.Random(seed)
    b = bracket_for(n, places_played)
    state, _ = play_all(b, pick=lambda a, c: rng.choice([a, c]))
    assert state.is_complete
    entries = [p.entry for p in state.placements]
    assert sorted(entries) == list(range(1, n + 1))
    numbers = sorted(p.place for p in state.placements)
    assert numbers[0] == 1 and numbers.count(1) == 1 and numbers.count(2) == 1
    # standard competition numbering: a place k shared by c entries is followed by k+c
    for place in set(numbers):
        later = [x for x in numbers if x > place]
        if later:
            assert min(later) == place + numbers.count(place)
    # only places beyond those played for are shared
    assert all(p.place > places_played for p in state.placements if p.shared)
    assert all(numbers.count(p.place) == 1 for p in state.placements if p.place <= places_played)


@given(st.integers(2, 40), st.integers())
@settings(max_examples=100)
def test_full_placement_gives_distinct_places(n, seed):
    rng = random.Random(seed)
    size = 1 << (n - 1).bit_length()
    state, _ = play_all(bracket_for(n, size), pick=lambda a, c: rng.choice([a, c]))
    assert sorted(p.place for p in state.placements) == list(range(1, n + 1))


def test_better_seed_always_winning_ranks_by_seed_with_full_placement():
    state, _ = play_all(bracket_for(32, 32))
    assert places(state) == {s: s for s in range(1, 33)}
