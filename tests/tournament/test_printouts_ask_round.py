"""Issue 43 item 10: 成绩单 "下载 PDF" with no round chosen showed the command line's "请指定轮次（--round）或场次
（--match）" on a bare page. The printouts page comes back with the refusal next to the round's choice (the
choices kept), in Chinese or English, and never names a command-line flag."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login
from tests.tournament.test_draws_support import make_event
from tournament.competition import draws
from tournament.competition.stages import create_stages_from_format
from tournament.models import EventRole, Round


@pytest.fixture
def round_one(db, make_user):
    event = make_event(8, 4, slug="ask-round")
    stage = create_stages_from_format(event)[0]
    draws.draw_groups(stage, seed="ask")
    organiser = make_user()
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    return event, Round.objects.get(stage=stage, number=1), organiser


def _card(html, kind):
    found = re.search(rf'<li class="card" id="printout-{kind}">.*?</li>', html, re.S)
    assert found, kind
    return found.group(0)


@pytest.mark.parametrize("kind", ["scoresheets", "results", "tablecards"])
def test_a_printout_without_its_round_asks_for_it_on_the_page(client, round_one, kind):
    event, rnd, organiser = round_one
    client.force_login(organiser)
    answer = client.get(reverse("printout_download", args=[event.slug, kind]), {"lang": "zh-hans"})
    assert answer.status_code == 400 and answer["Content-Type"].startswith("text/html")
    html = answer.content.decode()
    assert "--" not in re.sub(r"<!--.*?-->", "", html) and "--round" not in html
    card = _card(html, kind)
    error = re.search(r'<span class="error" role="alert" data-field-error="round">(.*?)</span>', card)
    assert error and "请指定轮次" in error.group(1), card
    assert f'<option value="{rnd.pk}">' in card                     # the page offers the rounds to choose
    assert "data-field-error" not in _card(html, "poster")          # only the refused printout says so


def test_the_background_build_without_a_round_asks_too_in_english(client, round_one):
    event, _rnd, organiser = round_one
    client.force_login(organiser)
    client.cookies["django_language"] = "en"
    answer = client.post(reverse("printout_job_create", args=[event.slug, "scoresheets"]), {"lang": "en"})
    assert answer.status_code == 400
    card = _card(answer.content.decode(), "scoresheets")
    assert "Choose a round or a match to print." in card and "--" not in card
    assert '<option value="en" selected>' in card


def test_a_match_of_another_event_is_refused_next_to_the_match(client, round_one):
    event, rnd, organiser = round_one
    client.force_login(organiser)
    answer = client.get(reverse("printout_download", args=[event.slug, "scoresheets"]), {"match": "999999"})
    error = re.search(r'data-field-error="match">(.*?)</span>', _card(answer.content.decode(), "scoresheets"))
    assert answer.status_code == 400 and error and "999999" in error.group(1)


@pytest.mark.browser
def test_the_refusal_on_a_phone(transactional_db, live_server, page, make_user):
    event = make_event(8, 4, slug="ask-round-phone")
    stage = create_stages_from_format(event)[0]
    draws.draw_groups(stage, seed="ask")
    organiser = make_user()
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, organiser)
    page.goto(live_server.url + reverse("printouts", args=[event.slug]))
    page.locator("#printout-scoresheets button.primary").click()
    error = page.locator('#printout-scoresheets [data-field-error="round"]')
    error.wait_for()
    assert "请指定轮次" in error.inner_text()
    error.scroll_into_view_if_needed()
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "printouts-ask-round-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
