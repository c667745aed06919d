"""The engines moved to tournament/engines/ (issue 33); the old module paths still answer every public name,
so outside callers of the contract names (``tournament.pairings.round_robin``, ``tournament.swiss.swiss_round``,
...) keep working, and they are the very same objects as the engines'."""
import importlib

import pytest

MOVED = ["pairings", "swiss", "swiss_matching", "brackets", "standings", "standings_input", "crosstable",
         "unit_standings"]


@pytest.mark.parametrize("name", MOVED)
def test_the_old_path_re_exports_every_public_name(name):
    old = importlib.import_module(f"tournament.{name}")
    new = importlib.import_module(f"tournament.engines.{name}")
    public = {k for k in vars(new) if not k.startswith("_")}
    assert public <= set(vars(old))
    assert all(getattr(old, k) is getattr(new, k) for k in public)


def test_the_contract_names_import_from_their_old_paths():
    from tournament.brackets import build_bracket
    from tournament.pairings import (
        cross_seed,
        draw_groups,
        draw_pairs,
        draw_seats,
        draw_tables,
        elimination_slots,
        round_robin,
        swiss_round,
    )
    from tournament.standings import compute_standings, crosstable
    from tournament.swiss import swiss_round as swiss
    from tournament.unit_standings import unit_standings

    assert swiss is swiss_round
    assert round_robin([1, 2, 3, 4]) and callable(build_bracket) and callable(compute_standings)
    assert all(callable(f) for f in (cross_seed, draw_groups, draw_pairs, draw_seats, draw_tables,
                                     elimination_slots, crosstable, unit_standings))


def test_the_package_names_its_public_functions():
    import tournament.engines as engines

    assert engines.unit_standings.unit_standings is importlib.import_module(
        "tournament.engines.unit_standings").unit_standings
    assert engines.clock.format_remaining(65)
    for name in engines.__all__:
        assert getattr(engines, name) is not None
