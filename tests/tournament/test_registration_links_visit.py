"""Issue 43 item 4: an organiser making five registration links in a row saw only the last one (the key is kept
only as a digest). Every link made in this visit stays on the links page (the organiser's session) until
dismissed or the organiser logs out, and one PDF prints the cards of them all, a page each. A key that stops
opening its page (revoked, replaced) drops out; another organiser's session never shows them."""
import io
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import login
from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.entries import registration_links
from tournament.staff.services import add_creator

UNITS = ("五厂", "六厂", "七厂", "八厂", "九厂")


def _make(client, url, unit):
    return client.post(url, {"action": "create", "unit": unit, "phone": ""}).content.decode()


def _shown_urls(html):
    return re.findall(r'href="(http[^"]*/register/[^"/]+/)"', html)


@pytest.fixture
def organiser(client, make_user, db):
    event = make_event(4, 2)
    user = make_user(roles.ORGANISER)
    add_creator(event, user)
    client.force_login(user)
    return event, user


def test_five_links_in_a_row_stay_on_the_page_and_print_as_one_pdf(client, organiser):
    event, _user = organiser
    url = reverse("entries_links", args=[event.slug])
    for unit in UNITS:
        page = _make(client, url, unit)
    assert 'id="created-link"' in page and "五厂" in page
    html = client.get(url).content.decode()
    shown = set(_shown_urls(html))
    assert len(shown) == 5, shown
    for link_url in shown:                          # every one opens its unit's page
        key = link_url.rstrip("/").rsplit("/", 1)[1]
        assert registration_links.find_link(key).unit.name in UNITS
    assert "一次打印全部 5 张报名卡" in html

    pdf = client.post(reverse("entries_link_cards", args=[event.slug]))
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages]
    assert len(pages) == 5
    assert [next(u for u in UNITS if u in text) for text in pages] == list(UNITS)


def test_a_revoked_or_replaced_link_drops_out_and_dismiss_clears_the_list(client, organiser, make_user):
    event, _user = organiser
    url = reverse("entries_links", args=[event.slug])
    for unit in UNITS[:3]:
        _make(client, url, unit)
    links = {link.unit.name: link for link in event.unit_links.select_related("unit")}
    client.post(url, {"action": "revoke", "link": links["五厂"].pk})
    client.post(url, {"action": "reissue", "link": links["六厂"].pk})
    html = client.get(url).content.decode()
    shown = _shown_urls(html)
    assert len(shown) == 2 and {registration_links.find_link(u.rstrip("/").rsplit("/", 1)[1]).unit.name for u in shown} == {
        "六厂", "七厂"}                                  # 六厂 with its new key only

    other = make_user(roles.ORGANISER)
    add_creator(event, other)
    second = client.__class__()
    second.force_login(other)
    assert not _shown_urls(second.get(url).content.decode())       # the keys are this visit's only

    client.post(url, {"action": "dismiss"})
    html = client.get(url).content.decode()
    assert not _shown_urls(html) and 'id="visit-links"' not in html
    assert client.post(reverse("entries_link_cards", args=[event.slug])).status_code == 302


@pytest.mark.browser
def test_the_links_of_the_visit_on_a_phone(transactional_db, live_server, page, make_user):
    event = make_event(4, 2, slug="visit-links")
    user = make_user(roles.ORGANISER)
    add_creator(event, user)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, user)
    page.goto(f"{live_server.url}{reverse('entries_links', args=[event.slug])}")
    for unit in UNITS[:3]:
        page.fill("#link-form [name=unit]", unit)
        page.click("#link-form button[type=submit]")
        page.locator("#created-link").filter(has_text=unit).wait_for()
    assert page.locator("#visit-links .visit-link-url").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "registration-links-visit-phone.png"), full_page=True)
