"""A floor referee's own page and the chief's desk section: their tables in the current round with the pairs,
hands, time left, waiting hands and disputes, the newest activity first; only that referee, the chief
referees and the organisers read them (tournament.access.may)."""
import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from infra import clock
from tests.tournament.floor_support import floor_event, floor_referees
from tests.tournament.selfscore_support import ADDRESS, FIRST, make_table
from tournament import access, roles
from tournament.clocks import services as clock_services
from tournament.competition import blocks
from tournament.desk import floor
from tournament.models import Match
from tournament.selfscore import services as selfscore


@pytest.fixture
def covered(db):
    """Round 1 of two: referee 3 (unit 3) covers tables 1-4 but 2 (their unit's), referee 4 tables 5-6 and 2;
    referee 5 one table (7), no floor referee."""
    event, stage, (rnd, later) = floor_event(8, units=8, rounds=2)
    refs = floor_referees(event, 6)
    blocks.assign_blocks(stage, rounds=[rnd], blocks=blocks.split(1, 6, [refs[3], refs[4]]))
    blocks.assign_blocks(stage, rounds=[rnd], blocks=[blocks.Block(refs[5], 7, 7)])
    blocks.assign_blocks(stage, rounds=[later], blocks=[blocks.Block(refs[3], 1, 8)])   # the next round's
    return event, rnd, refs


def _page(event, referee=None):
    url = reverse("floor_tables", args=[event.slug])
    return url + (f"?referee={referee.pk}" if referee is not None else "")


def _tables(html):
    return [int(part.split("桌")[0]) for part in html.split('<strong>第')[1:] if "桌" in part.split("<")[0]]


def test_the_referee_sees_their_tables_of_the_current_round(client, covered):
    event, rnd, refs = covered
    client.force_login(refs[3])
    answer = client.get(_page(event))
    html = answer.content.decode()
    assert answer.status_code == 200 and "我的桌次" in html
    assert _tables(html) == [1, 3] and "第1对 — 第2对" in html       # table 2 went to referee 4; round 2 waits
    assert "已记副数" in html and "待确认" in html and "未决异议" in html and "剩余时间" in html
    assert html.count('data-waiting>0<') == 2
    detail = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert _page(event) in detail                                     # reached from the referee's menu


def test_newest_activity_first_and_the_waiting_hook(client, covered, monkeypatch):
    event, rnd, refs = covered
    now = clock.now()
    ids = dict(Match.objects.filter(round=rnd).values_list("table", "pk"))
    seen = []

    def fake(match_ids):
        seen.append(sorted(match_ids))
        return {mid: floor.Pending(waiting=2, since=now) if mid == ids[6] else
                floor.Pending(disputes=1, since=now - dt.timedelta(minutes=5)) if mid == ids[2] else floor.Pending()
                for mid in match_ids}

    monkeypatch.setattr(floor, "waiting_and_disputes", fake)
    rounds, tables = floor.referee_tables(event, refs[4])
    assert [t.table for t in tables] == [6, 2, 4, 5] and [r.pk for r in rounds] == [rnd.pk]
    assert (tables[0].waiting, tables[1].disputes) == (2, 1)
    client.force_login(refs[4])
    html = client.get(_page(event)).content.decode()
    assert _tables(html) == [6, 2, 4, 5] and "data-waiting>2<" in html and "data-disputes>1<" in html
    assert seen and all(set(call) <= set(ids.values()) for call in seen)


def test_waiting_and_disputes_counts_the_players_open_entries(make_user):
    """A hand one side entered waits for the other side; a disputed one waits for the floor referee: both
    are counted at their table, newest first by the time entered; a table with nothing open reads zero."""
    table = make_table(make_user)
    quiet = make_table(make_user, rnd=table.match.round, table=2, chief=table.chief)
    entry = selfscore.enter_hand(table.match, table.ns, address=ADDRESS, number=1, inputs=dict(FIRST))
    found = floor.waiting_and_disputes([table.match.pk, quiet.match.pk])
    assert found[table.match.pk] == floor.Pending(1, 0, entry.entered_at)
    assert found[quiet.match.pk] == floor.Pending(0, 0, None)
    selfscore.dispute_entry(entry, table.ew, address=ADDRESS, note="点数不对")
    assert floor.waiting_and_disputes([table.match.pk])[table.match.pk] == floor.Pending(0, 1, entry.entered_at)


