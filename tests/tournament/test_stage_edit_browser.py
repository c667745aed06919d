"""Issue 27 item 1 in Chromium at 390×844: the organiser creates the stages from the format choosing a
third-place match, deletes a leftover stage, voids a knock-out's draw with a reason and changes what it plays
off, all on a phone. No page is wider than the screen or shows an English word; screenshots go to
var/…/screenshots/stage-edit-*.png."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login
from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.competition import draws, stages
from tournament.engines import brackets
from tournament.models import Draw, Event, Stage

PHONE = {"width": 390, "height": 844}


def shot(page, name, user):
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"stage-edit-{name}-phone.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: {width}px wide on a {PHONE['width']}px screen"
    data = set(re.findall(r"[A-Za-z]+", user.username)) | {"xlsx", "English"}   # the language menu: its own name
    words = [w for w in re.findall(r"[A-Za-z]{2,}", page.locator("main, body").first.inner_text()) if w not in data]
    assert not words, f"{name} shows English: {words[:10]}"


@pytest.mark.browser
def test_organiser_chooses_a_third_place_match_deletes_a_stage_and_voids_a_draw(transactional_db, live_server,
                                                                                  page, make_user):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION, slug="stage-edit")
    organiser = make_user(roles.ORGANISER)
    page.set_viewport_size(PHONE)
    login(page, live_server, organiser)
    page.goto(live_server.url + reverse("competition_manage_stages", args=[event.slug]))
    choice = page.get_by_label("三四名决赛（八强负者并列第5名）")
    assert page.get_by_label("并列季军（不设三四名决赛）").is_checked()  # union-games: 不决三四名
    choice.check()
    box, text = choice.bounding_box(), page.get_by_text("三四名决赛（八强负者并列第5名）").bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (text["y"] + text["height"] / 2)) < 12 and box["x"] < text["x"]
    shot(page, "from-format", organiser)
    page.get_by_role("button", name="按赛制创建比赛阶段").click()
    page.wait_for_load_state()
    knockout = event.stages.get(kind=Stage.Kind.ELIMINATION)
    assert stages.places_played(knockout) == brackets.THIRD_PLACE_MATCH

    leftover = stages.create_stage(event, Stage.Kind.ELIMINATION, name="附加淘汰赛")
    page.reload()
    page.locator("li.card", has_text="附加淘汰赛").get_by_role("link", name="修改或删除").click()
    page.wait_for_load_state()
    page.get_by_text("删除此阶段").click()
    page.get_by_label("确认删除附加淘汰赛").check()
    shot(page, "delete", organiser)
    page.get_by_role("button", name="删除阶段").click()
    page.wait_for_load_state()
    assert "已删除阶段：附加淘汰赛。" in page.inner_text("body")
    assert not Stage.all_stages.filter(pk=leftover.pk).exists()
    shot(page, "stages", organiser)

    draws.draw_groups(event.stages.get(kind=Stage.Kind.ROUND_ROBIN), seed="g")
    draws.draw_bracket(knockout, seed="k")
    page.goto(live_server.url + reverse("competition_manage_stage", args=[event.slug, knockout.pk]))
    page.get_by_role("link", name="作废抽签、修改或删除阶段").click()
    page.wait_for_load_state()
    assert page.locator("#edit-stage").count() == 0  # drawn: nothing to change until the draw is voided
    page.fill("textarea[name=reason]", "改为决出第5至8名")
    shot(page, "void", organiser)
    page.get_by_role("button", name="作废抽签").click()
    page.wait_for_load_state()
    assert "抽签已作废" in page.inner_text("body")
    assert Draw.objects.filter(stage=knockout, params__reason="改为决出第5至8名").count() == 1
    page.get_by_label("三四名决赛，并决出第5至8名").check()
    shot(page, "edit", organiser)
    page.get_by_role("button", name="保存").click()
    page.wait_for_load_state()
    knockout.refresh_from_db()
    assert stages.places_played(knockout) == brackets.PLACE_QUARTER_FINALISTS
    assert "作废记录：改为决出第5至8名" in page.inner_text("body")  # back on the stage page, its draw history
    shot(page, "history", organiser)
