"""Issue 45 item 4: a throw (甩牌) that wins the last trick, a reading the texts do not write (choice ``throw_bottom``).

003 一.16 "主牌单扣底牌分数乘2，双扣底牌乘4，拖拉机扣底以张数乘2再乘分数" and 002 十六 "单张抠底 2倍 对子抠底 3倍 一对加1倍
连对抠底 二连对4倍，以后每多连……" name no throw. Either its largest combination counts (the default, what the
software did) or all its cards: 003 "以张数乘2" → cards × 2; 002 "一对加1倍" → × 2, plus 1 for each pair in it.
"""
import pytest

from common.errors import UserError
from demo.hands import scratch_match
from scoring import services
from scoring.engine import LastTrick, bottom_multiplier, final_points
from scoring.profile_choices import choice_specs
from scoring.profile_schema import LATER_KEYS
from scoring.profiles import load_profile
from tests.conftest import SEEDS
from tournament import roles
from tournament.events import rule_choices

CLAUSE_003 = "拖拉机扣底以张数乘2再乘分数"
CLAUSE_002 = "一对加1倍"


def throw(cards, pairs):
    return LastTrick("defenders", "throw", pairs, True, cards=cards)


def test_the_clauses_are_the_originals_words():
    seeds = {p.name[:3]: p.read_text(encoding="utf-8") for p in SEEDS.glob("00[23]_*.txt")} if SEEDS.exists() else {}
    if seeds:
        assert CLAUSE_003 in seeds["003"] and "甩牌扣底" not in seeds["003"]
        assert CLAUSE_002 in seeds["002"].replace("\n", "")
    for slug, words in (("union-games", CLAUSE_003), ("two-deck-standard", CLAUSE_002)):
        spec = choice_specs(load_profile(slug).data)["throw_bottom"]
        assert words in spec["clause"] and spec["clause_en"] and set(spec["readings"]) == {"largest", "all_cards"}
        assert all(r["label_en"] for r in spec["readings"].values())


@pytest.mark.parametrize("slug, reading, cards, pairs, factor", [
    # 003: ♠A K K thrown, largest a pair: × 4; all 3 cards × 2: × 6
    ("union-games", "largest", 3, 1, 4), ("union-games", "all_cards", 3, 1, 6),
    # 003: ♠A A K K Q (a tractor of 2 pairs and a single): largest × 8; all 5 cards: × 10
    ("union-games", "largest", 5, 2, 8), ("union-games", "all_cards", 5, 2, 10),
    # 002: ♠A A Q Q K, two pairs not in a row, largest a pair: × 3; all its cards: 2 + 2 pairs = × 4
    ("two-deck-standard", "largest", 5, 1, 3), ("two-deck-standard", "all_cards", 5, 2, 4),
    # 002: ♠A K Q, all singles: × 2 either way
    ("two-deck-standard", "largest", 3, 0, 2), ("two-deck-standard", "all_cards", 3, 0, 2),
])
def test_a_throw_counts_as_the_events_reading_says(slug, reading, cards, pairs, factor):
    profile = load_profile(slug, {"throw_bottom": reading})
    assert bottom_multiplier(profile, "throw", pairs, cards=cards) == factor
    assert final_points(profile, defender_points=60, bottom_points=20, last_trick=throw(cards, pairs)) == 60 + 20 * factor


def test_the_default_is_the_largest_combination_and_old_versions_keep_it():
    """What the software did before the choice: stored profile versions without the key replay the same."""
    assert LATER_KEYS["bottom.throw"] is None
    for slug in ("union-games", "two-deck-standard"):
        profile = load_profile(slug)
        assert profile.reading("throw_bottom") == "largest" and profile.throw_all_cards is None


def test_003_side_suits_cannot_capture_even_with_a_throw():
    """003 一.16 "副牌不能扣底"."""
    profile = load_profile("union-games", {"throw_bottom": "all_cards"})
    assert bottom_multiplier(profile, "throw", 1, False, cards=3) == 0


@pytest.mark.parametrize("cards, pairs, field", [(None, 1, "last_trick.cards"), (1, 0, "last_trick.cards"),
                                                 (3, 2, "last_trick.pairs"), (3, -1, "last_trick.pairs")])
def test_a_throw_needs_its_cards_and_pairs_within_them(cards, pairs, field):
    with pytest.raises(UserError) as err:
        LastTrick("defenders", "throw", pairs, cards=cards)
    assert err.value.field == field


def test_cards_are_for_a_throw_only():
    with pytest.raises(UserError) as err:
        LastTrick("defenders", "pair", 1, cards=2)
    assert err.value.field == "last_trick.cards"


@pytest.mark.django_db
@pytest.mark.parametrize("reading, final", [(None, 60 + 20 * 4), ("all_cards", 60 + 20 * 6)])
def test_the_throw_through_the_service_and_the_api(client, make_user, reading, final):
    """003 一.16: ♠A K K (3 trump cards, a pair in it) wins the last trick over a 20-point bottom."""
    referee, organiser = make_user(roles.TABLE_REFEREE), make_user(roles.ORGANISER)
    match = scratch_match("union-games", referees=[referee])
    if reading:
        rule_choices.set_choices(match.round.stage.event, organiser, {"throw_bottom": reading})
        match.refresh_from_db()
    last = {"by": "defenders", "shape": "throw", "cards": 3, "pairs": 1, "trump": True}
    written = services.record_hand(match, referee, number=1, trump="H", defender_points=60, declarer="N",
                                   bottom_points=20, last_trick=last)
    assert written.hand.final_points == final
    assert written.hand.last_trick["cards"] == 3
    client.force_login(referee)
    body = {"number": 1, "trump": "H", "defender_points": 60, "bottom_points": 20, "last_trick": last}
    response = client.post(f"/api/matches/{match.pk}/hands/1/correct/", data=body, content_type="application/json")
    assert response.status_code in (200, 201), response.json()
    assert response.json()["hand"]["final_points"] == final


@pytest.mark.django_db
@pytest.mark.parametrize("slug, words", [("union-games", CLAUSE_003), ("two-deck-standard", CLAUSE_002)])
def test_the_rule_choices_page_shows_both_readings(make_user, client, slug, words):
    """The clause (its original words) and both readings, on the organiser's rule-choices page."""
    event = scratch_match(slug).round.stage.event
    client.force_login(make_user(roles.ORGANISER))
    html = client.get(f"/manage/{event.slug}/rule-choices/").content.decode()
    spec = choice_specs(load_profile(slug).data)["throw_bottom"]
    assert words in html and spec["clause"] in html
    for reading in spec["readings"].values():
        assert reading["label"] in html
