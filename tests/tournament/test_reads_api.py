"""The reads a program needs to find its way (issue 29 item 1): the event's rounds with their ids (the clock,
close and reopen operations take them), the event's matches with filters, one match with its stage, round,
table and planned start; visible as the pages are."""
import datetime as dt

import pytest
from rest_framework.test import APIClient

from tests.conftest import fresh_demo
from tournament.competition import rounds
from tournament.models import ClockEvent, Event, Match, Round, Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(demo_for_module, db):
    return fresh_demo(demo_for_module)


def test_the_rounds_carry_the_ids_the_clock_and_the_close_take(demo):
    answer = APIClient().get(f"/api/events/{demo.slug}/rounds/")
    assert answer.status_code == 200, answer.content
    rows = answer.json()
    stored = Round.objects.filter(stage__event=demo)
    assert sorted(r["id"] for r in rows) == sorted(stored.values_list("pk", flat=True))
    by_id = {r["id"]: r for r in rows}
    for rnd in stored.select_related("stage"):
        row = by_id[rnd.pk]
        assert (row["stage"], row["stage_name"], row["number"]) == (rnd.stage_id, rnd.stage.name, rnd.number)
        assert row["tables"] == rnd.matches.count()
        assert row["status"] == ("closed" if rnd.results_published_at else row["status"])
    assert {r["status"] for r in rows} <= set(rounds.ROUND_STATUSES)
    # the clock operation answers for a listed id
    first = rows[0]["id"]
    assert APIClient().get(f"/api/rounds/{first}/clock/").status_code == 200


def test_the_match_list_filters_by_round_stage_status_and_table(demo):
    client = APIClient()
    matches = Match.objects.filter(round__stage__event=demo)
    one = matches.filter(table__isnull=False).order_by("pk").first()
    every = client.get(f"/api/events/{demo.slug}/matches/").json()
    assert len(every) == matches.count()
    by_round = client.get(f"/api/events/{demo.slug}/matches/", {"round": one.round_id}).json()
    assert {m["id"] for m in by_round} == set(matches.filter(round=one.round).values_list("pk", flat=True))
    by_stage = client.get(f"/api/events/{demo.slug}/matches/", {"stage": one.round.stage_id}).json()
    assert len(by_stage) == matches.filter(round__stage=one.round.stage).count()
    finished = client.get(f"/api/events/{demo.slug}/matches/", {"status": "finished"}).json()
    assert finished and all(m["status"] == "finished" for m in finished)
    assert len(finished) == matches.filter(status="finished").count()
    table = client.get(f"/api/events/{demo.slug}/matches/", {"round": one.round_id, "table": one.table}).json()
    assert [m["id"] for m in table] == [one.pk]


@pytest.mark.parametrize("query, field", [({"status": "won"}, "status"), ({"round": "abc"}, "round"),
                                          ({"table": "-1"}, "table"), ({"table": "²"}, "table"),
                                          ({"round": "1" * 20}, "round")])
def test_a_bad_filter_is_a_400_naming_it_in_chinese(demo, query, field):
    answer = APIClient().get(f"/api/events/{demo.slug}/matches/", query, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == field and any("\u4e00" <= ch <= "\u9fff" for ch in body["detail"]), body


@pytest.mark.parametrize("query", ["changed_since=", "changed_since=yesterday", "changed_since=2026-12-01T08:00:00",
                                   "changed_since=2026-13-01T08:00:00%2B08:00",
                                   "changed_since=2026-12-01T08:00:00%2B08:00&changed_since=",
                                   "changed_since=２０２６-１２-０１T０８:００:００%2B08:00"])
def test_a_changed_since_that_is_no_date_and_time_is_a_400_naming_it(demo, query):
    """Issue 46 item 6: the match list's changed_since, sent but not one date and time with its offset, is
    refused in the one error body, never read as "everything"."""
    answer = APIClient().get(f"/api/events/{demo.slug}/matches/?{query}", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 400, (query, answer.status_code)
    body = answer.json()
    assert set(body) == {"code", "field", "detail"} and body["field"] == "changed_since"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in body["detail"]), body


def test_changed_since_reads_the_matches_written_after_it(demo):
    match = Match.objects.filter(round__stage__event=demo).order_by("pk").first()
    since = (match.changed_at - dt.timedelta(seconds=1)).isoformat()
    rows = APIClient().get(f"/api/events/{demo.slug}/matches/", {"changed_since": since}).json()
    assert match.pk in {row["id"] for row in rows}
    later = (Match.objects.filter(round__stage__event=demo).latest("changed_at").changed_at).isoformat()
    assert APIClient().get(f"/api/events/{demo.slug}/matches/", {"changed_since": later}).json() == []


def test_one_match_says_its_stage_round_table_and_planned_start(demo):
    match = Match.objects.filter(round__stage__event=demo, ns__isnull=False).select_related(
        "round__stage", "ns").order_by("pk").first()
    Round.objects.filter(pk=match.round_id).update(scheduled_start=dt.datetime(2026, 12, 5, 9, tzinfo=dt.UTC))
    body = APIClient().get(f"/api/matches/{match.pk}/").json()
    assert (body["stage"], body["round"], body["round_number"], body["table"]) == (
        match.round.stage_id, match.round_id, match.round.number, match.table)
    assert body["scheduled_start"].startswith("2026-12-05") and body["ns_name"] == match.ns.name


def test_an_unpublished_event_is_not_found_for_visitors(demo):
    Event.objects.filter(pk=demo.pk).update(published=False)
    match = Match.objects.filter(round__stage__event=demo).first()
    client = APIClient()
    assert client.get(f"/api/events/{demo.slug}/rounds/").status_code == 404
    assert client.get(f"/api/events/{demo.slug}/matches/").status_code == 404
    assert client.get(f"/api/matches/{match.pk}/").status_code == 404


def test_a_round_has_one_status_from_its_clock_its_tables_and_its_close(demo):
    rnd = Round.objects.filter(stage__event=demo, results_published_at__isnull=True).order_by("pk").first()
    Match.objects.filter(round=rnd).update(status=Match.Status.SCHEDULED, started_at=None)
    fresh = Round.objects.create(stage=rnd.stage, number=99)
    assert rounds.round_status(fresh, clock_started=False, matches=[]) == rounds.NOT_STARTED
    assert rounds.round_status(fresh, clock_started=True, matches=[]) == rounds.IN_PROGRESS
    playing = Match(status=Match.Status.PLAYING)
    assert rounds.round_status(fresh, clock_started=False, matches=[playing]) == rounds.IN_PROGRESS
    fresh.results_published_at = dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC)
    assert rounds.round_status(fresh, clock_started=True, matches=[playing]) == rounds.CLOSED
    listed = {r["id"]: r for r in APIClient().get(f"/api/events/{demo.slug}/rounds/").json()}
    assert listed[rnd.pk]["status"] == ("in_progress" if ClockEvent.objects.filter(
        round=rnd, kind__in=["start", "pause", "resume"]).exists() else "not_started")


