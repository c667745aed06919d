"""Issue 43 items 1 and 6 on the hall display (headless Chromium, a 390-px phone and a 1920×1080 screen): a
round with a bye keeps answering once hands are recorded, shows its 7 tables and no tile "第桌 … 已结束，尚无
结果" for the bye, which it names once, "轮空：<pair>"."""
import pathlib
from contextlib import nullcontext

import pytest

from tests.conftest import login
from tests.desk.test_bye_rounds import first_round, next_hand
from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.clocks import services as clock_services
from tournament.competition import draws, stages
from tournament.models import Match, Stage

SHOTS = pathlib.Path("/tmp/desk-shots")


@pytest.mark.browser
def test_the_hall_names_the_bye_and_shows_no_tile_for_it(transactional_db, live_server, page, make_user):
    SHOTS.mkdir(exist_ok=True)
    event = make_event(15, 5, profile="union-games")
    stages.create_stages_from_format(event)
    draws.draw_groups(event.stages.get(kind=Stage.Kind.ROUND_ROBIN), seed="联赛2026", n_groups=4)
    rnd = first_round(event)
    chief = make_user(roles.CHIEF_REFEREE)
    clock_services.start_clock(rnd, chief)
    bye = Match.objects.select_related("ns").get(round=rnd, status=Match.Status.BYE)
    first = Match.objects.filter(round=rnd, table__isnull=False).order_by("table").first()
    url = f"{live_server.url}/events/{event.slug}/rounds/{rnd.pk}/display/"
    for width, height in ((390, 844), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        page.wait_for_selector("[data-clock-byes]:not([hidden])")
        assert page.inner_text("[data-clock-byes]") == f"轮空：{bye.ns}"
        assert page.locator("[data-clock-tables] li").count() == 7
        assert "第桌" not in page.inner_text("[data-clock-tables]")
        page.screenshot(path=str(SHOTS / f"hall-bye-{width}.png"), full_page=width < 1000)
    next_hand(first, chief, lambda execute: nullcontext())   # committed for real: the display is told
    with page.expect_response(lambda r: f"/api/rounds/{rnd.pk}/clock/" in r.url and r.status == 200):
        page.reload()
    page.wait_for_selector(f'[data-clock-tables] li[data-match-id="{first.pk}"] .levels:not(:empty)')
    assert not page.is_visible("[data-clock-offline]")



@pytest.mark.browser
def test_the_desk_lists_the_tables_and_names_the_bye(transactional_db, live_server, page, make_user):
    SHOTS.mkdir(exist_ok=True)
    event = make_event(15, 5, profile="union-games")
    stages.create_stages_from_format(event)
    draws.draw_groups(event.stages.get(kind=Stage.Kind.ROUND_ROBIN), seed="联赛2026", n_groups=4)
    rnd = first_round(event)
    chief = make_user(roles.CHIEF_REFEREE)
    clock_services.start_clock(rnd, chief)
    bye = Match.objects.select_related("ns").get(round=rnd, status=Match.Status.BYE)
    next_hand(Match.objects.get(round=rnd, table=1), chief, lambda execute: nullcontext())
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/manage/{event.slug}/rounds/{rnd.pk}/desk/")
    page.wait_for_selector("#desk-byes:not([hidden])")
    assert page.inner_text("#desk-byes") == f"轮空：{bye.ns}"
    assert page.locator("#desk-tables tbody tr").count() == 7
    page.screenshot(path=str(SHOTS / "desk-bye-390.png"), full_page=True)
