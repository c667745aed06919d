"""Find me (issue 16): entries found by player, pair, team or unit name, in characters, full pinyin or pinyin
initials; the entry's page (matches with table, seats, opponents, levels; group standing; rulings); the
live JSON the public pages poll, which reads no table on a warm cache."""
import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.urls import reverse

from common.names import unit_and_team
from demo.event import seed_demo
from rulings import services as rulings_services
from tests.tournament.test_clock_fixtures import make_round, play, tables_of
from tests.tournament.test_draws_support import make_event
from tournament.competition import draws, search, stages
from tournament.competition.stages import describe_key
from tournament.entries import pairs as entry_pairs
from tournament.entries import services as entries
from tournament.models import Match, Pair, Player, Stage, Team


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def event(db):
    """Four pairs with real names: 张三/李四 (一队), 王五/赵六 (二队), 吕布/貂蝉 (十队), 第2对 and 第10对."""
    event = make_event(0, 1)
    unit = event.units.get()
    rows = [("一队", "张三", "李四"), ("二队", "王五", "赵六"), ("十队", "吕布", "貂蝉"), ("三队", "刘备", "关羽")]
    for name, a, b in rows:
        p1 = Player.objects.create(event=event, unit=unit, name=a, gender="M")
        p2 = Player.objects.create(event=event, unit=unit, name=b, gender="F")
        Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=name)
    return event


def names(found):
    return [e["name"] for e in found]


def test_keys_are_the_name_its_pinyin_and_its_initials():
    assert search.keys_for("张三") == ["张三", "zhangsan", "zs"]
    assert search.keys_for("吕布") == ["吕布", "lvbu", "lb"]          # ü typed as v, as on a phone keyboard
    assert search.keys_for("Zhang San") == ["zhangsan"]


def test_found_by_characters_pinyin_and_initials(event):
    assert names(search.find_entries(event.pk, "张三")) == ["一队"]
    assert names(search.find_entries(event.pk, "zhangsan")) == ["一队"]
    assert names(search.find_entries(event.pk, "ZS")) == ["一队"]
    assert names(search.find_entries(event.pk, "zhang san")) == ["一队"]
    assert names(search.find_entries(event.pk, "dc")) == ["十队"]        # 貂蝉, the second player
    found = search.find_entries(event.pk, "zs")[0]
    assert (found["matched"], found["matched_name"]) == ("player1", "张三")
    assert search.find_entries(event.pk, "nobody") == [] and search.find_entries(event.pk, "  ") == []


def test_a_unit_name_finds_all_its_entries_in_natural_order(event):
    assert names(search.find_entries(event.pk, "单位1")) == ["一队", "二队", "三队", "十队"]
    assert names(search.find_entries(event.pk, "dw")) == ["一队", "二队", "三队", "十队"]


def test_exact_matches_come_before_partial_ones(event):
    unit = event.units.get()
    p1 = Player.objects.create(event=event, unit=unit, name="张三丰", gender="M")
    p2 = Player.objects.create(event=event, unit=unit, name="张翠山", gender="M")
    Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name="武当")
    assert names(search.find_entries(event.pk, "张三")) == ["一队", "武当"]


def test_a_warm_search_reads_no_table_and_a_rename_drops_the_index(event, django_assert_num_queries,
                                                                      django_capture_on_commit_callbacks):
    search.find_entries(event.pk, "zs")
    with django_assert_num_queries(0):
        assert names(search.find_entries(event.pk, "ww")) == ["二队"]
    player = Player.objects.get(event=event, name="王五")
    with django_capture_on_commit_callbacks(execute=True):
        player.name = "孙七"
        player.save()
    assert search.find_entries(event.pk, "wangwu") == []
    assert names(search.find_entries(event.pk, "sq")) == ["二队"]


