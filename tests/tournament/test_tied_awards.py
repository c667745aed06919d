"""Issue 27 item 2: entries tied on a place share its award, on the page and in the PDF. The profile's award
counts are numbers of places (union-games: 冠军 1, 亚军 2, 季军 3–4, 优胜奖 5–8, then 纪念奖); a tie straddling a
boundary shares the better award; a 4th place (after a third-place match) takes the merit award
(tests/discrepancies.md §4)."""
import pytest
from django.urls import reverse

from tests.tournament.test_draws_support import make_event, play_stage
from tests.tournament.test_printouts import pages_text
from tournament.competition import draws, placings, stages
from tournament.engines import brackets
from tournament.models import Event, Stage
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout

UNION = {"champion": 1, "runner_up": 1, "third": 2, "merit": 4, "commemorative": True}


def knockout(n, places, profile="union-games"):
    event = make_event(n, 4, profile=profile, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": places})
    draws.draw_bracket(stage, seed="t")
    play_stage(stage)
    return event


def awards_by_place(event):
    return {(p.place, p.shared, p.entry.name): award.title for award in placings.award_list(event)
            for p in award.places}


@pytest.mark.parametrize("place, award", [
    (1, "champion"), (2, "runner_up"), (3, "third"), (4, "merit"), (5, "merit"), (8, "merit"),
    (9, "commemorative"), (13, "commemorative")])
def test_award_counts_are_numbers_of_places(place, award):
    assert placings.award_of(place, UNION) == award


def test_a_tie_straddling_a_boundary_shares_the_better_award():
    assert placings.award_of(3, {"champion": 1, "runner_up": 1, "third": 1}) == "third"  # 3= and 3=: both 季军
    assert placings.award_of(7, {"champion": 1, "runner_up": 1, "third": 2, "merit": 3}) == "merit"  # 7= over 7
    assert placings.award_of(4, {"champion": 1, "runner_up": 1, "third": 1}) is None


def test_the_four_quarter_final_losers_after_a_third_place_match_share_the_merit_award(db, client):
    event = knockout(8, brackets.THIRD_PLACE_MATCH)
    places, complete = placings.final_ranking(event)
    assert complete and [p.place for p in places] == [1, 2, 3, 4, 5, 5, 5, 5]
    got = awards_by_place(event)
    fifths = {title for (place, _shared, _name), title in got.items() if place == 5}
    assert fifths == {"优胜奖"} and sum(1 for (place, *_), _t in got.items() if place == 5) == 4
    assert [title for (place, *_), title in got.items() if place == 4] == ["优胜奖"]
    assert "纪念奖" not in got.values()
    page = client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    merit = page.split("<h3>优胜奖</h3>")[1].split("</li></ul></li>")[0]
    assert all(name in merit for (place, _s, name) in got if place in (4, 5)) and "纪念奖" not in page
    texts = pages_text(build_printout("awards", event, PrintOptions()))
    certificates = [t.replace("\n", "").replace(" ", "") for t in texts[1:]]
    assert sum("并列第5名" in t and "优胜奖" in t for t in certificates) == 4
    assert not any("纪念奖" in t for t in certificates)


def test_joint_thirds_both_get_the_third_place_even_where_the_profile_names_one(db):
    event = knockout(8, brackets.JOINT_THIRD, profile="company-league")  # company-league: third: 1
    got = awards_by_place(event)
    assert [title for (place, *_), title in got.items() if place == 3] == ["季军", "季军"]


def test_round_one_losers_all_get_the_commemorative_award(db):
    event = knockout(16, brackets.JOINT_THIRD)
    got = awards_by_place(event)
    by_place = {}
    for (place, _shared, _name), title in got.items():
        by_place.setdefault(place, set()).add(title)
    assert by_place == {1: {"冠军"}, 2: {"亚军"}, 3: {"季军"}, 5: {"优胜奖"}, 9: {"纪念奖"}}
    assert sum(1 for (place, *_r) in got if place == 9) == 8
