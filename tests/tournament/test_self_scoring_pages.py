"""The pages of the tables where the players record: the players' table page (the entry waiting apart, no
form while it waits), the code check by the field, the desk's slips (new codes, the old ones dead) and a
side's re-issue, the floor referee's panel on the referee's table page, the desk's list, the table card's QR."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.selfscore_support import ADDRESS, FIRST, make_table
from tournament import roles
from tournament.printouts.common import PrintOptions
from tournament.printouts.tablecards import collect as table_cards
from tournament.selfscore import codes, services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_counters")]


@pytest.fixture
def table(make_user):
    return make_table(make_user)


def page(t):
    return reverse("selfscore-table", args=[t.match.pk])


def test_the_players_page_shows_the_form_then_the_entry_waiting_apart(table):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    html = client.get(page(table)).content.decode()
    assert 'id="hand-form"' in html and 'id="side-code"' in html and 'id="entry-waiting"' not in html
    entry = services.enter_hand(table.match, table.ns, address=ADDRESS, number=1, inputs=FIRST)
    html = client.get(page(table)).content.decode()
    assert 'id="entry-waiting"' in html and "待确认" in html and 'id="hand-form"' not in html
    assert f"|{entry.pk}waiting" in html   # the script notices the other phone's entry by it
    english = Client()
    english.cookies["django_language"] = "en"
    html_en = english.get(page(table)).content.decode()
    assert ">Dispute</button>" in html_en and "有异议" not in html_en   # one language in a sentence
    services.dispute_entry(entry, table.ew, address=ADDRESS, note="底分不对")
    html = client.get(page(table)).content.decode()
    assert "有异议" in html and "底分不对" in html and 'data-entry-action="confirm"' not in html


def test_the_code_check_names_the_side_or_refuses_by_the_field(table):
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    url = reverse("selfscore-check-code", args=[table.match.pk])
    right = client.post(url, {"code": table.ew}, content_type="application/json")
    assert right.status_code == 200 and right.json() == {"side": "EW", "name": "东西"}
    wrong = client.post(url, {"code": "00000000" if table.ew != "00000000" else "11111111"},
                        content_type="application/json")
    body = wrong.json()
    assert wrong.status_code == 400 and body["field"] == "code" and body["detail"] and "code" not in body["detail"]


def test_the_desk_prints_the_slips_with_new_codes_and_reissues_one_side(table, make_user):
    client = Client()
    client.force_login(table.chief)
    event = table.match.round.stage.event
    rnd = table.match.round
    printed = client.post(reverse("selfscore-slips", args=[event.slug, rnd.pk]), {"tables": ""})
    assert printed.status_code == 200 and printed["Content-Type"] == "application/pdf"
    assert printed.content.startswith(b"%PDF") and printed["Cache-Control"] == "no-store"
    assert codes.owner_of(table.match.pk, table.ns) is None   # the slips' codes replaced the old ones
    again = client.post(reverse("selfscore-reissue", args=[event.slug, rnd.pk]), {"table": "1", "side": "EW"})
    assert again.status_code == 200 and again.content.startswith(b"%PDF")
    missing = client.post(reverse("selfscore-reissue", args=[event.slug, rnd.pk]), {"table": "99", "side": "EW"})
    assert missing.status_code == 400 and missing.json()["field"] == "table"
    referee = Client()
    referee.force_login(table.referee)
    assert referee.post(reverse("selfscore-slips", args=[event.slug, rnd.pk])).status_code == 403


def test_the_floor_referee_decides_on_the_referee_table_page_and_the_desk_lists_it(table):
    entry = services.enter_hand(table.match, table.ns, address=ADDRESS, number=1, inputs=FIRST)
    services.dispute_entry(entry, table.ew, address=ADDRESS)
    referee = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    referee.force_login(table.referee)
    html = referee.get(reverse("scoring-table", args=[table.match.pk])).content.decode()
    assert 'id="entry-decide"' in html and 'data-decide="confirm"' in html
    assert reverse("api_selfscore_decide", args=[table.match.pk, entry.pk]) in html
    chief = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    chief.force_login(table.chief)
    event, rnd = table.match.round.stage.event, table.match.round
    desk = chief.get(reverse("desk", args=[event.slug, rnd.pk])).content.decode()
    assert 'id="selfscore-desk"' in desk and "有异议" in desk and 'id="slips-form"' in desk
    listed = chief.get(reverse("selfscore-desk-entries", args=[event.slug, rnd.pk])).content.decode()
    assert 'data-table="1"' in listed
    services.decide_entry(entry, table.referee, action="confirm")
    listed = chief.get(reverse("selfscore-desk-entries", args=[event.slug, rnd.pk])).content.decode()
    assert 'data-table="1"' not in listed
    html = referee.get(reverse("scoring-table", args=[table.match.pk])).content.decode()
    assert 'id="entry-decide"' not in html
    # nothing to decide: the page says who records here, links the players' page and the way round it
    assert 'id="players-record"' in html and "本桌由选手录入" in html and page(table) in html
    assert "裁判或选手均可" in html and 'id="hand-form"' not in html
    assert reverse("floor_tables", args=[event.slug]) in html   # the way back to the referee's own tables


def test_the_table_card_opens_the_players_page_where_they_record(table):
    event, rnd = table.match.round.stage.event, table.match.round
    cards = table_cards(event, PrintOptions(round=rnd.pk, site_url="https://t.example"))
    assert cards.cards[0].url == f"https://t.example/tables/{table.match.pk}/self/" and cards.cards[0].players


def test_after_a_confirmed_hand_the_page_offers_its_correction_through_the_players_api(table):
    entry = services.enter_hand(table.match, table.ns, address=ADDRESS, number=1, inputs=FIRST)
    services.confirm_entry(entry, table.ew, address=ADDRESS)
    html = Client(HTTP_ACCEPT_LANGUAGE="zh-hans").get(page(table)).content.decode()
    api = reverse("api_selfscore_table", args=[table.match.pk])
    assert 'id="correct-last"' in html and 'data-last="1"' in html
    assert f'data-correct-url="{api}"' in html and f'data-record-url="{api}"' in html
    assert 'data-number="1"' in html   # the confirmed hand in the history


def test_the_printouts_page_says_where_the_slips_are_printed(table, make_user):
    organiser = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    organiser.force_login(make_user(roles.ORGANISER))
    event, rnd = table.match.round.stage.event, table.match.round
    html = organiser.get(reverse("printouts", args=[event.slug])).content.decode()
    assert 'id="printout-slips"' in html and "裁判长工作台" in html
    assert reverse("desk", args=[event.slug, rnd.pk]) in html