def test_time_left_once_the_clock_runs(client, covered, make_user):
    event, rnd, refs = covered
    clock_services.start_clock(rnd, make_user(roles.CHIEF_REFEREE))
    client.force_login(refs[3])
    html = client.get(_page(event)).content.decode()
    assert len(re.findall(r"data-time>1:[0-5]\d:[0-5]\d<", html)) == 2, re.findall(r"data-time>[^<]*", html)
    assert floor.clock_text(3909) == "1:05:09" and floor.clock_text(1744.2) == "29:05" and floor.clock_text(-3) == "0:00"


@pytest.mark.parametrize("who, whose, status", [
    ("anonymous", None, 302), ("stranger", None, 403), ("stranger", 3, 403), ("referee0", 3, 403),
    ("referee0", None, 200), ("site_referee", 3, 403), ("chief", 3, 200), ("organiser", 3, 200),
    ("chief", None, 200), ("arbiter", 3, 403)])
def test_only_that_referee_the_chief_and_the_organiser(client, covered, make_user, who, whose, status):
    event, rnd, refs = covered
    users = {"stranger": make_user(), "referee0": refs[0], "site_referee": make_user(roles.TABLE_REFEREE),
             "chief": make_user(roles.CHIEF_REFEREE), "organiser": make_user(roles.ORGANISER),
             "arbiter": make_user(roles.ARBITRATION)}
    if who != "anonymous":
        client.force_login(users[who])
    answer = client.get(_page(event, refs[whose] if whose is not None else None))
    assert answer.status_code == status
    if status == 200 and whose is not None:
        assert "裁判3号 负责的桌" in answer.content.decode() and _tables(answer.content.decode()) == [1, 3]


def test_access_actions():
    assert access.REFEREE_TABLES in access.ACTIONS and access.OWN_TABLES in access.ACTIONS


def test_an_unknown_referee_is_not_found(client, covered, make_user):
    event, rnd, refs = covered
    client.force_login(make_user(roles.CHIEF_REFEREE))
    assert client.get(reverse("floor_tables", args=[event.slug]) + "?referee=99999").status_code == 404
    assert client.get(reverse("floor_tables", args=[event.slug]) + "?referee=²").status_code == 404


def _desk(event, rnd):
    return reverse("desk", args=[event.slug, rnd.pk])


def test_the_desk_lists_each_floor_referee_newest_first(client, covered, make_user, monkeypatch):
    event, rnd, refs = covered
    ids = dict(Match.objects.filter(round=rnd).values_list("table", "pk"))
    monkeypatch.setattr(floor, "waiting_and_disputes", lambda match_ids: {
        mid: floor.Pending(waiting=1, since=clock.now()) if mid == ids[5] else floor.Pending() for mid in match_ids})
    client.force_login(make_user(roles.CHIEF_REFEREE))
    html = client.get(_desk(event, rnd)).content.decode()
    section = html[html.index('id="floor-referees"'):]
    assert "巡场裁判" in section and "裁判5号" not in section          # one table: not a floor referee
    assert section.index("裁判4号") < section.index("裁判3号")          # table 5 waits: the newest
    assert f'data-referee="{refs[4].pk}"' in section and _page(event, refs[4]) in section
    floor_list = floor.desk_floor(rnd)
    assert [(f.name, [t.table for t in f.tables], f.waiting) for f in floor_list] == [
        ("裁判4号", [5, 2, 4, 6], 1), ("裁判3号", [1, 3], 0)]
    client.force_login(make_user(roles.ORGANISER))
    assert "巡场裁判" in client.get(_desk(event, rnd)).content.decode()
    client.force_login(refs[3])
    assert client.get(_desk(event, rnd)).status_code == 403


def test_the_desk_section_reads_a_handful_of_queries_whatever_the_tables(db):
    counts = []
    for tables in (16, 256):
        event, stage, (rnd,) = floor_event(tables, units=16)
        refs = floor_referees(event, tables // 8, prefix=f"f{tables}-")
        blocks.assign_blocks(stage, rounds=[rnd], blocks=blocks.split(1, tables, refs))
        floor.desk_floor(rnd)   # the hall display's cache filled, as the desk's own read leaves it
        with CaptureQueriesContext(connection) as queries:
            listed = floor.desk_floor(rnd)
        assert sum(len(f.tables) for f in listed) == Match.referees.through.objects.filter(match__round=rnd).count()
        counts.append(len(queries))
    assert counts[0] == counts[1] and counts[1] <= 6, counts
