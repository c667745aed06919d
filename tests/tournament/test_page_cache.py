"""The public pages of an event cached for anonymous visitors (tournament.pagecache, issue 15 item 2): a warm
page costs no query, and the writes that change a page show on the next GET."""
import re

import pytest
from django.test import Client

from rulings import services as rulings
from scoring import services as scoring
from tests.tournament.test_public_pages_flat import build_event
from tournament import pagecache
from tournament.competition import results, rounds
from tournament.models import Match, Pair, Round

pytestmark = pytest.mark.django_db
PAGES = ["", "schedule/", "groups/", "standings/", "bracket/", "penalties/", "swiss/", "units/", "schedule/?page=1"]


@pytest.fixture(autouse=True)
def _page_cache_on(settings):
    settings.PUBLIC_PAGE_CACHE = True


def test_a_warm_page_is_served_from_the_cache_without_a_query(client, make_user, django_assert_num_queries):
    event = build_event(make_user, 2, 3)
    pair = Pair.objects.filter(event=event).first()
    for page in [*PAGES, f"entry/{pair.pk}/"]:
        cold = client.get(f"/events/{event.slug}/{page}")
        assert cold.status_code == 200 and "X-Page-Cache" not in cold, page
        with django_assert_num_queries(0):
            warm = client.get(f"/events/{event.slug}/{page}")
        assert warm.status_code == 200 and warm["X-Page-Cache"] == "hit", page
        assert warm.content == cold.content or _without_tokens(warm) == _without_tokens(cold), page
        assert warm["Content-Security-Policy"] == cold["Content-Security-Policy"]


def _without_tokens(response):
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)


def test_a_query_the_pages_do_not_read_is_never_cached(client, make_user):
    event = build_event(make_user, 1, 1)
    for _ in range(2):
        assert "X-Page-Cache" not in client.get(f"/events/{event.slug}/schedule/?x=1")


def _finish(match, chief):
    results.decide_match(match, chief, winner="NS", kind="decided", reason="双方同意")


def test_a_result_shows_on_the_next_get(client, make_user, django_capture_on_commit_callbacks):
    event = build_event(make_user, 1, 2)
    chief = make_user("chief_referee")
    live = Match.objects.filter(round__stage__event=event, round__stage__order=2).order_by("table").first()
    before = client.get(f"/events/{event.slug}/schedule/").content.decode()
    assert client.get(f"/events/{event.slug}/schedule/")["X-Page-Cache"] == "hit"
    with django_capture_on_commit_callbacks(execute=True):
        _finish(live, chief)
    after = client.get(f"/events/{event.slug}/schedule/")
    assert "X-Page-Cache" not in after
    assert after.content.decode().count('data-status="finished"') == before.count('data-status="finished"') + 1


def test_closing_a_round_shows_on_the_group_tables_and_standings(client, make_user):
    event = build_event(make_user, 1, 1)
    chief = make_user("chief_referee")
    for page in ("groups/", "standings/"):
        client.get(f"/events/{event.slug}/{page}")
        assert "成绩已公布" not in client.get(f"/events/{event.slug}/{page}").content.decode()
    rounds.close_round(Round.objects.get(stage__event=event, stage__order=1, number=1), chief)
    for page in ("groups/", "standings/"):
        assert "成绩已公布" in client.get(f"/events/{event.slug}/{page}").content.decode(), page


def test_a_ruling_shows_in_the_penalty_log_on_the_next_get(client, make_user, django_capture_on_commit_callbacks):
    event = build_event(make_user, 1, 2)
    url = f"/events/{event.slug}/penalties/"
    rows = client.get(url).content.decode().count('<tr class="state-')
    assert client.get(url)["X-Page-Cache"] == "hit"
    match = Match.objects.filter(round__stage__event=event, round__stage__order=2).first()
    with django_capture_on_commit_callbacks(execute=True):
        rulings.record_ruling(match, match.referees.first(), "delay", "EW")
    assert client.get(url).content.decode().count('<tr class="state-') == rows + 1


def test_a_hand_that_only_moves_the_levels_keeps_the_cached_copy(client, make_user):
    event = build_event(make_user, 1, 1)
    match = Match.objects.get(round__stage__event=event, round__stage__order=2)
    referee = match.referees.first()
    scoring.record_hand(match, referee, number=1, trump="H", defender_points=120, declarer="N")
    url = f"/events/{event.slug}/schedule/"
    assert 'data-status="playing"' in client.get(url).content.decode()  # the table began: a new copy
    token, before = pagecache.generation(event.pk), Match.objects.values_list("ns_level", "ew_level").get(pk=match.pk)
    scoring.record_hand(match, referee, number=2, trump="H", defender_points=0)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and (match.ns_level, match.ew_level) != before
    assert pagecache.generation(event.pk) == token
    assert client.get(url)["X-Page-Cache"] == "hit"  # levels of a table in play: live.json, and PAGE_TTL


def test_each_language_has_its_own_copy(make_user):
    event = build_event(make_user, 1, 1)
    chinese, english = Client(), Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies["django_language"] = "en"
    for _ in range(2):
        zh = chinese.get(f"/events/{event.slug}/standings/").content.decode()
        en = english.get(f"/events/{event.slug}/standings/").content.decode()
        assert 'lang="zh-hans"' in zh and "登录" in zh
        assert 'lang="en"' in en and "Log in" in en and "登录" not in en


def test_staff_never_get_the_anonymous_copy(client, make_user):
    event = build_event(make_user, 1, 1)
    url = f"/events/{event.slug}/"
    client.get(url)
    assert client.get(url)["X-Page-Cache"] == "hit"
    organiser = make_user("organiser")
    client.force_login(organiser)
    page = client.get(url)
    assert "X-Page-Cache" not in page
    assert organiser.get_username() in page.content.decode()


def test_a_cached_copy_carries_no_visitors_token_and_its_language_menu_works(make_user):
    """Issue 44: the language menu asks with a GET, so a public page carries no per-visitor token (a copy served
    to another visitor, here or in a cache in front, gives away nothing), and the menu still switches."""
    event = build_event(make_user, 1, 1)
    url = f"/events/{event.slug}/groups/"
    Client().get(url)
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(url)
    assert page["X-Page-Cache"] == "hit" and not page.cookies
    assert "csrfmiddlewaretoken" not in page.content.decode() and 'action="/i18n/setlang/"' in page.content.decode()
    switched = visitor.get("/i18n/setlang/", {"language": "en", "next": url})
    assert switched.status_code == 302 and switched["Location"] == url
    english = visitor.get(url)
    assert "X-Page-Cache" not in english and 'lang="en"' in english.content.decode()


def test_a_page_showing_a_csrf_token_is_never_stored(make_user, monkeypatch):
    event = build_event(make_user, 1, 1)
    url = f"/events/{event.slug}/groups/"
    monkeypatch.setattr(pagecache, "_TOKEN", re.compile(rb"<html"))   # as if the page showed a form's token
    Client().get(url)
    assert "X-Page-Cache" not in Client().get(url)


def test_the_language_switch_goes_back_only_to_this_site(client):
    away = client.get("/i18n/setlang/", {"language": "en", "next": "https://evil.example/"})
    assert away.status_code == 302 and away["Location"] == "/"
    assert client.get("/i18n/setlang/", {"language": "xx", "next": "/"}).cookies.get("django_language") is None


def test_an_unpublished_event_is_not_served_from_the_cache(client, make_user):
    event = build_event(make_user, 1, 1)
    client.get(f"/events/{event.slug}/standings/")
    event.published = False
    event.save()
    assert client.get(f"/events/{event.slug}/standings/").status_code == 404
