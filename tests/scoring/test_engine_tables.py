"""Every level-table row and band edge of RULES.md, for all five profiles."""
import pytest

from scoring.engine import LastTrick, settle_hand
from scoring.profiles import load_profile

# (profile, defender points, who goes up, levels). "def" = defenders take over, "decl" = declarers stay.
TABLE = {
    "shenzhen-community": [
        (80, "def", 0), (95, "def", 0), (100, "def", 1), (115, "def", 1), (120, "def", 2),
        (135, "def", 2), (140, "def", 3), (160, "def", 4), (180, "def", 5), (200, "def", 6),
        (215, "def", 6), (220, "def", 7), (240, "def", 8),               # +1 per further 20
        (75, "decl", 1), (60, "decl", 1), (55, "decl", 2), (40, "decl", 2), (35, "decl", 3),
        (20, "decl", 3), (15, "decl", 4), (0, "decl", 4),
        (-5, "decl", 5), (-20, "decl", 5), (-25, "decl", 6), (-40, "decl", 6),  # per further 20 below
    ],
    "two-deck-standard": [
        (80, "def", 0), (115, "def", 0), (120, "def", 1), (155, "def", 1), (160, "def", 2),
        (195, "def", 2), (200, "def", 3), (235, "def", 3), (240, "def", 4), (275, "def", 4),
        (280, "def", 5),
        (75, "decl", 1), (40, "decl", 1), (35, "decl", 2), (5, "decl", 2), (0, "decl", 3),
        (-35, "decl", 3), (-40, "decl", 4), (-75, "decl", 4), (-80, "decl", 5),
    ],
    "union-games": [
        (80, "def", 0), (115, "def", 0), (120, "def", 1), (155, "def", 1), (160, "def", 2),
        (195, "def", 2), (200, "def", 3),
        (75, "decl", 1), (40, "decl", 1), (35, "decl", 2), (5, "decl", 2), (0, "decl", 3),
        (-40, "decl", 3),                                  # clamped to 0 before the table
    ],
    "company-league": [
        (80, "def", 0), (115, "def", 0), (120, "def", 1), (155, "def", 1), (160, "def", 2),
        (200, "def", 3), (240, "def", 4),
        (75, "decl", 1), (40, "decl", 1), (35, "decl", 2), (5, "decl", 2), (0, "decl", 3),
        (-5, "decl", 4), (-40, "decl", 4), (-45, "decl", 5),
    ],
    "company-league-2008": [
        (80, "def", 0), (95, "def", 0), (100, "def", 1), (115, "def", 1), (120, "def", 2),
        (140, "def", 3),
        (75, "decl", 1), (60, "decl", 1), (55, "decl", 2), (40, "decl", 2), (35, "decl", 3),
        (20, "decl", 3), (15, "decl", 4), (5, "decl", 4), (0, "decl", 5), (-5, "decl", 6),
        (-20, "decl", 6), (-25, "decl", 7),
    ],
}
ROWS = [(slug, *row) for slug, rows in TABLE.items() for row in rows]
ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER"]


@pytest.mark.parametrize("slug,points,who,levels", ROWS)
def test_level_table_row(slug, points, who, levels):
    profile = load_profile(slug)
    trick = min(max(points, 0), 200)      # rows outside 0..200 are reached through penalties
    r = settle_hand(profile, declarer_level="3", defender_level="3", defender_points=trick,
                    penalty_points=points - trick)
    assert r.declarer_keeps is (who == "decl")
    assert r.levels_gained == levels
    if 3 + levels < 11:          # below J: no must-play stop on the way in any profile
        gainer_level = r.declarer_level if who == "decl" else r.defender_level
        other_level = r.defender_level if who == "decl" else r.declarer_level
        assert gainer_level == ORDER[1 + levels]
        assert other_level == "3"


@pytest.mark.parametrize("slug", list(TABLE))
def test_threshold_edge_75_80(slug):
    profile = load_profile(slug)
    below = settle_hand(profile, declarer_level="5", defender_level="5", defender_points=75)
    at = settle_hand(profile, declarer_level="5", defender_level="5", defender_points=80)
    assert below.declarer_keeps and below.declarer_level == "6"
    assert not at.declarer_keeps and at.defender_level == "5" and at.declarer_level == "5"
    assert at.explanation[0] == "防家得分80，上台"


def test_union_games_bottom_counts_in_full_above_200():
    p = load_profile("union-games")
    # trick points 200, bottom 20 captured with a trump single: 200 + 40 = 240 → 4 levels
    r = settle_hand(p, declarer_level="3", defender_level="3", defender_points=200, bottom_points=20,
                    last_trick=LastTrick("defenders", "single"))
    assert r.defender_points == 240 and r.levels_gained == 4 and r.defender_level == "7"
    r = settle_hand(p, declarer_level="3", defender_level="3", defender_points=195, bottom_points=20,
                    last_trick=LastTrick("defenders", "single"))
    assert r.defender_points == 235 and r.levels_gained == 3


def test_union_games_clamp_before_bottom():
    p = load_profile("union-games", choices={"fine_cap": "before_bottom"})   # not the default (issue 28)
    r = settle_hand(p, declarer_level="3", defender_level="3", defender_points=190, penalty_points=40,
                    bottom_points=20, last_trick=LastTrick("defenders", "single"))
    assert r.defender_points == 240                         # min(230, 200) + 40
    assert "得分限定在0..200：230→200" in r.explanation
    r = settle_hand(p, declarer_level="3", defender_level="3", defender_points=30, penalty_points=-50)
    assert r.defender_points == 0 and r.levels_gained == 3
    r = settle_hand(p, declarer_level="3", defender_level="3", defender_points=30, penalty_points=-50,
                    bottom_points=10, last_trick=LastTrick("defenders", "pair"))
    assert r.defender_points == 40 and r.levels_gained == 1


def test_penalties_are_signed_toward_defenders():
    p = load_profile("shenzhen-community")
    r = settle_hand(p, declarer_level="5", defender_level="5", defender_points=70, penalty_points=20)
    assert r.defender_points == 90 and not r.declarer_keeps
    r = settle_hand(p, declarer_level="5", defender_level="5", defender_points=10, penalty_points=-40)
    assert r.defender_points == -30 and r.levels_gained == 6
