"""Issue 43 item 5: a name past its limit was cut silently by the input's maxlength. Every name field of the
organiser's pages (pair, player, unit, team, pool, a link's unit, event, stage, staff) has no maxlength: the
server refuses the name past its limit with a Chinese sentence next to the field and saves nothing. (The
import and the API: tests/tournament/test_name_limits.py.)"""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login
from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.competition.stages import create_stages_from_format
from tournament.models import Event, Registration, Stage, UnitLink
from tournament.staff.services import add_creator

NAME_INPUTS = re.compile(r'<input[^>]*name="(?:unit|name|player1|player2|player|team|pool|display_name|phone\d?)"[^>]*>')


def _errors_next_to(html, field):
    """The error sentences inside the label holding the input named ``field`` (or marked as its error)."""
    found = [e for label in re.findall(r"<label\b.*?</label>", html, re.S) if f'name="{field}"' in label
             for e in re.findall(r'class="error"[^>]*>(.*?)</', label, re.S)]
    return found + re.findall(rf'data-field-error="{field}">(.*?)</', html)


@pytest.fixture
def setup(client, make_user, db):
    event = make_event(4, 2)
    user = make_user(roles.ORGANISER)
    add_creator(event, user)
    client.force_login(user)
    return event


def test_no_name_input_has_a_maxlength(client, setup):
    event = setup
    stage = create_stages_from_format(event)[0]
    pair = event.pairs.first()
    for url in (reverse("entries_add", args=[event.slug]), reverse("entries_edit", args=[event.slug, pair.pk]),
                reverse("entries_replace", args=[event.slug, pair.pk]),
                reverse("entries_individuals", args=[event.slug]), reverse("entries_links", args=[event.slug]),
                reverse("event_edit", args=[event.slug]), reverse("event_new"), reverse("event_copy", args=[event.slug]),
                reverse("competition_manage_stages", args=[event.slug]),
                reverse("competition_manage_stage_edit", args=[event.slug, stage.pk]),
                reverse("event_staff", args=[event.slug])):
        html = client.get(url).content.decode()
        inputs = NAME_INPUTS.findall(html)
        assert inputs, url
        assert not [i for i in inputs if "maxlength" in i], (url, [i for i in inputs if "maxlength" in i])


@pytest.mark.parametrize("url_name, post, field, sentence", [
    ("entries_add", {"unit": "甲", "name": "", "player1": "欧" * 41, "gender1": "M", "phone1": "", "player2": "李四",
                     "gender2": "F", "phone2": "", "seed": "", "team": ""}, "player1", "选手1太长：最多40字，收到41字"),
    ("entries_add", {"unit": "单" * 101, "name": "", "player1": "张三", "gender1": "M", "phone1": "", "player2": "李四",
                     "gender2": "F", "phone2": "", "seed": "", "team": ""}, "unit", "单位太长：最多100字，收到101字"),
    ("entries_add", {"unit": "甲", "name": "", "player1": "张三", "gender1": "M", "phone1": "", "player2": "李四",
                     "gender2": "F", "phone2": "", "seed": "", "team": "队" * 101}, "team", "最多100字，收到101字"),
    ("entries_individuals", {"action": "add", "unit": "甲", "player1": "欧" * 41, "gender1": "M", "phone1": "",
                             "team": "", "pool": ""}, "player1", "最多40字，收到41字"),
    ("entries_individuals", {"action": "add", "unit": "甲", "player1": "王五", "gender1": "M", "phone1": "",
                             "team": "", "pool": "池" * 41}, "pool", "最多40字，收到41字"),
    ("entries_links", {"action": "create", "unit": "单" * 101, "phone": ""}, "unit", "最多100字，收到101字"),
])
def test_a_long_name_is_refused_next_to_its_field_and_nothing_is_saved(client, setup, url_name, post, field,
                                                                       sentence):
    event = setup
    before = (event.pairs.count(), Registration.objects.count(), UnitLink.objects.count())
    answer = client.post(reverse(url_name, args=[event.slug]), post)
    html = answer.content.decode()
    errors = _errors_next_to(html, field)
    assert answer.status_code in (200, 400) and errors and sentence in errors[0], (field, errors)
    assert (event.pairs.count(), Registration.objects.count(), UnitLink.objects.count()) == before


def test_a_long_event_or_stage_name_is_refused_next_to_it(client, setup):
    event = setup
    answer = client.post(reverse("event_edit", args=[event.slug]), {
        "name": "赛" * 201, "organising_body": "", "start_date": "2026-12-05", "end_date": "2026-12-05", "venue": "",
        "profile": event.profile.slug, "profile_version": "", "format": event.format, "slug": event.slug})
    assert "最多 200" in _errors_next_to(answer.content.decode(), "name")[0]
    assert Event.objects.get(pk=event.pk).name == event.name
    answer = client.post(reverse("competition_manage_stages", args=[event.slug]),
                         {"action": "create", "kind": "round_robin", "name": "段" * 101, "n_groups": "1"})
    assert "100" in _errors_next_to(answer.content.decode(), "name")[0] and not Stage.objects.filter(event=event)


@pytest.mark.browser
def test_a_long_name_typed_on_a_phone_is_kept_and_refused(transactional_db, live_server, page, make_user):
    event = make_event(4, 2, slug="long-names")
    user = make_user(roles.ORGANISER)
    add_creator(event, user)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, user)
    page.goto(live_server.url + reverse("entries_add", args=[event.slug]))
    page.fill("[name=unit]", "甲")
    page.fill("[name=player1]", "欧" * 41)
    assert len(page.input_value("[name=player1]")) == 41            # the page does not cut it
    page.fill("[name=player2]", "李四")
    page.click("form button.primary")
    error = page.locator("label.has-error .error").first
    error.wait_for()
    assert "最多40字，收到41字" in error.inner_text()
    assert len(page.input_value("[name=player1]")) == 41            # shown as typed, to shorten
    error.scroll_into_view_if_needed()
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "long-name-refused-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
