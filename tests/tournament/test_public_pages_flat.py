"""Public pages in a fixed number of SQL queries whatever the event's size, and the long lists (schedule,
penalty log) one page at a time (issue 15, item 2: reads that stay flat)."""
import datetime as dt
import random
import re

import pytest

from rulings import appeals as appeals_
from rulings import presenters
from rulings import services as rulings
from scoring.profile_store import latest_profile
from tournament.competition import group_standings
from tournament.competition import views as competition_views
from tournament.engines.pairings import round_robin
from tournament.models import Event, Group, GroupEntry, Match, Pair, Player, Round, Stage, Unit

pytestmark = pytest.mark.django_db
PAGES = ["", "schedule/", "groups/", "standings/", "bracket/", "penalties/"]
_serial = iter(range(1, 1000))


def build_event(make_user, groups, live_tables, group_size=4):
    """A published event: ``groups`` round-robin groups of ``group_size`` pairs, every group match played,
    then a second stage's round of ``live_tables`` tables in play with two rulings each (one appealed)."""
    rng = random.Random(groups)
    profile = latest_profile("shenzhen-community")
    ladder = profile.data["ladder"]["levels"]
    n = next(_serial)
    event = Event.objects.create(slug=f"flat-{n}", name=f"赛事{n}", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=profile, published=True)
    size = groups * group_size + 2 * live_tables
    units = Unit.objects.bulk_create([Unit(event=event, name=f"单位{i}") for i in range(max(4, size // 4))])
    players = Player.objects.bulk_create([Player(event=event, unit=units[i // 2 % len(units)], name=f"选手{i}",
                                                 gender="M") for i in range(2 * size)])
    pairs = Pair.objects.bulk_create([Pair(event=event, unit=units[i % len(units)], player1=players[2 * i],
                                           player2=players[2 * i + 1], name=f"队{i}") for i in range(size)])
    stage = Stage.objects.create(event=event, order=1, kind=Stage.Kind.ROUND_ROBIN, name="小组赛")
    made = Group.objects.bulk_create([Group(stage=stage, name=f"G{g}", order=g + 1) for g in range(groups)])
    GroupEntry.objects.bulk_create([GroupEntry(group=made[g], pair=pairs[g * group_size + k], position=k + 1)
                                    for g in range(groups) for k in range(group_size)])
    rounds = Round.objects.bulk_create([Round(stage=stage, number=r + 1) for r in range(group_size - 1)])
    matches = []
    for g, group in enumerate(made):
        members = [p.pk for p in pairs[g * group_size:(g + 1) * group_size]]
        for r, games in enumerate(round_robin(members)):
            for t, (a, b) in enumerate(games):
                winner = a if rng.random() < 0.5 else b
                matches.append(Match(round=rounds[r], group=group, table=g * group_size + t + 1, ns_id=a, ew_id=b,
                                     profile=profile, status=Match.Status.FINISHED, winner_id=winner,
                                     ns_level=ladder[-1] if winner == a else ladder[3],
                                     ew_level=ladder[-1] if winner == b else ladder[3]))
    Match.objects.bulk_create(matches)
    # the rows were written in bulk, not through the result service: its kept standings, as it leaves them
    group_standings.keep_groups(Event.objects.select_related("profile").get(pk=event.pk), [g.pk for g in made])
    later = Stage.objects.create(event=event, order=2, kind=Stage.Kind.ROUND_ROBIN, name="排位赛")
    live_round = Round.objects.create(stage=later, number=1)
    referee = make_user("table_referee")
    rest = pairs[groups * group_size:]
    for t in range(live_tables):
        match = Match.objects.create(round=live_round, table=t + 1, ns=rest[2 * t], ew=rest[2 * t + 1], profile=profile)
        match.referees.add(referee)
        first = rulings.record_ruling(match, referee, "delay", "NS")
        rulings.record_ruling(match, referee, "out_of_turn", "EW")
        appeals_.file_appeal(first, referee, "NS", "不服")
    return event


# The most queries each public page may take, at any size (anonymous visitor). The group tables come a page of
# groups at a time (one query lists the groups).
# penalties: 2 more (the first closes, the last hands) for every appealed table at once: shenzhen's appeal
# deadline counts from the table's end of play (000 第十九条（二）)
MAX_QUERIES = {"": 3, "schedule/": 7, "groups/": 10, "standings/": 18, "bracket/": 5, "penalties/": 13}


def test_public_pages_take_the_same_queries_for_a_small_and_a_four_times_larger_event(
        client, make_user, django_assert_max_num_queries):
    small, large = build_event(make_user, 2, 3), build_event(make_user, 8, 12)
    for page in PAGES:
        counts = []
        for event in (small, large):
            with django_assert_max_num_queries(MAX_QUERIES[page]) as seen:
                response = client.get(f"/events/{event.slug}/{page}")
            assert response.status_code == 200, (page, response.status_code)
            counts.append(len(seen.captured_queries))
        assert counts[0] == counts[1], (page, counts)


def listed_tables(html):
    return re.findall(r'<span class="table-no">[^<]*?(\d+)', html)


def test_the_schedule_comes_a_page_at_a_time_with_a_link_to_each_rounds_page(client, make_user, monkeypatch):
    monkeypatch.setattr(competition_views, "SCHEDULE_PAGE_SIZE", 5)
    event = build_event(make_user, 2, 3)   # 12 group matches in rounds 1-3 (4 each), then 3 live tables
    everything = list(Match.objects.filter(round__stage__event=event)
                      .order_by("round__stage__order", "round__number", "table").values_list("round_id", "table"))
    seen = []
    for number in (1, 2, 3):
        html = client.get(f"/events/{event.slug}/schedule/?page={number}").content.decode()
        sections = re.findall(r'<section class="round" id="round-(\d+)">(.*?)</section>', html, re.S)
        seen += [(int(rid), int(t)) for rid, body in sections for t in listed_tables(body)]
        assert f"第 {number} 页 / 共 3 页" in html
    assert seen == everything  # every table once, in play order, across the pages
    html = client.get(f"/events/{event.slug}/schedule/?page=9").content.decode()  # past the end: the last page
    assert len(listed_tables(html)) == 15 - 10 and "第 3 页 / 共 3 页" in html
    rounds = list(Round.objects.filter(stage__event=event).order_by("stage__order", "number"))
    jumps = re.findall(r'href="\?page=(\d+)#round-(\d+)"', html)
    assert [(int(p), int(r)) for p, r in jumps] == [(1, rounds[0].pk), (1, rounds[1].pk), (2, rounds[2].pk),
                                                    (3, rounds[3].pk)]


def test_the_group_tables_come_a_page_of_groups_at_a_time_with_a_link_to_each_group(client, make_user, monkeypatch):
    monkeypatch.setattr(competition_views, "GROUPS_PAGE_ENTRIES", 8)
    event = build_event(make_user, 5, 1)   # 5 groups of 4: pages of 2, 2 and 1 groups
    groups = list(Group.objects.filter(stage__event=event).order_by("order").values_list("pk", "name"))
    seen = []
    for number in (1, 2, 3):
        html = client.get(f"/events/{event.slug}/groups/?page={number}").content.decode()
        seen += [int(pk) for pk in re.findall(r'<section class="group card" id="group-(\d+)">', html)]
        assert f"第 {number} 页 / 共 3 页" in html
        assert html.count('<table class="grid crosstable">') == (2 if number < 3 else 1)
    assert seen == [pk for pk, _name in groups]  # every group once, in order, across the pages
    jumps = re.findall(r'href="\?page=(\d+)#group-(\d+)"', html)
    assert [(int(p), int(g)) for p, g in jumps] == [(1 + i // 2, pk) for i, (pk, _name) in enumerate(groups)]


def test_the_penalty_log_comes_a_page_at_a_time_with_each_rulings_state(client, make_user, monkeypatch):
    monkeypatch.setattr(presenters, "LOG_PAGE_SIZE", 4)
    event = build_event(make_user, 1, 3)   # 3 tables x 2 rulings: pages of 4 and 2
    whole = presenters.event_log(event)["rulings"]
    shown = []
    for number in (1, 2):
        page, rows = presenters.event_log_page(event, number)
        assert page.paginator.num_pages == 2
        shown += rows
        html = client.get(f"/events/{event.slug}/penalties/?page={number}").content.decode()
        assert html.count('<tr class="state-') == len(rows)
    assert [(r["id"], r["state"], r["explanation"]) for r in shown] == [
        (r["id"], r["state"], r["explanation"]) for r in whole]  # the same rulings and states as the whole log
    assert [r["table"] for r in shown] == [1, 1, 2, 2, 3, 3]


@pytest.mark.browser
def test_the_pages_of_the_schedule_the_log_and_the_groups_fit_a_phone(transactional_db, live_server, page, make_user,
                                                           monkeypatch, settings):
    from pathlib import Path

    monkeypatch.setattr(competition_views, "SCHEDULE_PAGE_SIZE", 5)
    monkeypatch.setattr(presenters, "LOG_PAGE_SIZE", 4)
    event = build_event(make_user, 2, 3)
    screens = Path(settings.VAR_DIR) / "screens"
    screens.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.slug}/schedule/")
    page.locator(".round-picker a").last.click()  # the last round starts on the last page
    page.wait_for_load_state()
    assert "page=3" in page.url and page.locator(".pager").inner_text().count("3") >= 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screens / "schedule-pages-phone.png"), full_page=True)
    page.locator(".pager a").first.click()  # back a page
    page.wait_for_load_state()
    assert "page=2" in page.url
    page.goto(f"{live_server.url}/events/{event.slug}/penalties/?page=2")
    assert page.locator("table.penalty-log tbody tr").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screens / "penalty-log-pages-phone.png"), full_page=True)
    monkeypatch.setattr(competition_views, "GROUPS_PAGE_ENTRIES", 4)   # the 2 groups of 4: a page each
    page.goto(f"{live_server.url}/events/{event.slug}/groups/")
    page.locator(".round-picker a").last.click()  # the last group is on the last page
    page.wait_for_load_state()
    assert "page=2" in page.url and page.locator("section.group").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(screens / "group-pages-phone.png"), full_page=True)
