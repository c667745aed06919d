"""The organiser's clock settings page: overrides of clock length and announcement rule for the event
or one round, saved through clock_services.set_clock_settings, with validation errors in Chinese."""
import re

import pytest

from tests.tournament.test_clock_fixtures import _fresh_cache, make_round  # noqa: F401
from tournament.clocks import services as cs
from tournament.models import EventClockSettings, RoundClock

CJK = re.compile(r"[\u4e00-\u9fff]")
BLANK = {"match_minutes": "", "announce_enabled": "", "announce_minutes_before_end": "", "hands_after": "",
         "hand_in_play_counts": ""}


def url_of(rnd, round_scope=False):
    base = f"/manage/{rnd.stage.event.slug}/clock-settings/"
    return f"{base}?round={rnd.pk}" if round_scope else base


def post(client, url, **values):
    return client.post(url, {**BLANK, **values})


def field_errors(response, name):
    form = response.context["form"]
    return form.errors.get(name, [])


@pytest.fixture
def organiser_client(client, make_user):
    client.force_login(make_user("organiser"))
    return client


@pytest.mark.django_db
def test_only_organisers_may_open_the_page(client, make_user):
    rnd = make_round(tables=1)
    assert client.get(url_of(rnd)).status_code == 302                  # to the login page
    for role, status in (("table_referee", 403), ("chief_referee", 403), ("organiser", 200)):
        client.force_login(make_user(role))
        assert client.get(url_of(rnd)).status_code == status, role
    assert client.get(f"/manage/{rnd.stage.event.slug}/clock-settings/?round=999999").status_code == 404


@pytest.mark.django_db
def test_event_override_changes_every_round_rule(organiser_client):
    rnd = make_round(tables=1)
    response = post(organiser_client, url_of(rnd), match_minutes="60", announce_minutes_before_end="10",
                    hands_after="1", hand_in_play_counts="true")
    assert response.status_code == 302
    row = EventClockSettings.objects.get(event=rnd.stage.event)
    assert (row.match_minutes, row.announce_enabled, row.hand_in_play_counts) == (60, None, True)
    rule = cs.clock_rule(rnd)
    assert (rule.match_seconds, rule.announce_before_seconds, rule.hands_after, rule.hand_in_play_counts) == (
        3600, 600, 1, True)
    page = organiser_client.get(url_of(rnd))
    assert page.context["form"].initial["match_minutes"] == 60
    assert page.context["form"].initial["hand_in_play_counts"] == "true"
    assert page.context["rules"][0]["minutes"] == 60


@pytest.mark.django_db
def test_round_override_leaves_the_event_and_other_rounds_alone(organiser_client):
    first = make_round(tables=1)
    second = first.stage.rounds.create(number=2, name="第二轮")
    response = post(organiser_client, url_of(first, round_scope=True), announce_enabled="false")
    assert response.status_code == 302 and response["Location"].endswith(f"?round={first.pk}")
    assert RoundClock.objects.get(round=first).announce_enabled is False
    assert not EventClockSettings.objects.exists()
    assert not cs.clock_rule(first).announces and cs.clock_rule(second).announces
    rows = {row["round"].pk: row for row in organiser_client.get(url_of(first)).context["rules"]}
    assert rows[first.pk]["overridden"] and not rows[second.pk]["overridden"]


@pytest.mark.django_db
def test_announcement_after_the_end_is_refused_in_chinese(organiser_client):
    rnd = make_round(tables=1)
    response = post(organiser_client, url_of(rnd), match_minutes="60", announce_minutes_before_end="70")
    assert response.status_code == 200
    [error] = field_errors(response, "announce_minutes_before_end")
    assert error.startswith("宣布时间须早于比赛结束")
    assert error in response.content.decode()
    assert not EventClockSettings.objects.exists()                     # rolled back
    assert cs.clock_rule(rnd).match_seconds == 90 * 60


@pytest.mark.django_db
def test_counted_hand_in_play_needs_a_hand_after_in_chinese(organiser_client):
    rnd = make_round(tables=1)
    response = post(organiser_client, url_of(rnd, round_scope=True), hands_after="0", hand_in_play_counts="true")
    [error] = field_errors(response, "hands_after")
    assert CJK.search(error) and "至少" in error
    assert not RoundClock.objects.filter(round=rnd).exclude(hands_after=None).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("field, value", [("match_minutes", "0"), ("match_minutes", "abc"),
                                          ("hands_after", "-1"), ("announce_minutes_before_end", "601"),
                                          ("announce_enabled", "maybe")])
def test_bad_values_get_chinese_field_errors(organiser_client, field, value):
    rnd = make_round(tables=1)
    response = post(organiser_client, url_of(rnd), **{field: value})
    assert response.status_code == 200
    [error] = field_errors(response, field)
    assert CJK.search(error), error
    assert not EventClockSettings.objects.exists()


@pytest.mark.django_db
def test_a_profile_without_a_time_limit_asks_for_the_length(organiser_client):
    rnd = make_round("company-league", tables=1)
    page = organiser_client.get(url_of(rnd))
    assert "error" in page.context["rules"][0]
    response = post(organiser_client, url_of(rnd), hands_after="2")
    [error] = field_errors(response, "match_minutes")
    assert "没有比赛时限" in error
    assert post(organiser_client, url_of(rnd), match_minutes="45").status_code == 302
    assert cs.clock_rule(rnd).match_seconds == 45 * 60


@pytest.mark.django_db
def test_a_negative_length_is_refused_as_too_small_not_as_no_number(organiser_client):
    """"-5" minutes a match was answered "请填写整数。" (enter a whole number): it is one, only below 1."""
    rnd = make_round(tables=1)
    [error] = field_errors(post(organiser_client, url_of(rnd), match_minutes="-5"), "match_minutes")
    assert error == "确保该值大于或等于1。", error
