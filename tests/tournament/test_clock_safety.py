"""Clock safety: the chief's page asks before starting a clock or changing the time by more than five
minutes; a second round's clock in the same event is refused unless the event allows parallel rounds."""
import re

import pytest

from common.errors import ConflictError
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round  # noqa: F401
from tournament.clocks import safety
from tournament.clocks import services as cs
from tournament.models import ClockEvent, EventClockSettings, Match


def _url(rnd):
    return f"/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/clock/"


@pytest.mark.django_db
def test_a_second_round_is_refused_unless_the_event_allows_parallel_rounds(chief):
    first = make_round(tables=1)
    second = first.stage.rounds.create(number=2, name="第二轮")
    cs.start_clock(first, chief)
    with pytest.raises(ConflictError) as refused:
        cs.start_clock(second, chief)
    assert refused.value.field == "action" and "第一轮" in str(refused.value)
    safety.set_parallel_rounds(first.stage.event, True)
    assert EventClockSettings.objects.get(event=first.stage.event).parallel_rounds
    cs.start_clock(second, chief)
    assert ClockEvent.objects.filter(kind="start").count() == 2


@pytest.mark.django_db
def test_the_page_asks_before_big_changes_and_a_parallel_start(client, chief, frozen_now):
    first = make_round(tables=1)
    second = first.stage.rounds.create(number=2, name="第二轮")
    client.force_login(chief)
    client.post(_url(first), {"action": "start", "confirmed": "1"})
    for minutes, asks in (("5", False), ("-5", False), ("6", True), ("-20", True)):
        answer = client.post(_url(first), {"action": "add", "minutes": minutes})
        assert (answer.status_code == 200 and "confirm-box" in answer.content.decode()) is asks, minutes
    assert list(ClockEvent.objects.filter(kind="add").values_list("seconds", flat=True)) == [300, -300]
    answer = client.post(_url(first), {"action": "add", "minutes": "-20", "confirmed": "1"})
    assert answer.status_code == 302 and ClockEvent.objects.filter(kind="add").count() == 3

    safety.set_parallel_rounds(first.stage.event, True)
    asked = client.post(_url(second), {"action": "start"}).content.decode()
    assert "另一轮" in asked and "第一轮" in asked
    refused = client.get(_url(second))
    assert refused.status_code == 200


@pytest.mark.django_db
def test_the_organiser_sets_parallel_rounds_on_the_clock_settings_page(client, make_user):
    rnd = make_round(tables=1)
    client.force_login(make_user("organiser"))
    url = f"/manage/{rnd.stage.event.slug}/clock-settings/"
    assert "多轮可同时进行" in client.get(url).content.decode()
    assert client.post(url, {"parallel_rounds": "true"}).status_code == 302
    assert safety.parallel_allowed(rnd.stage.event_id)


@pytest.mark.django_db
def test_extra_time_is_offered_at_tables_never_at_a_bye(client, chief):
    """A knock-out match both of whose pairs went is a bye with no table (void): the extra-time list once
    offered it as "第None桌" (the simulator's seed 304)."""
    rnd = make_round(tables=2)
    Match.objects.filter(round=rnd, table=2).update(status=Match.Status.BYE, table=None)
    client.force_login(chief)
    page = client.get(_url(rnd)).content.decode()
    offered = re.search(r'<select name="match"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert offered.count("<option") == 1 and "第1桌" in offered.replace(" ", "") and "None" not in offered