def test_an_entry_added_through_the_service_is_found_at_once(event, django_capture_on_commit_callbacks):
    search.find_entries(event.pk, "x")      # warm the index
    with django_capture_on_commit_callbacks(execute=True):
        entry_pairs.add_pair(event, entries.PairData(unit="单位1", player1=entries.PlayerData("欧阳锋", "M"),
                                                 player2=entries.PlayerData("黄药师", "M"), name="四队"))
    assert names(search.find_entries(event.pk, "oyf")) == ["四队"]


def test_the_find_page_lists_and_links_the_entries(client, event):
    html = client.get(reverse("competition_find", args=[event.slug]), {"q": "zs"}).content.decode()
    pair = Pair.objects.get(name="一队")
    assert reverse("competition_entry", args=[event.slug, pair.pk]) in html and "张三、李四" in html
    html = client.get(reverse("competition_find", args=[event.slug]), {"q": "qqq"}).content.decode()
    assert 'id="find-none"' in html


def test_a_team_named_as_its_unit_shows_the_unit_once(client, event):
    """Issue #43 minor 14: a unit's registration names its team after the unit; find me and the entry's page
    said "单位1 · 单位1"."""
    pair = Pair.objects.get(event=event, name="一队")
    pair.team = Team.objects.create(event=event, unit=pair.unit, name=pair.unit.name)
    pair.save()
    other = Pair.objects.get(event=event, name="二队")
    other.team = Team.objects.create(event=event, unit=other.unit, name="甲队")
    other.save()
    html = client.get(reverse("competition_find", args=[event.slug]), {"q": "单位1"}).content.decode()
    assert "单位1 · 单位1" not in html and '<span class="why">单位1' in html and "单位1 · 甲队" in html
    html = client.get(reverse("competition_entry", args=[event.slug, pair.pk])).content.decode()
    assert "单位1 · 单位1" not in html and "张三、李四 · 单位1</p>" in html
    html = client.get(reverse("competition_entry", args=[event.slug, other.pk])).content.decode()
    assert "王五、赵六 · 单位1 · 甲队</p>" in html


def test_unit_and_team_writes_the_unit_once():
    assert unit_and_team("市教育局", "市教育局") == "市教育局"
    assert unit_and_team("市教育局", " 市教育局 ") == "市教育局"
    assert unit_and_team("市教育局", "") == unit_and_team("市教育局", None) == "市教育局"
    assert unit_and_team("市教育局", "一队") == "市教育局 · 一队"


