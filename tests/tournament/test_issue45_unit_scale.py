"""Issue 45 item 5: 003 writes no unit scoring (its 三、奖励 awards individual places only: "扑克比赛设冠、扑克亚军各一名，
扑克季军两名及扑克优胜奖四名和扑克纪念奖"). The 9-7-6-5-4-3-2-1 scale is the organiser's own: the page, the printout
and the .xlsx say so, and the organiser choice ``unit_scale`` offers no unit standings at all."""
import io

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring.profiles import load_profile
from tests.conftest import login
from tests.tournament.test_draws_support import make_event, play_stage
from tournament.competition import draws, stages, unit_standings
from tournament.events import rule_choices
from tournament.models import Event, Stage
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout

OWN = "团体总分按名次计分的办法由主办方自定（原文未规定团体计分）"
NONE = "本赛事不设团体总分（原文未规定团体计分）"


def pdf_text(pdf):
    return "".join("".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def union_event(db):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": 8})
    draws.draw_bracket(stage, seed="u")
    return event, stage


def test_both_readings_in_the_profile():
    """003 三 (awards) with 二.2: no unit scoring written; the preset scale (default) or none."""
    assert load_profile("union-games").reading("unit_scale") == "organiser_scale"
    none = load_profile("union-games", {"unit_scale": "none"})
    assert none.reading("unit_scale") == "none"


def test_the_default_says_the_scale_is_the_organisers_own(union_event, client):
    """Default reading: today's 9-7-6-5-4-3-2-1 as a preset, with the note on the page, the .xlsx and the printout."""
    event, stage = union_event
    play_stage(stage)
    result = unit_standings.event_unit_standings(event)
    assert result.offered and result.note == OWN and sum(line.score for line in result.lines) == 37
    html = client.get(f"/events/{event.slug}/units/").content.decode()
    assert OWN in html and "9-7-6-5-4-3-2-1" in html
    sheet = load_workbook(io.BytesIO(unit_standings.workbook(result, event.name))).active
    assert OWN in [row[0] for row in sheet.iter_rows(values_only=True)]
    text = pdf_text(build_printout("units", event, PrintOptions()))
    assert OWN in text and "9-7-6-5-4-3-2-1" in text


def test_no_unit_standings_under_the_other_reading(union_event, client, make_user):
    """Reading ``none``: the event ranks no units; the page and the printout say so, with no table."""
    event, stage = union_event
    organiser = make_user("organiser")
    rule_choices.set_choices(event, organiser, {"unit_scale": "none"})
    event.refresh_from_db()
    play_stage(stage)
    assert not event.ranks_units
    result = unit_standings.event_unit_standings(event)
    assert not result.offered and result.lines == () and result.note == NONE
    html = client.get(f"/events/{event.slug}/units/").content.decode()
    assert NONE in html and "9-7-6-5-4-3-2-1" not in html and "<table" not in html
    assert f"/events/{event.slug}/units/" not in client.get(f"/events/{event.slug}/").content.decode()
    text = pdf_text(build_printout("units", event, PrintOptions()))
    assert NONE in text and "9-7-6-5-4-3-2-1" not in text


def test_the_rule_choices_page_shows_both_readings(union_event, client, make_user):
    event, _stage = union_event
    client.force_login(make_user("organiser"))
    html = client.get(f"/manage/{event.slug}/rule-choices/").content.decode()
    assert "原文未规定团体总分及其计分办法" in html
    assert "设团体总分，按主办方自定的名次分计算（预设9-7-6-5-4-3-2-1，可在团体计分页修改）" in html
    assert "不设团体总分（原文只设个人名次奖项）" in html


@pytest.mark.browser
def test_the_note_on_a_phone(transactional_db, live_server, page, make_user):
    """The public unit standings at 390 px carry the note, Chinese first."""
    page.set_viewport_size({"width": 390, "height": 844})
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": 8})
    draws.draw_bracket(stage, seed="u")
    play_stage(stage)
    login(page, live_server, make_user("organiser"))
    page.goto(f"{live_server.url}/events/{event.slug}/units/")
    page.wait_for_selector(f"#scale-note:has-text('{OWN}')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="var/test/issue45_units_390.png", full_page=True)
