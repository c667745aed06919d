"""Polish that users notice (issue 16, item 6): natural ordering of names with numerals, no "抽签决定" before a
lot has decided anything, links only to the pages the event's format has, one navigation bar with a way
back on every page, and a login link when a session expired mid-entry."""
import pytest
from django.urls import reverse

from tests.conftest import login
from tests.rulings.conftest import make_match  # noqa: F401 (a fixture)
from tests.scoring.test_table_page import fill_hand
from tests.tournament.test_draws_support import finish, make_event
from tournament import roles
from tournament.competition import draws, stages
from tournament.models import Event, Match, Pair, Player, Stage, Unit

NAV_LABELS = ("赛程", "最终名次", "判罚记录")


def nav(html):
    start = html.index('class="tabs event-nav"')
    return html[start:html.index("</nav>", start)]


def test_group_tables_say_nothing_about_a_lot_before_any_match(client, db):
    event = make_event(4, 2, fmt="round_robin")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="未赛")
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert "抽签决定" not in html and "待抽签" not in html and "由抽签决定" not in html
    matches = list(Match.objects.filter(round__stage=stage).order_by("round__number", "table"))
    finish(matches[0])                            # one result: the others still tied, no lot drawn yet
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert "抽签决定" not in html


def test_a_place_tied_on_everything_so_far_says_it_is_provisional(client, db):
    """Two pairs that won their first match alike: nothing explained their order (a new organiser's walk)."""
    event = make_event(4, 2, fmt="round_robin")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="暂列")
    for m in Match.objects.filter(round__stage=stage, round__number=1):
        finish(m, win_level="A", lose_level="5")
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert html.count("积分等各项均相同，名次暂列") == 4    # the two winners alike, the two losers alike
    assert "抽签决定" not in html and "待抽签" not in html


def test_a_lot_is_named_once_the_group_is_complete(client, db):
    event = make_event(3, 3, fmt="round_robin")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="循环")
    beats = {"第01对": "第02对", "第02对": "第03对", "第03对": "第01对"}   # a cycle, same margins: a lot
    for m in Match.objects.filter(round__stage=stage, status="scheduled").select_related("ns", "ew"):
        finish(m, winner=m.ns.pk if beats[m.ns.name] == m.ew.name else m.ew.pk, win_level="A", lose_level="5")
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert "抽签决定" in html


@pytest.mark.parametrize("fmt, groups, bracket", [
    (Event.Format.ELIMINATION, False, True),
    (Event.Format.ROUND_ROBIN, True, False),
    (Event.Format.GROUPS_ELIMINATION, True, True),
])
def test_the_navigation_links_only_to_the_pages_of_the_format(client, db, fmt, groups, bracket):
    event = make_event(8, 2, fmt=fmt)
    for state in ("before the stages", "with the stages"):
        bar = nav(client.get(reverse("competition_schedule", args=[event.slug])).content.decode())
        assert (reverse("competition_groups", args=[event.slug]) in bar) is groups, state
        assert (reverse("competition_bracket", args=[event.slug]) in bar) is bracket, state
        stages.create_stages_from_format(event)
        event = Event.objects.get(pk=event.pk)


def test_every_public_page_and_the_penalty_log_has_the_same_bar_and_the_find_box(client, db):
    event = make_event(8, 2)
    for url in (event.get_absolute_url(), reverse("competition_schedule", args=[event.slug]),
                reverse("competition_standings", args=[event.slug]), reverse("event_penalty_log", args=[event.slug]),
                reverse("competition_find", args=[event.slug])):
        html = client.get(url).content.decode()
        bar = nav(html)
        assert all(label in bar for label in NAV_LABELS), url
        assert event.get_absolute_url() in bar and 'class="find-box"' in html, url


def test_the_printouts_page_has_the_bar_and_a_way_back(client, db, make_user):
    event = make_event(4, 2)
    client.force_login(make_user(roles.ORGANISER))
    html = client.get(reverse("printouts", args=[event.slug])).content.decode()
    assert f'href="{event.get_absolute_url()}"' in html and 'class="tabs organiser-nav"' in html
    assert all(label in nav(html) for label in NAV_LABELS)


def test_entries_are_listed_in_natural_order(client, db, make_user):
    event = make_event(0, 1)
    units = [Unit.objects.create(event=event, name=n) for n in ("十分队", "二分队")]
    for i, name in enumerate(("三队", "十队", "一队", "二队")):
        p1 = Player.objects.create(event=event, unit=units[0], name=f"甲{i}", gender="M")
        p2 = Player.objects.create(event=event, unit=units[0], name=f"乙{i}", gender="M")
        Pair.objects.create(event=event, unit=units[0], player1=p1, player2=p2, name=name)
    p1 = Player.objects.create(event=event, unit=units[1], name="丙", gender="M")
    p2 = Player.objects.create(event=event, unit=units[1], name="丁", gender="M")
    Pair.objects.create(event=event, unit=units[1], player1=p1, player2=p2, name="第10对")
    client.force_login(make_user(roles.ORGANISER))
    html = client.get(reverse("entries_list", args=[event.slug])).content.decode()
    positions = [html.index(f">{name}<") for name in ("一队", "二队", "三队", "十队")]
    assert positions == sorted(positions)
    assert html.index("二分队") < html.index("十分队")                     # units too: 二 < 十
    api = client.get(f"/api/events/{event.slug}/entries/").json()
    assert [e["name"] for e in api] == ["第10对", "一队", "二队", "三队", "十队"]   # 二分队 first


def test_the_api_tells_an_expired_session_where_to_log_in(client, db):
    event = make_event(2, 1)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="s")
    match = Match.objects.filter(round__stage=stage).first()
    answer = client.post(f"/api/matches/{match.pk}/hands/", {"number": 1}, content_type="application/json")
    assert answer.status_code == 401 and answer.json()["login"] == reverse("login")


@pytest.mark.browser
def test_the_table_page_links_to_the_login_when_the_session_expired(transactional_db, live_server, phone,
                                                                      make_user):
    from demo.hands import scratch_match

    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/")
    phone.context.clear_cookies(name="sessionid")             # the session expired while the page was open
    fill_hand(phone, 45, declarer="N")
    phone.wait_for_selector("#form-status.error a.login-link")
    link = phone.locator("#form-status a.login-link")
    assert link.inner_text() == "重新登录"
    assert link.get_attribute("href") == f"/accounts/login/?next=%2Ftables%2F{match.pk}%2F"
    phone.screenshot(path="/tmp/findme-shots/expired-360.png")
    link.click()
    phone.wait_for_selector("input[name=username]")


@pytest.mark.browser
def test_the_console_links_to_the_login_when_the_session_expired(transactional_db, live_server, phone, make_user,
                                                                   make_match):
    match = make_match("two-deck-standard")
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    phone.context.clear_cookies(name="sessionid")             # the session expired while the console was open
    phone.click("button.offence[data-code=late]")
    phone.check("input[name=side][value=EW]")
    phone.fill("input[name=minutes]", "8")
    phone.wait_for_selector("#preview.error a.login-link")       # the preview is the first to be refused
    assert "尚未登录" in phone.inner_text("#preview") and phone.is_disabled("#confirm")
    assert phone.get_attribute("#preview a.login-link", "href") == (
        f"/accounts/login/?next=%2Ftables%2F{match.pk}%2Fconsole%2F")
    phone.screenshot(path="/tmp/findme-shots/console-expired-360.png")
