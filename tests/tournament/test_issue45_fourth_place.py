"""Issue 45 item 4: 003's awards after a 3rd-place match the organiser adds (organiser choice
``fourth_after_third_match``). 003 三 "扑克比赛设冠、扑克亚军各一名，扑克季军两名及扑克优胜奖四名和扑克纪念奖" with 一.1
"采取一局淘汰制" plays no 3rd-place match; after one, the 4th place takes a 优胜奖 (default ``merit``: one 季军 and
five 优胜奖) or a 季军 (``third``: 季军两名, 优胜奖四名, as 三 counts them)."""
import pytest

from tests.tournament.test_draws_support import make_event, play_stage
from tests.tournament.test_tied_awards import awards_by_place, knockout
from tournament.competition import draws, placings, stages
from tournament.engines import brackets
from tournament.events import rule_choices
from tournament.models import Event, Stage

UNION = {"champion": 1, "runner_up": 1, "third": 2, "merit": 4, "commemorative": True}


def test_award_of_under_both_readings():
    assert [placings.award_of(p, UNION) for p in (3, 4, 5, 8)] == ["third", "merit", "merit", "merit"]
    third = {**UNION, "fourth_place": "third"}
    assert [placings.award_of(p, third) for p in (3, 4, 5, 8, 9)] == ["third", "third", "merit", "merit",
                                                                        "commemorative"]


def _knockout(reading, organiser):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    if reading:
        rule_choices.set_choices(event, organiser, {"fourth_after_third_match": reading})
        event.refresh_from_db()
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": brackets.THIRD_PLACE_MATCH})
    draws.draw_bracket(stage, seed="t")
    play_stage(stage)
    return event


@pytest.mark.parametrize("reading, thirds, merits", [(None, 1, 5), ("third", 2, 4)])
def test_the_awards_after_a_third_place_match(db, make_user, reading, thirds, merits):
    """003 三 "扑克季军两名及扑克优胜奖四名": by default the 4th place (the 3rd-place match's loser) takes a 优胜奖;
    with ``third`` both sides of that match are 季军 and 5th–8th take the four 优胜奖."""
    event = _knockout(reading, make_user("organiser"))
    got = awards_by_place(event)
    assert sum(1 for t in got.values() if t == "季军") == thirds
    assert sum(1 for t in got.values() if t == "优胜奖") == merits
    assert [t for (place, *_), t in got.items() if place == 4] == ["季军" if reading else "优胜奖"]


def test_the_rule_choices_page_shows_both_readings(db, make_user, client):
    event = knockout(8, brackets.THIRD_PLACE_MATCH)
    client.force_login(make_user("organiser"))
    html = client.get(f"/manage/{event.slug}/rule-choices/").content.decode()
    assert "主办方加赛季军赛后第4名得什么奖，原文未写" in html
    assert "季军赛胜者为季军，负者（第4名）列入优胜奖：季军一名，优胜奖五名" in html
    assert "季军赛双方都得季军（季军两名），优胜奖四名（第5至8名）" in html
