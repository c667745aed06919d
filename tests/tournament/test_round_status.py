"""Issue 27 item 17: one status for a round, shown the same everywhere. ``rounds.round_status`` owns it (the
API's rounds, the hall display's clock JSON, the chief's desk and clock page and the table page's clock all
read it) and ``rounds.table_status`` says what a table shows, never ahead of its round: no "进行中" before the
round has begun, no "未开始" with a full countdown beside finished tables of a round played without its clock,
and the clock stops once the round is closed."""
import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, play  # noqa: F401
from tournament.clocks import services as cs
from tournament.competition import rounds
from tournament.desk import board
from tournament.models import Match


def waiting_round(tables=2):
    rnd = make_round(tables=tables)
    Match.objects.filter(round=rnd).update(status=Match.Status.SCHEDULED, started_at=None)
    return rnd


def clock_json(rnd):
    return APIClient().get(f"/api/rounds/{rnd.pk}/clock/").json()


def test_table_status_is_never_ahead_of_the_round():
    T = rounds.table_status
    assert T(rounds.NOT_STARTED, clock_started=False, over=False, begun=False) == rounds.TABLE_NOT_STARTED
    assert T(rounds.IN_PROGRESS, clock_started=True, over=False, begun=False) == rounds.TABLE_PLAYING
    assert T(rounds.IN_PROGRESS, clock_started=False, over=False, begun=False) == rounds.TABLE_NOT_STARTED
    assert T(rounds.IN_PROGRESS, clock_started=False, over=False, begun=True) == rounds.TABLE_PLAYING
    assert T(rounds.CLOSED, clock_started=True, over=True, begun=True) == rounds.TABLE_FINISHED
    assert T(rounds.CLOSED, clock_started=True, over=False, begun=False) == rounds.TABLE_NOT_STARTED


@pytest.mark.django_db(transaction=True)
def test_before_the_clock_starts_no_page_says_playing(client, frozen_now, chief):  # noqa: F811
    rnd = waiting_round()
    assert rounds.status_of_round(rnd) == rounds.NOT_STARTED
    data = clock_json(rnd)
    assert data["round_status"] == "not_started" and data["status"] == "not_started"
    assert {t["state"] for t in data["tables"]} == {"not_started"}
    desk = board.desk_data(rnd, chief)
    assert desk["round"]["status"] == "not_started" and desk["round"]["status_label"] == "本轮未开始"
    assert {t["state"] for t in desk["tables"]} == {board.NOT_STARTED}
    client.force_login(chief)
    page = client.get(f"/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/clock/").content.decode()
    overview = page.split("clock-overview")[1]
    assert "进行中" not in overview and overview.count("未开始") == 2

    cs.start_clock(rnd, chief)                      # under the hall clock every table plays
    data = clock_json(rnd)
    assert data["round_status"] == "in_progress" and {t["state"] for t in data["tables"]} == {"playing"}
    assert {t["state"] for t in board.desk_data(rnd, chief)["tables"]} == {board.PLAYING}


@pytest.mark.django_db(transaction=True)
def test_a_round_played_without_its_clock_is_in_progress_and_its_clock_closes_with_it(frozen_now, chief):  # noqa: F811
    rnd = waiting_round()
    first, second = Match.objects.filter(round=rnd).order_by("table")
    play(first, chief)                              # hands recorded, the clock never started
    data = clock_json(rnd)
    assert data["round_status"] == "in_progress" and data["status"] == "not_started"
    states = {t["table"]: t["state"] for t in data["tables"]}
    assert states == {1: "playing", 2: "not_started"}
    assert board.desk_data(rnd, chief)["round"]["status_label"] == "本轮进行中"
    for match in (first, second):
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner=match.ns)
    cache.clear()   # the rows were updated directly, past the display's invalidation
    data = clock_json(rnd)
    assert data["round_status"] == "in_progress" and {t["state"] for t in data["tables"]} == {"finished"}
    rounds.close_round(rnd, chief)
    data = clock_json(rnd)
    assert data["round_status"] == "closed" and data["status"] == "closed" and data["remaining_seconds"] is None
    desk = board.desk_data(rnd, chief)
    assert desk["round"]["status"] == "closed" and desk["clock"]["status"] == "closed"
