"""Swiss and unit pages in Chromium (issue 14, item 3) at 390×844 (phone) and 1366×768 (laptop): the
organiser pairs a round from the page, the public reads rounds, standings and unit standings; no page
is wider than the screen and none shows an English word. Screenshots go to var/…/screenshots/."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login
from tests.tournament.test_draws_support import finish, make_event, play_stage
from tournament import roles
from tournament.competition import draws, stages, swiss_rounds
from tournament.models import Event, Match, Stage

SIZES = {"phone": (390, 844), "laptop": (1366, 768)}
ALLOWED_LATIN = {"xlsx", "English"}  # the file type in "下载（.xlsx）"; the language menu names English in English


def shots_dir() -> Path:
    path = Path(settings.VAR_DIR) / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


def english_words(page) -> list[str]:
    text = page.locator("main, body").first.inner_text()
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ALLOWED_LATIN]


def check(page, name, size, seeds=(), user=None):
    width, _height = SIZES[size]
    page.screenshot(path=str(shots_dir() / f"{name}-{size}.png"), full_page=True)
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{name}: {scroll}px wide on a {width}px screen"
    data = set(seeds) | set(re.findall(r"[A-Za-z]+", page.url.split("/events/")[-1].split("/manage/")[-1]))
    if user is not None:
        data |= set(re.findall(r"[A-Za-z]+", user.username))
    words = [w for w in english_words(page) if w not in data]  # seeds, slugs and user names are data
    assert not words, f"{name} ({size}) shows English: {words[:10]}"


@pytest.fixture
def swiss_event(transactional_db):
    event = make_event(12, 4, slug="swiss-browser")
    stage = swiss_rounds.create_swiss_stage(event, rounds=3)
    for number in (1, 2):
        swiss_rounds.pair_next_round(stage, seed=f"seed{number}")
        for m in Match.objects.filter(round__stage=stage, round__number=number, status="scheduled"):
            finish(m, winner=min(m.ns_id, m.ew_id))
    return event, stage


@pytest.fixture
def union_event(transactional_db):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.ELIMINATION, slug="union-browser")
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": 8})
    draws.draw_bracket(stage, seed="u")
    play_stage(stage)
    return event


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
def test_organiser_pairs_round_three_and_the_public_reads_it(swiss_event, live_server, page, make_user, size):
    event, stage = swiss_event
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
    organiser = make_user(roles.ORGANISER)
    login(page, live_server, organiser)
    page.goto(live_server.url + reverse("competition_manage_swiss", args=[event.slug, stage.pk]))
    page.fill("form input[name=seed]", "seed3")
    page.click("text=编排第 3 轮")
    page.wait_for_load_state()
    assert "第 3 轮已编排，种子 seed3。" in page.inner_text("body")
    assert page.locator("table.swiss-tables tbody tr").count() == 6
    check(page, "manage-swiss", size, seeds={"seed"}, user=organiser)
    page.goto(live_server.url + reverse("competition_swiss", args=[event.slug]) + "?round=2")
    assert "第 2 轮后排名" in page.inner_text("body")
    check(page, "public-swiss", size, seeds={"seed"}, user=organiser)
    page.goto(live_server.url + reverse("competition_manage_stages", args=[event.slug]))
    check(page, "manage-stages", size, user=organiser)


@pytest.mark.browser
@pytest.mark.parametrize("size", list(SIZES))
def test_unit_standings_pages(union_event, live_server, page, make_user, size):
    event = union_event
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
    page.goto(live_server.url + reverse("competition_units", args=[event.slug]))
    body = page.inner_text("body")
    assert "团体总分" in body and "计分办法" in body and "暂定" not in body
    check(page, "public-units", size)
    organiser = make_user(roles.ORGANISER)
    login(page, live_server, organiser)
    page.goto(live_server.url + reverse("competition_manage_units", args=[event.slug]))
    page.fill("input[name=points]", "9-x")
    page.click("form.narrow button[type=submit]")
    page.wait_for_load_state()
    assert page.locator('[data-field-error="points"]').inner_text() == "各名次得分须为不小于 0 的整数序列。"
    check(page, "manage-units", size, user=organiser)
