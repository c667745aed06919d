"""Issue 32 in Chromium at 390×844: the organiser makes three units' links, two units register through them (the
page checks as they type), the third is too late and refused, one unit changes its entries after submitting,
the organiser sees the change, approves and draws. Screenshots go to var/…/screenshots/registration-*.png."""
import datetime as dt

import pytest
from django.utils import timezone

from infra import auth
from scoring.profile_store import latest_profile
from tests.conftest import login
from tests.tournament.test_swiss_browser import shots_dir
from tournament import roles
from tournament.competition import draws, stages
from tournament.entries import registration as reg
from tournament.entries import registration_links
from tournament.entries.views.register import LINK_NAME
from tournament.models import Event, Match, Pair, Stage

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def event(transactional_db):
    auth.unlock(LINK_NAME)
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug="reg-browser", name="职工运动会", start_date=day, end_date=day,
                                profile=latest_profile("union-games"), format=Event.Format.ELIMINATION)


def shot(page, name):
    page.screenshot(path=str(shots_dir() / f"registration-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


def fill_team(page, prefix, women_first=True):
    for i in range(4):
        female = women_first and i == 0
        for slot in (1, 2):
            page.fill(f"[name=p{i}-player{slot}]", f"{prefix}{'甲乙'[slot - 1]}{i}")
            page.select_option(f"[name=p{i}-gender{slot}]", "F" if female else "M")


def test_three_units_register_one_late_one_changes_the_organiser_approves_and_draws(event, live_server, page, new_context,
                                                                                   make_user):
    page.set_viewport_size(PHONE)
    boss = make_user(roles.ORGANISER)
    login(page, live_server, boss)
    links_url = f"{live_server.url}/manage/{event.slug}/entries/links/"
    page.goto(links_url)
    closes = timezone.localtime(timezone.now() + dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    page.fill("#window-form [name=closes_at]", closes)
    page.click("#window-form button[type=submit]")
    urls = {}
    for n, unit in enumerate(("一厂", "二厂", "三厂")):
        page.fill("#link-form [name=unit]", unit)
        page.fill("#link-form [name=phone]", f"1380000000{n}")
        page.click("#link-form button[type=submit]")
        urls[unit] = page.get_attribute("#new-link-url", "href")
        assert page.locator("#created-link svg").count() == 1        # the QR code to print
        if n == 0:
            shot(page, "organiser-new-link")

    holder = new_context(viewport=PHONE).new_page()
    # 一厂: all men at first, the page says a women's pair is missing as they type
    holder.goto(urls["一厂"])
    fill_team(holder, "一厂", women_first=False)
    holder.wait_for_selector("#unit-problems:not([hidden]) li")
    assert "一厂" not in holder.locator("#unit-problems").inner_text()
    holder.fill("[name=p1-player1]", "一厂甲0")       # the same person in two pairs
    holder.wait_for_selector(".row-problems[data-row='1'] li")
    shot(holder, "unit-checks-as-typed")
    holder.fill("[name=p1-player1]", "一厂甲1")
    fill_team(holder, "一厂")
    holder.wait_for_selector("#unit-problems[hidden]", state="attached")
    holder.click("button[value=submit]")
    holder.wait_for_selector("#reg-status")
    assert holder.locator(".row-problems li").count() == 0
    shot(holder, "unit-submitted")

    # 二厂 submits too
    second = new_context(viewport=PHONE).new_page()
    second.goto(urls["二厂"])
    fill_team(second, "二厂")
    second.click("button[value=submit]")
    assert "二厂甲0" in second.content() and "一厂" not in second.content()

    # 三厂 types, the deadline passes before it submits: refused, nothing saved
    late = new_context(viewport=PHONE).new_page()
    late.goto(urls["三厂"])
    fill_team(late, "三厂")
    registration_links.set_window(event, timezone.now() - dt.timedelta(minutes=1), asks_phone=False)
    late.click("button[value=submit]")
    late.wait_for_selector("#reg-closed")
    assert late.locator("fieldset[disabled]").count() == 4 and late.locator("button[value=submit]").count() == 0
    shot(late, "unit-too-late")
    assert not reg.versions(registration_links.find_link(urls["三厂"].rstrip("/").rsplit("/", 1)[-1]))

    # the organiser approves 一厂; 一厂 (reopened after the deadline) changes a player and submits again
    page.goto(links_url)
    page.locator("li[data-unit='一厂'] button[value=approve]").click()
    assert Pair.objects.filter(unit__name="一厂", status="active").count() == 4
    page.locator("li[data-unit='一厂'] button[value=reopen]").click()
    holder.reload()
    holder.fill("[name=p2-player2]", "一厂新人")
    holder.click("button[value=save]")
    page.goto(links_url)
    assert "已提交后修改" in page.inner_text("li[data-unit='一厂'] .status") or \
        page.inner_text("li[data-unit='一厂'] .status").startswith("Changed")
    assert page.locator("li[data-unit='一厂'] button[value=approve]").count() == 0   # not until submitted again
    holder.click("button[value=submit]")
    page.goto(links_url)
    changes = page.inner_text("li[data-unit='一厂'] .changes")
    assert "一厂新人" in changes and "一厂乙2" in changes
    shot(page, "organiser-review")
    page.locator("li[data-unit='一厂'] button[value=approve]").click()
    page.locator("li[data-unit='二厂'] button[value=approve]").click()
    assert page.locator("li[data-unit='三厂'] button[value=approve]").count() == 0
    shot(page, "organiser-approved")
    page.goto(f"{links_url}missing/")
    assert "三厂" in page.inner_text("main") and "13800000002" in page.inner_text("main")
    shot(page, "organiser-not-submitted")

    # the entries list says where each unit's registration stands
    page.goto(f"{live_server.url}/manage/{event.slug}/entries/")
    assert "已核准" in page.inner_text("section[data-unit='一厂'] .reg-status")
    assert "未开始" in page.inner_text("section[data-unit='三厂'] .reg-status")
    shot(page, "organiser-entries-status")
    # 三厂 lost its card: a new link and card, the old link answers 404
    page.goto(links_url)
    page.locator("li[data-unit='三厂'] button[value=reissue]").click()
    assert page.locator("#reissued").is_visible() and page.locator("#created-link svg").count() == 1
    new_url = page.get_attribute("#new-link-url", "href")
    assert new_url != urls["三厂"]
    shot(page, "organiser-new-card")
    assert late.goto(urls["三厂"]).status == 404

    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": 2})
    draws.draw_bracket(stage, seed="reg")
    drawn = {p for m in Match.objects.filter(round__stage=stage) for p in (m.ns, m.ew) if p}
    assert {p.unit.name for p in drawn} == {"一厂", "二厂"} and len(drawn) == 6
    assert "一厂新人" in {p.player2.name for p in drawn}