def test_the_readmes_find_me_examples_find_entries_of_the_demo(client, db, settings):
    """Issue 46 item 10: README's example (once ?q=zs) found nothing among the demo's names."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    line = next(row for row in readme.splitlines() if "/events/demo/find/?q=" in row)
    queries = re.findall(r"\?q=(\w+)", line)
    assert queries
    event = seed_demo()[0]
    for query in queries:
        assert search.find_entries(event.pk, query), query
        html = client.get(f"/events/{event.slug}/find/", {"q": query}).content.decode()
        assert 'id="find-none"' not in html and f"/events/{event.slug}/entry/" in html, query


def test_a_warm_find_page_reads_the_event_only(client, event, django_assert_num_queries):
    url = reverse("competition_find", args=[event.slug])
    client.get(url, {"q": "zs"})
    with django_assert_num_queries(2):           # the event, and the kinds of its stages for the navigation
        html = client.get(url, {"q": "lb"}).content.decode()
    assert "十队" in html


def test_the_find_page_of_an_unpublished_event_is_hidden(client, db):
    event = make_event(2, 1, published=False)
    assert client.get(reverse("competition_find", args=[event.slug]), {"q": "a"}).status_code == 404


def test_the_entry_page_shows_table_seats_opponents_levels_standing_and_rulings(client, db, make_user):
    event = make_event(4, 2, fmt="round_robin")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="找我")
    match = Match.objects.filter(round__stage=stage, round__number=1).select_related("ns", "ew").first()
    chief = make_user("chief_referee")
    match.status = Match.Status.PLAYING
    match.save()
    play(match, chief, defender_points=20)                   # NS up three levels
    rulings_services.record_ruling(match, chief, "late", "EW", minutes=5)
    ns = match.ns
    html = client.get(reverse("competition_entry", args=[event.slug, ns.pk])).content.decode()
    assert f"{match.round}" in html and f"桌 {match.table}" in html.replace("桌号", "桌")
    assert f"北 {ns.player1.name}" in html and f"南 {ns.player2.name}" in html      # NS: player 1 North
    assert match.ew.name in html                                                      # the opponents
    assert 'id="next-match"' in html and ">5</b>" in html                             # up from 2 to 5
    assert 'id="group-standing"' in html and "penalty-log" in html                    # its standing, the ruling
    assert "data-live" in html and f"rounds={match.round_id}" in html
    assert client.get(reverse("competition_entry", args=[event.slug, 999999])).status_code == 404


def test_an_entry_of_another_event_is_not_found(client, event):
    other = make_event(2, 1)
    pair = other.pairs.first()
    assert client.get(reverse("competition_entry", args=[event.slug, pair.pk])).status_code == 404


# --- the live JSON ------------------------------------------------------------------------------

@pytest.fixture
def live_round(db, make_user):
    chief = make_user("chief_referee")
    rnd = make_round(tables=2)
    return rnd, chief


def test_the_live_json_gives_levels_hands_and_states(client, live_round):
    rnd, chief = live_round
    first, _second = tables_of(rnd)
    play(first, chief, defender_points=20)
    url = reverse("competition_live", args=[rnd.stage.event.slug])
    data = client.get(url, {"rounds": str(rnd.pk)}).json()
    row = data["tables"][str(first.pk)]
    assert (row["ns_level"], row["ew_level"], row["recorded"], row["status"]) == ("5", "2", 1, "playing")
    assert data["published"] is True and len(data["tables"]) == 2


def test_a_warm_live_poll_reads_no_table_and_a_hand_refreshes_it(client, live_round, django_assert_num_queries,
                                                                 django_capture_on_commit_callbacks):
    rnd, chief = live_round
    first, _second = tables_of(rnd)
    url = reverse("competition_live", args=[rnd.stage.event.slug])
    client.get(url, {"rounds": str(rnd.pk)})                      # the cold poll builds the cache
    with django_assert_num_queries(0):
        data = client.get(url, {"rounds": str(rnd.pk)}).json()
    assert data["tables"][str(first.pk)]["recorded"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        play(first, chief, defender_points=20)
    data = client.get(url, {"rounds": str(rnd.pk)}).json()
    assert data["tables"][str(first.pk)]["ns_level"] == "5"
    with django_assert_num_queries(0):
        client.get(url, {"rounds": str(rnd.pk)})


def test_a_poll_while_nothing_changed_is_a_304_and_a_hand_gives_a_new_etag(client, live_round,
                                                                          django_capture_on_commit_callbacks):
    """Issue 31 item 2: a hall of phones polling live.json every 10 s downloads nothing while nothing changed."""
    rnd, chief = live_round
    first, _second = tables_of(rnd)
    url = reverse("competition_live", args=[rnd.stage.event.slug])
    answer = client.get(url, {"rounds": str(rnd.pk)})
    tag = answer["ETag"]
    assert answer.status_code == 200 and answer["Cache-Control"] == "public, max-age=1"  # a visitor: public (issue 44)
    again = client.get(url, {"rounds": str(rnd.pk)}, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b""
    with django_capture_on_commit_callbacks(execute=True):
        play(first, chief, defender_points=20)
    changed = client.get(url, {"rounds": str(rnd.pk)}, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
    assert changed.json()["tables"][str(first.pk)]["ns_level"] == "5"


def test_a_poll_for_the_tables_a_page_shows_is_a_304_while_another_table_plays(client, live_round,
                                                                               django_capture_on_commit_callbacks):
    """Issue 31 item 2: a phone on a page of a few tables (its entry page, a group) polls those tables only
    (``static/js/live.js`` sends them), so a hand at another table of the round downloads nothing."""
    rnd, chief = live_round
    first, second = tables_of(rnd)
    url = reverse("competition_live", args=[rnd.stage.event.slug])
    mine = {"rounds": str(rnd.pk), "tables": str(second.pk)}
    answer = client.get(url, mine)
    assert list(answer.json()["tables"]) == [str(second.pk)]
    with django_capture_on_commit_callbacks(execute=True):
        play(first, chief, defender_points=20)
    assert client.get(url, mine, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        play(second, chief, defender_points=20)
    changed = client.get(url, mine, HTTP_IF_NONE_MATCH=answer["ETag"])
    assert changed.status_code == 200 and changed.json()["tables"][str(second.pk)]["recorded"] == 1
    # more tables than a poll names, or none that parse: the whole rounds
    whole = {"rounds": str(rnd.pk), "tables": ",".join(str(n) for n in range(1, 102))}
    assert len(client.get(url, whole).json()["tables"]) == 2
    assert len(client.get(url, {"rounds": str(rnd.pk), "tables": "x,-1"}).json()["tables"]) == 2


def test_the_live_json_leaves_out_other_events_and_hides_unpublished_ones(client, db):
    mine, other, hidden = make_round(), make_round(), make_round(published=False)
    url = reverse("competition_live", args=[mine.stage.event.slug])
    data = client.get(url, {"rounds": f"{mine.pk},{other.pk}"}).json()
    assert set(data["tables"]) == {str(m.pk) for m in tables_of(mine)}
    hidden_url = reverse("competition_live", args=[hidden.stage.event.slug])
    assert client.get(hidden_url, {"rounds": str(hidden.pk)}).status_code == 404


def group_event(make_user):
    """A one-group round robin of four pairs, drawn; table 1 of round 1 has its first hand (NS up to 5)."""
    event = make_event(4, 2, fmt="round_robin")
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="live")
    match = Match.objects.filter(round__stage=stage, round__number=1).order_by("table").first()
    play(match, make_user("chief_referee"), defender_points=20)
    return event, Match.objects.get(pk=match.pk)


def test_public_pages_carry_the_live_feed_of_the_rounds_in_play(client, db, make_user):
    event, match = group_event(make_user)
    for name in ("competition_schedule", "competition_groups"):
        html = client.get(reverse(name, args=[event.slug])).content.decode()
        assert f"live.json?rounds={match.round_id}" in html, name
        assert f'data-live-match="{match.pk}" data-status="playing"' in html, name
    html = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    assert '<b class="lvl" data-lvl="ns">5</b>' in html          # the group's current round with its levels


def test_a_finished_round_is_not_polled(client, db):
    rnd = make_round(tables=1)
    Match.objects.filter(round=rnd).update(status=Match.Status.FINISHED)
    html = client.get(reverse("competition_schedule", args=[rnd.stage.event.slug])).content.decode()
    assert "live.json" not in html


def test_the_bracket_page_and_an_entry_s_knockout_path(client, db):
    event = make_event(8, 4, fmt="elimination")
    (ko,) = stages.create_stages_from_format(event)
    draws.draw_bracket(ko, seed="路线")
    first = Match.objects.filter(round__stage=ko, round__number=1).select_related("ns", "ew").order_by("table").first()
    html = client.get(reverse("competition_bracket", args=[event.slug])).content.decode()
    assert f'data-live-match="{first.pk}" data-status="scheduled"' in html
    assert f"live.json?rounds={first.round_id}" in html
    html = client.get(reverse("competition_entry", args=[event.slug, first.ns_id])).content.decode()
    assert describe_key(first.bracket_key) in html and first.ew.name in html and first.bracket_key not in html
    code = f"W:{first.bracket_key}"
    following = Match.objects.get(Q(ns_source=code) | Q(ew_source=code), round__stage=ko)
    assert f"若获胜：{following.round} · {describe_key(following.bracket_key)}" in html
