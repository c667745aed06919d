"""Issue 16 in Chromium: a spectator on a 390×844 phone finds a player by name and by pinyin initials and
follows the result to the entry's page; a public group page shows a level change without a reload after a
hand is recorded while the page is open."""
import pathlib

import pytest

from tests.tournament.test_clock_fixtures import play
from tests.tournament.test_draws_support import make_event
from tournament.competition import draws, stages
from tournament.models import Match, Pair, Player, Stage

SHOTS = pathlib.Path("/tmp/findme-shots")


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def named_group_event():
    """A published one-group round robin of four named pairs, drawn (round 1 scheduled)."""
    event = make_event(0, 1, fmt="round_robin")
    unit = event.units.get()
    for name, a, b in [("一队", "张三", "李四"), ("二队", "王五", "赵六"), ("三队", "刘备", "关羽"),
                       ("十队", "吕布", "貂蝉")]:
        p1 = Player.objects.create(event=event, unit=unit, name=a, gender="M")
        p2 = Player.objects.create(event=event, unit=unit, name=b, gender="F")
        Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=name)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="手机")
    return event


@pytest.mark.browser
def test_a_spectator_finds_a_player_by_name_and_by_initials(transactional_db, live_server, page):
    SHOTS.mkdir(exist_ok=True)
    event = named_group_event()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.slug}/")
    page.screenshot(path=str(SHOTS / "event-390.png"), full_page=True)
    page.fill(".find-box input[name=q]", "吕布")
    page.click(".find-box button")
    page.wait_for_selector("#find-results")
    assert page.locator("#find-results li").count() == 1
    assert "十队" in page.inner_text("#find-results")
    page.screenshot(path=str(SHOTS / "find-name-390.png"), full_page=True)
    page.click("#find-results a")
    page.wait_for_selector("#entry-name")
    assert page.inner_text("#entry-name") == "十队"
    body = page.inner_text("main")
    assert "吕布" in body and "貂蝉" in body and "桌号" in body and "对手" in body
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "entry-390.png"), full_page=True)

    page.fill(".find-box input[name=q]", "zs")                    # 张三 by his initials
    page.click(".find-box button")
    page.wait_for_selector("#find-results")
    assert "一队" in page.inner_text("#find-results") and "张三" in page.inner_text("#find-results")
    page.screenshot(path=str(SHOTS / "find-initials-390.png"), full_page=True)
    page.click("#find-results a")
    page.wait_for_selector("#entry-name")
    assert page.inner_text("#entry-name") == "一队"
    assert "/entry/" in page.url                                  # a linkable address


@pytest.mark.browser
def test_the_group_page_shows_a_new_level_without_a_reload(transactional_db, live_server, page, make_user):
    SHOTS.mkdir(exist_ok=True)
    event = named_group_event()
    chief = make_user("chief_referee")
    match = Match.objects.filter(round__stage__event=event, round__number=1).order_by("table").first()
    play(match, chief, defender_points=40)                        # NS go up
    before = Match.objects.get(pk=match.pk).ns_level
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.slug}/groups/")
    badge = page.locator(f'[data-live-match="{match.pk}"] [data-lvl="ns"]')
    assert badge.inner_text() == before
    page.evaluate("window.__sameDocument = true")
    page.screenshot(path=str(SHOTS / "groups-before-390.png"), full_page=True)

    play(match, chief, defender_points=20)                        # NS up three more
    after = Match.objects.get(pk=match.pk).ns_level
    assert after != before
    page.wait_for_function(
        f"""document.querySelector('[data-live-match="{match.pk}"] [data-lvl="ns"]').textContent === '{after}'""",
        timeout=30000)
    assert page.evaluate("window.__sameDocument === true")        # updated in place, not reloaded
    hands = page.locator(f'[data-live-match="{match.pk}"] [data-hands]').inner_text()
    assert "2" in hands
    page.screenshot(path=str(SHOTS / "groups-after-390.png"), full_page=True)


@pytest.mark.browser
def test_the_hall_display_shows_the_event_qr_code(transactional_db, live_server, page, tmp_path):
    import zxingcpp
    from PIL import Image

    from tests.tournament.test_clock_fixtures import make_round

    SHOTS.mkdir(exist_ok=True)
    rnd = make_round(tables=4)
    event = rnd.stage.event
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/events/{event.slug}/rounds/{rnd.pk}/display/")
    page.wait_for_selector("[data-clock-tables] li")
    page.screenshot(path=str(SHOTS / "hall-qr-1920.png"))
    page.locator(".hall-qr svg").screenshot(path=str(tmp_path / "qr.png"))
    decoded = [r.text for r in zxingcpp.read_barcodes(Image.open(tmp_path / "qr.png"))]
    assert decoded == [f"{live_server.url}/events/{event.slug}/"]


@pytest.mark.browser
def test_the_schedule_follows_a_table_that_starts_and_ends(transactional_db, live_server, page, make_user):
    """A table whose first hand is recorded starts showing its levels; one that ends shows its winner —
    both without a reload (the live parts are fetched again when a table's state changes)."""
    SHOTS.mkdir(exist_ok=True)
    event = named_group_event()
    chief = make_user("chief_referee")
    match = Match.objects.filter(round__stage__event=event, round__number=1).order_by("table").first()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.slug}/schedule/")
    row = f'[data-live-match="{match.pk}"]'
    assert page.get_attribute(row, "data-status") == "scheduled"
    page.evaluate("window.__sameDocument = true")
    play(match, chief, defender_points=20)                        # the first hand: the table is playing
    page.wait_for_selector(f'{row}[data-status="playing"]', timeout=30000)
    level = Match.objects.get(pk=match.pk).ns_level
    assert page.inner_text(f'{row} [data-lvl="ns"]') == level
    while Match.objects.get(pk=match.pk).status == Match.Status.PLAYING:
        play(match, chief, defender_points=0)                     # NS run to the top and win
    page.wait_for_selector(f'{row}[data-status="finished"] .side.ns.won', timeout=30000)
    assert page.evaluate("window.__sameDocument === true")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "schedule-390.png"), full_page=True)
