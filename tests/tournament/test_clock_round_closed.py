"""Issue 27 item 17: the clock and the round's status agree. Once the chief closes the round the clock stops
(status "closed", no time counting down, the round's results shown) on every display; reopening it brings the
clock back as it was."""
import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round  # noqa: F401
from tournament.clocks import services as cs
from tournament.competition import display_cache, rounds
from tournament.models import Match


@pytest.mark.django_db(transaction=True)
def test_a_closed_round_stops_its_clock_and_a_reopened_one_runs_again(frozen_now, chief):  # noqa: F811
    rnd = make_round(tables=1)
    cs.start_clock(rnd, chief)
    match = Match.objects.get(round=rnd)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner=match.ns)  # a result, decided
    api = APIClient()
    url = f"/api/rounds/{rnd.pk}/clock/"
    assert api.get(url).json()["status"] == "running"
    rounds.close_round(rnd, chief)
    closed = api.get(url).json()
    assert closed["status"] == "closed" and closed["remaining_seconds"] is None and closed["ends_at"] is None
    assert closed["time_up"] is True and closed["closed_at"] and [t["match_id"] for t in closed["tables"]] == [match.pk]
    # issue 43: no table's time once closed (0 read "时间到" at every table of a round closed 1 h 16 min early)
    assert closed["tables"][0]["remaining_seconds"] is None and closed["tables"][0]["ends_at"] is None
    rounds.reopen_round(rnd, chief, "更正第1桌成绩")
    assert api.get(url).json()["status"] == "running"


@pytest.mark.django_db(transaction=True)
def test_the_chief_clock_page_of_a_closed_round_reads_in_chinese(client, chief):  # noqa: F811
    """The closed round's clock page had an empty card where Start/Pause stand and "已结束: 甲队"."""
    rnd = make_round(tables=1)
    match = Match.objects.get(round=rnd)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner=match.ns)
    rounds.close_round(rnd, chief)
    client.force_login(chief)
    page = client.get(f"/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/clock/").content.decode()
    assert f"已结束：{match.ns.name}" in page and "已结束:" not in page
    controls = page[page.index('class="clock-controls"'):]
    assert controls[:controls.index("</section>")].count("<form") == 2   # add time, a table's extra time


@pytest.mark.django_db(transaction=True)
def test_the_desk_of_a_closed_then_reopened_round_says_one_status(client, frozen_now, chief):  # noqa: F811
    """Issue 43 item 15: a closed round's desk listed 时间到 at every table with 1 h 16 min left; after reopening,
    the desk said both 本轮已结束 (its clock, read while another poll rebuilt) and 本轮进行中."""
    rnd = make_round(tables=2)
    cs.start_clock(rnd, chief)
    for match in Match.objects.filter(round=rnd):
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner=match.ns)
    frozen_now.advance(minutes=14)
    client.force_login(chief)
    desk = f"/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/state/"
    clock = f"/api/rounds/{rnd.pk}/clock/"
    rounds.close_round(rnd, chief)
    closed = client.get(desk).json()
    assert closed["round"]["status"] == rounds.CLOSED and closed["clock"]["status"] == "closed"
    assert [t["remaining_seconds"] for t in closed["tables"]] == [None, None]   # no "时间到"
    cache.add(f"{display_cache.display_key(rnd.pk)}:rebuilding", 1, 10)         # another poll rebuilding now
    rounds.reopen_round(rnd, chief, "更正第1桌成绩")
    reopened = client.get(desk).json()
    assert reopened["round"]["status"] == rounds.IN_PROGRESS and reopened["clock"]["status"] == "running"
    assert client.get(clock).json()["status"] == "running"
