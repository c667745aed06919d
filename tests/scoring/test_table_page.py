"""The table page: read-only for the public, a form for the table's referees; driven in headless Chromium."""
import re

import pytest
from django.utils import translation

from scoring import services
from tests.conftest import login
from tests.scoring.test_hands_support import match, referee  # noqa: F401
from tournament import roles
from tournament.models import Event


def zh(msgid):
    """The Chinese text the page shows for an English msgid (the msgid itself until the catalogue has it)."""
    with translation.override("zh-hans"):
        return translation.gettext(msgid)


def record(match, user, number, points, **extra):
    return services.record_hand(match, user, number=number, trump="H", defender_points=points, **extra).hand


@pytest.mark.django_db
def test_public_sees_levels_and_history_without_form(client, match, referee):
    record(match, referee, 1, 45, declarer="N")
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert 'id="level-NS">4<' in html and 'id="level-EW">2<' in html
    assert "防家得分45，庄家方升2级：2→4" in html
    assert 'id="hand-form"' not in html


@pytest.mark.django_db
def test_referee_gets_the_form_declarer_only_for_the_first_hand(client, match, referee):
    client.force_login(referee)
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert 'id="hand-form"' in html and 'name="declarer"' in html
    record(match, referee, 1, 45, declarer="N")
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert 'name="declarer"' not in html and 'data-next="2"' in html


@pytest.mark.django_db
def test_other_referee_and_organiser_get_no_form(client, match, make_user):
    for role in (roles.TABLE_REFEREE, roles.ORGANISER):
        client.force_login(make_user(role))
        assert 'id="hand-form"' not in client.get(f"/tables/{match.pk}/").content.decode()


@pytest.mark.django_db
def test_unpublished_table_is_hidden_from_the_public(client, match):
    Event.objects.filter(pk=match.round.stage.event_id).update(published=False)
    assert client.get(f"/tables/{match.pk}/").status_code == 404


@pytest.mark.django_db
def test_superseded_version_is_struck_through_with_who_and_when(client, match, referee, make_user, frozen_now):
    chief = make_user(roles.CHIEF_REFEREE, username="chief-zhang")
    record(match, referee, 1, 45, declarer="N")
    frozen_now.advance(minutes=5)
    services.correct_last_hand(match, chief, number=1, trump="H", defender_points=30, declarer="N")
    html = client.get(f"/tables/{match.pk}/").content.decode()
    struck = re.search(r"<del>(.*?)</del>\s*<span class=\"muted\">(.*?)</span>", html, re.S)
    assert struck and "防家得分45" in struck.group(1)
    assert referee.username in struck.group(2) and "chief-zhang" in struck.group(2)
    assert "09:05" in struck.group(2)                        # corrected at 01:05 UTC = 09:05 in Shanghai
    assert 'id="level-NS">5<' in html                        # 30 points: +3


# --- headless Chromium --------------------------------------------------------------------------


def fill_hand(page, points, bottom="0", declarer=None):
    if declarer:
        page.select_option("select[name=declarer]", declarer)
    page.select_option("select[name=trump]", "S")
    page.fill("input[name=defender_points]", str(points))
    page.fill("input[name=bottom_points]", bottom)
    page.click("#hand-form button[type=submit]")


@pytest.mark.browser
def test_record_two_hands_on_a_phone(transactional_db, live_server, phone, make_user):
    from demo.hands import scratch_match

    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/")
    saved = zh("Saved")

    fill_hand(phone, 45, declarer="N")
    phone.wait_for_function("document.getElementById('form-status').textContent.trim() === %r" % saved)
    assert phone.inner_text("#level-NS") == "4" and phone.inner_text("#level-EW") == "2"
    assert "防家得分45" in phone.inner_text("#table-history")

    fill_hand(phone, 130)                                   # S declares at 4; EW take over, stuck on 2
    phone.wait_for_function("document.querySelectorAll('#table-history article.hand').length === 2")
    assert phone.inner_text("#form-status") == saved
    assert phone.inner_text("#level-NS") == "2" and phone.inner_text("#level-EW") == "2"
    assert "东" in phone.inner_text("#declarer-line")              # 南/北/东/西 on a Chinese page (issue 27.14)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360   # no sideways scroll

    match.refresh_from_db()
    assert match.hands.count() == 2 and (match.ns_level, match.ew_level) == ("2", "2")


@pytest.mark.browser
def test_bad_value_shows_the_error_and_saves_nothing(transactional_db, live_server, phone, make_user):
    from demo.hands import scratch_match

    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/")
    fill_hand(phone, 42, declarer="N")
    phone.wait_for_selector("#form-status.error")
    message = phone.inner_text("#form-status")
    assert "42" in message and "5的倍数" in message     # the API names the field in "field", not the text
    assert phone.inner_text("#form-status") != zh("Saved")
    assert match.hands.count() == 0
