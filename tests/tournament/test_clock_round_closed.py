"""Issue 27 item 17: the clock and the round's status agree. Once the chief closes the round the clock stops
(status "closed", no time counting down, the round's results shown) on every display; reopening it brings the
clock back as it was."""
import pytest
from rest_framework.test import APIClient

from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round  # noqa: F401
from tournament.clocks import services as cs
from tournament.competition import rounds
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
    assert closed["tables"][0]["remaining_seconds"] == 0 and closed["tables"][0]["ends_at"] is None
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
