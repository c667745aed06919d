"""Unit standings (issue 14, item 1; union meets, 003 通知 团体总分): the pure calculation and the service."""
import io
from fractions import Fraction

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from common.errors import UserError
from tests.tournament.test_draws_support import make_event, play_stage
from tests.tournament.test_printouts import pages_text
from tournament.competition import draws, stages, unit_standings
from tournament.engines import unit_standings as us
from tournament.models import Event, Player, Stage
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout

P = us.PlacedPair


def by_unit(table):
    return {r.unit: r for r in table.rows}


def test_default_scale_is_9_7_6_5_4_3_2_1_and_lower_places_earn_nothing():
    # issue 14 item 1: "default the common sports-meet scale 9-7-6-5-4-3-2-1 for places 1–8"
    assert us.place_points(list(range(1, 11))) == [9, 7, 6, 5, 4, 3, 2, 1, 0, 0]


def test_joint_places_share_the_points_of_the_places_they_cover():
    # issue 14 item 1: "joint places sharing the points of the places they cover"
    assert us.place_points([1, 2, 3, 3]) == [9, 7, Fraction(11, 2), Fraction(11, 2)]
    assert us.place_points([5, 5, 5, 5]) == [Fraction(10, 4)] * 4  # 4+3+2+1 over four joint fifths
    assert us.place_points([8, 8]) == [Fraction(1, 2)] * 2  # place 9 earns 0


def test_unit_score_sums_its_pairs_or_its_best_n():
    pairs = [P("a1", "A", 1), P("a2", "A", 6), P("a3", "A", 8), P("b1", "B", 2), P("b2", "B", 3)]
    all_count = by_unit(us.unit_standings(pairs))
    assert all_count["A"].score == 9 + 3 + 1 and all_count["B"].score == 7 + 6
    best2 = by_unit(us.unit_standings(pairs, best_n=2))
    # issue 14 item 1: "counting all pairs or the best N per unit"
    assert best2["A"].score == 12 and [c[0] for c in best2["A"].counted] == ["a1", "a2"]
    assert [r.unit for r in us.unit_standings(pairs, best_n=2).rows] == ["B", "A"]


def test_women_pair_bonus_for_each_women_pair_that_earns_points():
    pairs = [P("a1", "A", 1), P("b1", "B", 2, women=True), P("b2", "B", 12, women=True)]
    table = by_unit(us.unit_standings(pairs, women_bonus=3))
    assert table["B"].score == 7 + 3 and table["B"].bonus == 3  # b2 earned nothing: no bonus


def test_ties_by_more_first_places_then_second_places_then_a_printed_lot():
    # issue 14 item 1: "ties broken by more first places, then second places, then lot (printed seed)"
    firsts = us.unit_standings([P("a", "A", 2), P("a2", "A", 3), P("b", "B", 1), P("c", "C", 4)],
                               points=(6, 3, 3, 1))
    assert [(r.unit, r.score, r.decided_by) for r in firsts.rows] == [
        ("B", 6, "firsts"), ("A", 6, "firsts"), ("C", 1, "score")]
    seconds = us.unit_standings([P("a", "A", 2), P("b", "B", 3), P("b2", "B", 4)], points=(9, 7, 4, 3))
    assert [(r.unit, r.decided_by) for r in seconds.rows] == [("A", "seconds"), ("B", "seconds")]
    tied = [P("a", "A", 3), P("b", "B", 4)]
    lot1 = us.unit_standings(tied, points=(9, 7, 5, 5), lot_seed="s")
    assert {r.decided_by for r in lot1.rows} == {"lot"} and [r.rank for r in lot1.rows] == [1, 2]
    assert [r.unit for r in us.unit_standings(tied, points=(9, 7, 5, 5), lot_seed="s").rows] == \
        [r.unit for r in lot1.rows]
    open_tie = us.unit_standings(tied, points=(9, 7, 5, 5))
    assert all(r.shared and r.lot_pending and r.rank == 1 for r in open_tie.rows)


def test_units_without_a_placed_pair_score_zero_and_bad_rules_are_refused():
    table = us.unit_standings([P("a", "A", 1)], ["A", "B"], lot_seed=1)
    assert [(r.unit, r.score) for r in table.rows] == [("A", 9), ("B", 0)]
    for rules, field in (({"points": [9, -1]}, "points"), ({"best_n": 0}, "best_n"),
                         ({"women_bonus": -2}, "women_bonus"), ({"points": []}, "points")):
        with pytest.raises(UserError) as refused:
            us.clean_rules(rules)
        assert refused.value.field == field


@pytest.fixture
def union_event(db):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": 8})
    draws.draw_bracket(stage, seed="u")
    return event, stage


def test_service_reads_the_final_ranking_and_is_provisional_until_complete(union_event):
    event, stage = union_event
    provisional = unit_standings.event_unit_standings(event)
    assert not provisional.complete and all(line.score == 0 for line in provisional.lines)
    play_stage(stage)
    final = unit_standings.event_unit_standings(event)
    assert final.complete
    assert sum(line.score for line in final.lines) == 9 + 7 + 6 + 5 + 4 + 3 + 2 + 1
    assert final.rules == {"points": (9, 7, 6, 5, 4, 3, 2, 1), "best_n": None, "women_bonus": 0}
    assert any("9-7-6-5-4-3-2-1" in line for line in final.rules_text)
    assert final.lot_seed == f"{event.slug}:团体" and final.lot_seed in final.rules_text[-1]


def test_organiser_override_per_event_and_women_pairs_from_the_players(union_event):
    event, stage = union_event
    play_stage(stage)
    pair = event.pairs.order_by("pk").first()
    Player.objects.filter(pk__in=[pair.player1_id, pair.player2_id]).update(gender="F")
    unit_standings.set_unit_rules(event, points=unit_standings.parse_points("10-8-6-4"), best_n=1, women_bonus=2,
                                seed="公开")
    event.refresh_from_db()
    result = unit_standings.event_unit_standings(event)
    assert result.rules == {"points": (10, 8, 6, 4), "best_n": 1, "women_bonus": 2} and result.lot_seed == "公开"
    assert all(len(line.pairs) <= 1 for line in result.lines)
    with pytest.raises(UserError) as refused:
        unit_standings.set_unit_rules(event, points=[1, "x"])
    assert refused.value.field == "points"
    with pytest.raises(UserError):
        unit_standings.parse_points("9-七")


def test_xlsx_has_chinese_headers_and_numbers_as_numbers(union_event):
    event, stage = union_event
    play_stage(stage)
    data = unit_standings.workbook(unit_standings.event_unit_standings(event), event.name)
    sheet = load_workbook(io.BytesIO(data)).active
    assert [c.value for c in sheet[3]][:3] == ["名次", "单位", "总分"]
    assert isinstance(sheet["A4"].value, int) and isinstance(sheet["C4"].value, (int, float))


@pytest.mark.django_db
def test_an_event_without_a_scale_says_so_on_the_page_and_the_printout(client):
    """company-league (001) writes no unit scoring and the organiser set none: the page and the printout said
    nothing at all (a heading over a blank page)."""
    event = make_event(4, 2, profile="company-league", fmt=Event.Format.ROUND_ROBIN)
    assert not event.ranks_units
    result = unit_standings.event_unit_standings(event)
    assert not result.offered and result.note == "本赛事不计团体总分：竞赛规程未规定各单位按名次计分，主办方也未设定。"
    page = client.get(reverse("competition_units", args=[event.slug])).content.decode()
    assert result.note in page
    assert result.note in "".join(pages_text(build_printout("units", event, PrintOptions()))).replace("\n", "")
