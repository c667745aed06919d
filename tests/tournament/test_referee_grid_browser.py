"""Issue 27 item 9 in Chromium at 1366×768: the organiser's grid of round times and referees shows every round
and the "every round" column without scrolling sideways, a row as tall as one menu. Screenshots go to
var/…/screenshots/referee-grid-*.png."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login
from tests.tournament.test_draws_support import finish, make_event
from tournament import roles
from tournament.competition import draws, stages, timetable
from tournament.models import Event, Match, Stage
from tournament.staff.services import add_staff

WIDE = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.parametrize("pairs, groups", [(24, 4), (10, 1)])
def test_every_round_and_the_whole_row_column_fit_at_1366(transactional_db, live_server, page, make_user,
                                                          pairs, groups):
    event = make_event(pairs, 8, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": groups})
    draws.draw_groups(stage, seed="grid")
    referees = [add_staff(event, roles.TABLE_REFEREE, username=f"ref{i}", display=name)
                for i, name in enumerate(["欧阳晓梅", "王裁判", "司马长风", "李"])]
    timetable.same_table_every_round(stage, 1, referees[2][0].user)
    finish(Match.objects.get(round__stage=stage, round__number=1, table=1))
    organiser = make_user(roles.ORGANISER)
    page.set_viewport_size(WIDE)
    login(page, live_server, organiser)
    page.goto(live_server.url + reverse("competition_referee_grid", args=[event.slug]))
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"referee-grid-{pairs}.png"), full_page=True)
    rounds = stage.rounds.count()
    assert page.locator("table.grid thead th").count() == rounds + 2
    table = page.locator("table.grid")
    scroller = page.locator(".scroll-x").first
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth"), "the grid scrolls sideways"
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDE["width"]
    last = page.locator("table.grid thead th").last.bounding_box()
    assert last["x"] + last["width"] <= WIDE["width"], last
    row = page.locator("table.grid tbody tr").first.bounding_box()
    menu = page.locator("table.grid tbody tr select").first.bounding_box()
    assert row["height"] <= menu["height"] * 2 + 24, (row, menu)
    assert table.bounding_box()["width"] <= WIDE["width"]
    assert page.locator("select[name=row_1]").bounding_box()["x"] < page.locator("table.grid tbody td").nth(1).bounding_box()["x"]
    assert page.locator("table.grid tbody tr").first.locator("select[disabled]").count() == 1   # round 1 finished
    words = [w for w in re.findall(r"[A-Za-z]{2,}", page.locator("form.referee-grid").inner_text())]
    assert not words, f"English on the grid (make messages first): {words[:10]}"


@pytest.mark.browser
def test_the_grid_on_a_phone_scrolls_inside_its_box(transactional_db, live_server, page, make_user):
    event = make_event(24, 8, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 4})
    draws.draw_groups(stage, seed="grid")
    add_staff(event, roles.TABLE_REFEREE, username="ref0", display="欧阳晓梅")
    page.set_viewport_size(PHONE)
    login(page, live_server, make_user(roles.ORGANISER))
    page.goto(live_server.url + reverse("competition_referee_grid", args=[event.slug]))
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "referee-grid-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    start = page.locator("input[name^=start_]").first.bounding_box()
    assert start["x"] + start["width"] <= PHONE["width"]
