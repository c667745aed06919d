"""Issue 43 item 13: 复制本赛事 copies what the organiser set for the event besides its fields (the clock: a copy
of a 90-minute event runs 90 minutes, not the profile's 2 hours; the organiser choices of the rules; the unit
scoring; whether registration asks for phones), never its entries unless asked, nor stages, draws or results."""
import pytest
from django.urls import reverse

from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.clocks import safety
from tournament.clocks import services as clock_services
from tournament.competition import stages, unit_standings
from tournament.entries import registration_links
from tournament.events import rule_choices, services
from tournament.models import Event, EventClockSettings, Stage
from tournament.staff.services import add_creator


@pytest.fixture
def organiser(client, make_user):
    user = make_user(roles.ORGANISER)
    client.force_login(user)
    return user


@pytest.mark.django_db
def test_a_copy_keeps_the_clock_rule_choices_unit_scoring_and_phone_rule(client, organiser):
    event = make_event(4, 2)
    add_creator(event, organiser)
    clock_services.set_clock_settings(event, organiser, match_minutes=90, announce_minutes_before_end=10)
    safety.set_parallel_rounds(event, True)
    rule_choices.set_choices(event, organiser, {"exactly_80": "declarers_keep"})
    unit_standings.set_unit_rules(event, best_n=3, seed="旧签")
    registration_links.set_window(event, None, True)
    event.refresh_from_db()
    stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})

    answer = client.post(reverse("event_copy", args=[event.slug]),
                         {"name": "复制的赛事", "start_date": "", "end_date": "", "slug": ""})
    copy = Event.objects.exclude(pk=event.pk).get()
    assert answer.status_code == 302
    clock = EventClockSettings.objects.get(event=copy)
    assert (clock.match_minutes, clock.announce_minutes_before_end, clock.parallel_rounds) == (90, 10, True)
    assert copy.rule_choices == {"exactly_80": "declarers_keep"}
    assert copy.profile.based_on == event.profile.based_on and copy.profile_id != event.profile_id
    assert copy.unit_scoring == {"best_n": 3}            # the lot's seed is the new event's own
    assert registration_links.window(copy).asks_phone and registration_links.window(copy).closes_at is None
    assert not copy.stages.exists() and not copy.pairs.exists() and not copy.published


@pytest.mark.django_db
def test_a_copy_of_an_event_without_settings_has_none(make_user):
    user = make_user(roles.ORGANISER)
    event = make_event(4, 2)
    copy = services.copy_event(event, user, {"name": "再来一次"})
    assert not EventClockSettings.objects.filter(event=copy).exists()
    assert copy.rule_choices == {} and copy.unit_scoring == {} and copy.profile_id == event.profile_id


@pytest.mark.browser
def test_the_copy_page_says_what_is_copied_on_a_phone(transactional_db, live_server, page, make_user):
    from pathlib import Path

    from django.conf import settings

    from tests.conftest import login

    user = make_user(roles.ORGANISER)
    event = make_event(4, 2, slug="copy-me")
    add_creator(event, user)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, user)
    page.goto(live_server.url + reverse("event_copy", args=[event.slug]))
    keeps = page.locator("#copy-keeps")
    keeps.wait_for()
    assert "计时设置" in keeps.inner_text() and "不复制比赛阶段" in keeps.inner_text()
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "event-copy-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
