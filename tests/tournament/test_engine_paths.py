"""The engines live in tournament/engines/, and that is where outside callers reach their contract names
(``tournament.engines.pairings.round_robin``, ``tournament.engines.swiss.swiss_round``, ...). Every name the
old top-level paths (``tournament.pairings``, ``tournament.swiss``, ...) offered answers there; the old paths
themselves are gone, so there is one name for each function."""
import importlib
import importlib.util

import pytest

#: The project's own names each old path offered (it re-exported every public name of its engine module).
CONTRACT_NAMES = {
    "pairings": ["Entry", "Match", "bracket_positions", "check_entries", "cross_seed", "draw_groups", "draw_pairs",
                 "draw_seats", "draw_tables", "elimination_slots", "round_robin", "swiss_round"],
    "swiss": ["EXACT_LIMIT", "Pair", "SwissField", "count_rematches", "exchange_rematches", "min_cost_matching",
              "solve_exact", "swiss_round"],
    "swiss_matching": ["EXACT_LIMIT", "Pair", "SwissField", "count_rematches", "exchange_rematches",
                       "min_cost_matching", "solve_exact"],
    "brackets": ["Bracket", "BracketState", "MatchSlot", "MatchState", "Placement", "Source", "build_bracket"],
    "standings": ["CrossResult", "Crosstable", "MatchResult", "Metric", "MetricFn", "StandingRow", "Standings",
                  "check_entries", "check_order", "check_results", "compute_standings", "crosstable", "level_value",
                  "note_messages", "points_table", "register_metric"],
    "standings_input": ["MatchResult", "check_entries", "check_order", "check_results", "points_table"],
    "crosstable": ["CrossResult", "Crosstable", "crosstable"],
    "unit_standings": ["PlacedPair", "UnitRow", "UnitTable", "clean_rules", "place_points", "unit_standings"],
}


@pytest.mark.parametrize("name", sorted(CONTRACT_NAMES))
def test_every_contract_name_answers_at_its_engine_module(name):
    module = importlib.import_module(f"tournament.engines.{name}")
    assert [n for n in CONTRACT_NAMES[name] if not hasattr(module, n)] == []


@pytest.mark.parametrize("name", sorted(CONTRACT_NAMES))
def test_the_old_top_level_path_is_gone(name):
    assert importlib.util.find_spec(f"tournament.{name}") is None


def test_the_contract_names_import_from_the_engines():
    from tournament.engines.brackets import build_bracket
    from tournament.engines.pairings import (
        cross_seed,
        draw_groups,
        draw_pairs,
        draw_seats,
        draw_tables,
        elimination_slots,
        round_robin,
        swiss_round,
    )
    from tournament.engines.standings import compute_standings, crosstable
    from tournament.engines.swiss import swiss_round as swiss
    from tournament.engines.unit_standings import unit_standings

    assert swiss is swiss_round
    assert round_robin([1, 2, 3, 4]) and callable(build_bracket) and callable(compute_standings)
    assert all(callable(f) for f in (cross_seed, draw_groups, draw_pairs, draw_seats, draw_tables,
                                     elimination_slots, crosstable, unit_standings))


def test_the_package_names_its_public_functions():
    import tournament.engines as engines

    assert engines.unit_standings.unit_standings is importlib.import_module(
        "tournament.engines.unit_standings").unit_standings
    assert engines.clock is importlib.import_module("tournament.engines.clock")
    assert engines.clock.format_remaining(65)
    for name in engines.__all__:
        assert getattr(engines, name) is not None