# --------------------------------------------------------------------------- issue 29 item 6
def test_a_swiss_stage_s_standings_as_json(demo):
    from demo.swiss import seed_swiss_event  # noqa: PLC0415 (slow: only this test seeds it)

    event = seed_swiss_event()
    stage = event.stages.get(kind="swiss")
    answer = APIClient().get(f"/api/stages/{stage.pk}/swiss-standings/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["stage"] == stage.pk and body["rows"] and body["after_round"] >= 1
    ranks = [row["rank"] for row in body["rows"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    points = [row["points"] for row in body["rows"]]
    assert points == sorted(points, reverse=True)  # points first (the Swiss order)
    earlier = APIClient().get(f"/api/stages/{stage.pk}/swiss-standings/", {"after_round": 1}).json()
    assert earlier["after_round"] == 1 and all(row["played"] <= 1 for row in earlier["rows"])
    group_stage = Stage.objects.exclude(kind="swiss").filter(event__published=True).first()
    if group_stage is not None:
        refused = APIClient().get(f"/api/stages/{group_stage.pk}/swiss-standings/")
        assert refused.status_code == 400 and refused.json()["field"] == "stage"


def test_the_unit_standings_as_json(demo):
    from demo.swiss import seed_union_event  # noqa: PLC0415 (slow: only this test seeds it)

    event = seed_union_event()
    body = APIClient().get(f"/api/events/{event.slug}/units/").json()
    assert body["lines"] and body["lines"][0]["rank"] == 1 and body["rules_text"]
    scores = [line["score"] for line in body["lines"]]
    assert scores == sorted(scores, reverse=True)
    assert all(pair["place"] >= 1 for line in body["lines"] for pair in line["pairs"])


def test_the_offence_codes_of_the_profile_with_what_each_needs(demo):
    body = APIClient().get(f"/api/events/{demo.slug}/offences/").json()
    codes = {offence["code"]: offence for offence in body}
    assert {"delay", "late", "failed_throw"} <= set(codes)   # what a ruling's code takes (tests/rulings/test_api.py)
    assert "minutes" in codes["late"]["needs"][""]          # lateness is counted in minutes
    assert "cards" in {need for needs in codes["failed_throw"]["needs"].values() for need in needs}
    assert all(offence["name"] for offence in body)


def test_the_results_as_json_are_the_finished_matches_with_winner_levels_and_note(demo):
    rows = APIClient().get(f"/api/events/{demo.slug}/matches/", {"status": "finished"},
                           HTTP_ACCEPT_LANGUAGE="zh-hans").json()
    stored = {m.pk: m for m in Match.objects.filter(round__stage__event=demo, status="finished").select_related("winner")}
    assert {row["id"] for row in rows} == set(stored)
    for row in rows:
        match = stored[row["id"]]
        assert row["winner_name"] == (match.winner.name if match.winner else None)
        assert (row["ns_level"], row["ew_level"]) == (match.ns_level, match.ew_level)
        assert isinstance(row["result_words"], str)
