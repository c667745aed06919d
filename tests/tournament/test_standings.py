"""Group standings and crosstables (pure)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournament.refusals import refused
from tournament.engines.standings import (
    METRICS,
    MatchResult,
    Metric,
    compute_standings,
    crosstable,
)

LADDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER"]
LEAGUE = ("points", "net_levels", "total_levels", "lot")
LEAGUE_2008 = ("points", "net_levels", "shared")


def standings(entries, results, **kw):
    kw.setdefault("ladder", LADDER)
    return compute_standings(entries, results, **kw)


def by_entry(table):
    return {r.entry: r for r in table.rows}


def test_points_win_three_loss_zero_and_level_values():
    table = standings("AB", [("A", "B", "A", "JOKER", "10")], order=LEAGUE)
    rows = by_entry(table)
    assert rows["A"].values == {"points": 3, "net_levels": 5, "total_levels": 15}
    assert rows["B"].values == {"points": 0, "net_levels": -5, "total_levels": 10}
    assert [r.entry for r in table.rows] == ["A", "B"]
    assert rows["A"].decided_by == "points" and rows["A"].rank == 1


def test_three_way_tie_on_points_decided_by_net_levels():
    results = [
        ("A", "B", "A", "JOKER", "10"),  # A +5
        ("B", "C", "B", "JOKER", "9"),   # B +6
        ("C", "A", "C", "JOKER", "8"),   # C +7
        ("A", "D", "A", "JOKER", "2"),   # A +13
        ("B", "D", "B", "JOKER", "3"),   # B +12
        ("C", "D", "C", "JOKER", "4"),   # C +11
    ]
    table = standings("ABCD", results, order=LEAGUE)
    rows = by_entry(table)
    assert rows["A"].values["net_levels"] == 5 - 7 + 13
    assert rows["B"].values["net_levels"] == -5 + 6 + 12
    assert rows["C"].values["net_levels"] == -6 + 7 + 11
    assert [r.entry for r in table.rows] == ["B", "C", "A", "D"]
    assert [r.decided_by for r in table.rows] == ["net_levels", "net_levels", "net_levels", "points"]
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]


def test_total_levels_decides_when_net_levels_equal():
    results = [
        ("A", "X", "A", "A", "10"),      # A +4, total 14
        ("B", "Y", "B", "K", "9"),       # B +4, total 13
    ]
    table = standings(["A", "B", "X", "Y"], results, order=LEAGUE)
    rows = by_entry(table)
    assert [r.entry for r in table.rows][:2] == ["A", "B"]
    assert rows["A"].decided_by == rows["B"].decided_by == "total_levels"


def complete_tie():
    # A, B, C beat each other in a circle with identical scores
    return [
        ("A", "B", "A", "JOKER", "10"),
        ("B", "C", "B", "JOKER", "10"),
        ("C", "A", "C", "JOKER", "10"),
    ]


def test_shared_place_company_league_2008():
    table = standings("ABC", complete_tie(), order=LEAGUE_2008)
    assert [r.rank for r in table.rows] == [1, 1, 1]
    assert all(r.shared and r.decided_by == "shared" for r in table.rows)


def test_shared_place_followed_by_next_rank():
    results = complete_tie() + [("A", "D", "A", "JOKER", "2"), ("B", "D", "B", "JOKER", "2"),
                                ("C", "D", "C", "JOKER", "2")]
    table = standings("ABCD", results, order=LEAGUE_2008)
    assert [r.rank for r in table.rows] == [1, 1, 1, 4]


def test_lot_with_seed_is_deterministic_and_says_so():
    one = standings("ABC", complete_tie(), order=LEAGUE, lot_seed="2024")
    two = standings("ABC", complete_tie(), order=LEAGUE, lot_seed="2024")
    assert [r.entry for r in one.rows] == [r.entry for r in two.rows]
    assert [r.rank for r in one.rows] == [1, 2, 3]
    assert all(r.decided_by == "lot" for r in one.rows)
    assert any("2024" in note for note in one.notes)
    orders = {tuple(r.entry for r in standings("ABC", complete_tie(), order=LEAGUE, lot_seed=s).rows)
              for s in range(30)}
    assert len(orders) > 1


def test_lot_not_drawn_yet_leaves_a_pending_shared_place():
    table = standings("ABC", complete_tie(), order=LEAGUE)
    assert [r.rank for r in table.rows] == [1, 1, 1]
    assert all(r.lot_pending and r.shared and r.decided_by is None for r in table.rows)
    assert table.notes


def test_head_to_head_metric_uses_only_tied_entries():
    # A and B level on 6 points; B beat A (A has the better net levels)
    results = [
        ("A", "B", "B", "K", "JOKER"),
        ("A", "C", "A", "JOKER", "2"),
        ("A", "D", "A", "JOKER", "2"),
        ("B", "C", "C", "2", "JOKER"),
        ("B", "D", "B", "JOKER", "10"),
    ]
    table = standings("ABCD", results, order=("points", "head_to_head", "shared"))
    assert [r.entry for r in table.rows][:2] == ["B", "A"]
    assert by_entry(table)["B"].decided_by == "head_to_head"
    assert by_entry(table)["B"].values["head_to_head"] == 3


def test_wins_metric_and_draw_points():
    results = [("A", "B", None, "9", "9"), ("A", "C", "A", "A", "2"), ("B", "C", None, "3", "3")]
    table = standings("ABC", results, order=("points", "wins", "shared"),
                      points={"win": 3, "draw": 1, "loss": 0})
    rows = by_entry(table)
    assert rows["A"].values["points"] == 4 and rows["A"].draws == 1 and rows["A"].wins == 1
    with refused("points", "积分表缺少 'draw'"):
        standings("AB", [("A", "B", None, "9", "9")])


def test_forfeit_default_counts_the_largest_margin_seen():
    results = [
        ("A", "B", "A", "JOKER", "5"),   # margin 10 (15 v 5)
        ("C", "D", "C", "K", "J"),       # margin 2
        ("A", "C", "C", None, None, True),  # A forfeits: C wins as JOKER v 5
    ]
    rows = by_entry(standings("ABCD", results, order=LEAGUE))
    assert rows["C"].values["net_levels"] == 2 + 10
    assert rows["C"].values["total_levels"] == 13 + 15
    assert rows["A"].values["net_levels"] == 10 - 10
    assert rows["C"].values["points"] == 6 and rows["A"].values["points"] == 3


def test_forfeit_without_played_matches_uses_ladder_ends():
    rows = by_entry(standings("AB", [MatchResult("A", "B", "B", None, None, True)]))
    assert rows["B"].values["net_levels"] == 15 - 2


def test_forfeit_rules_recorded_and_fixed_and_forfeit_loss_points():
    result = [("A", "B", "B", "3", "5", True)]
    rows = by_entry(standings("AB", result, forfeit_rule="recorded"))
    assert rows["B"].values["net_levels"] == 2
    rows = by_entry(standings("AB", result, forfeit_rule={"winner_level": "A", "loser_level": "2"},
                              points={"win": 3, "loss": 0, "forfeit_loss": -1}))
    assert rows["B"].values["net_levels"] == 12 and rows["A"].values["points"] == -1
    with refused("forfeit_rule"):
        standings("AB", result, forfeit_rule="whatever")


def test_double_forfeit_is_a_loss_for_both_without_levels():
    rows = by_entry(standings("AB", [("A", "B", None, None, None, True)]))
    assert rows["A"].losses == rows["B"].losses == 1
    assert rows["A"].values["total_levels"] == 0


def test_custom_metric_via_keyword():
    fewest_played = Metric("fewest", "少赛", lambda table, block: {e: -len(table.sides[e]) for e in block})
    table = standings("ABC", [("A", "B", "A", "A", "2")], order=("fewest", "shared"),
                      metrics={"fewest": fewest_played})
    assert table.rows[0].entry == "C"
    assert "fewest" not in METRICS


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"order": ("points", "lot", "net_levels")}, "order"),
        ({"order": ("goals",)}, "order"),
        ({"order": ()}, "order"),
        ({"ladder": ["2", "2"]}, "ladder"),
        ({"lot_seed": 1.5}, "lot_seed"),
    ],
)
def test_bad_options_name_the_field(kwargs, field):
    with refused(field):
        standings("AB", [("A", "B", "A", "A", "2")], **kwargs)


@pytest.mark.parametrize(
    "result, field",
    [
        (("A", "Z", "A", "A", "2"), "results[0].b"),
        (("A", "A", "A", "A", "2"), "results[0]"),
        (("A", "B", "C", "A", "2"), "results[0].winner"),
        (("A", "B", "A", "1", "2"), "results[0].level_a"),
        (("A", "B"), "results[0]"),
    ],
)
def test_bad_results_name_the_field(result, field):
    with refused(field):
        standings("ABC", [result])


def test_results_as_mappings():
    rows = by_entry(standings("AB", [{"a": "A", "b": "B", "winner": "B", "level_a": "2", "level_b": "A"}]))
    assert rows["B"].values["points"] == 3


def test_crosstable_cells_from_row_view():
    results = [("A", "B", "A", "A", "10"), ("C", "A", "C", None, None, True)]
    ct = crosstable("ABC", results)
    assert ct.text(0, 1) == "胜 A:10"
    assert ct.text(1, 0) == "负 10:A"
    assert ct.text(2, 0) == "胜（对方弃权）"
    assert ct.text(0, 2) == "负（弃权）"
    assert ct.text(1, 2) == "" and ct.cells[1][2] == ()
    assert ct.text(1, 1) == "—" and ct.cells[1][1] is None
    assert ct.cells[0][1][0].outcome == "win"


def test_crosstable_double_round_robin_keeps_both_meetings():
    ct = crosstable("AB", [("A", "B", "A", "A", "9"), ("B", "A", "B", "K", "Q")])
    assert ct.text(0, 1) == "胜 A:9 / 负 Q:K"


@given(
    st.integers(2, 10).flatmap(lambda n: st.tuples(
        st.just(n),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.booleans(),
                           st.integers(0, 13), st.integers(0, 13), st.booleans()), max_size=40),
    )),
    st.sampled_from([LEAGUE, LEAGUE_2008, ("points", "head_to_head", "net_levels", "shared")]),
    st.one_of(st.none(), st.integers()),
)
@settings(max_examples=200)
def test_standings_properties(case, order, lot_seed):
    n, raw = case
    entries = [f"e{i}" for i in range(n)]
    results = [
        (entries[a], entries[b], entries[a] if a_wins else entries[b], LADDER[la], LADDER[lb], forfeit)
        for a, b, a_wins, la, lb, forfeit in raw if a != b
    ]
    table = standings(entries, results, order=order, lot_seed=lot_seed)
    assert sorted(r.entry for r in table.rows) == sorted(entries)
    ranks = [r.rank for r in table.rows]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    pts = [r.values["points"] for r in table.rows]
    assert pts == sorted(pts, reverse=True)
    assert sum(r.values["net_levels"] for r in table.rows) == 0
    assert sum(r.wins for r in table.rows) == len(results) == sum(r.losses for r in table.rows)
    for i, r in enumerate(table.rows):
        assert r.rank == i + 1 or (r.shared and r.rank == table.rows[i - 1].rank)
    if order[-1] == "lot" and lot_seed is not None:
        assert ranks == list(range(1, n + 1))
    assert standings(entries, results, order=order, lot_seed=lot_seed) == table


def test_the_total_levels_are_shown_even_when_the_order_does_not_rank_by_them():
    """Issue 27 item 15: company-league-2008 ranks by points, net levels and a shared place only (004, 2008
    修订版 一.3-4), and its table showed 总级数 0 for every pair. The table's columns are every entry's own."""
    table = standings("AB", [("A", "B", "A", "JOKER", "10")], order=LEAGUE_2008)
    rows = by_entry(table)
    assert rows["A"].values["total_levels"] == 15 and rows["B"].values["total_levels"] == 10
