"""Issue #17 item 9: an unpublished event does not exist for anonymous visitors (404, never 403), every
answer carries a Content-Security-Policy and a Permissions-Policy, and Swagger UI's assets are served by
the site itself (no CDN)."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse

from demo.hands import scratch_match
from tournament import roles


@pytest.fixture
def hidden(db, make_user):
    """An unpublished event with a match (and its round, stage)."""
    match = scratch_match(referees=[make_user(roles.TABLE_REFEREE)], published=False)
    return match.round.stage.event, match


def hidden_urls(event, match):
    slug, rnd, stage = event.slug, match.round, match.round.stage
    return [
        f"/events/{slug}/", f"/events/{slug}/schedule/", f"/events/{slug}/groups/", f"/events/{slug}/bracket/",
        f"/events/{slug}/standings/", f"/events/{slug}/swiss/", f"/events/{slug}/units/",
        f"/events/{slug}/penalties/", f"/events/{slug}/rounds/{rnd.pk}/display/",
        f"/tables/{match.pk}/", f"/matches/{match.pk}/penalties/",
        f"/api/events/{slug}/", f"/api/events/{slug}/entries/", f"/api/events/{slug}/stages/",
        f"/api/events/{slug}/ranking/", f"/api/events/{slug}/rulings/",
        f"/api/stages/{stage.pk}/", f"/api/stages/{stage.pk}/matches/", f"/api/stages/{stage.pk}/standings/",
        f"/api/stages/{stage.pk}/draws/", f"/api/rounds/{rnd.pk}/clock/",
        f"/api/matches/{match.pk}/state/", f"/api/matches/{match.pk}/hands/", f"/api/matches/{match.pk}/lead/",
        f"/api/matches/{match.pk}/rulings/",
    ]


def test_anonymous_visitors_get_404_for_everything_of_an_unpublished_event(client, hidden):
    event, match = hidden
    answers = {url: client.get(url).status_code for url in hidden_urls(event, match)}
    assert {url: code for url, code in answers.items() if code != 404} == {}


def test_the_same_addresses_answer_once_published(client, hidden):
    event, match = hidden
    event.published = True
    event.save(update_fields=["published"])
    for url in (f"/events/{event.slug}/penalties/", f"/api/events/{event.slug}/rulings/",
                f"/api/matches/{match.pk}/state/"):
        assert client.get(url).status_code == 200, url


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/events/", "/api/docs/", "/no-such-page/"])
def test_every_answer_carries_csp_and_permissions_policy(client, db, path):
    response = client.get(path)
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "script-src 'self';" in csp
    assert "'unsafe-inline'" not in csp if path != "/api/docs/" else "script-src 'self';" in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]


def test_no_page_template_holds_an_inline_script_or_handler():
    """CSP forbids inline scripts, event-handler attributes and javascript: links: none are left."""
    root = Path(__file__).resolve().parent.parent / "templates"
    bad = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+=\"|javascript:|\sstyle=\"", re.I)
    found = {str(p.relative_to(root)): bad.findall(p.read_text()) for p in root.rglob("*.html")}
    assert {k: v for k, v in found.items() if v} == {}


def test_swagger_ui_is_served_locally(client, db):
    page = client.get("/api/docs/").content.decode()
    assert "cdn.jsdelivr" not in page and "unpkg" not in page and "@latest" not in page
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assets = [s for s in sources if "swagger" in s.lower()]
    assert assets and all(s.startswith("/") for s in assets), sources
    assert "<script>" not in page.replace(" ", "")  # the set-up script is a separate file (CSP)
    for asset in assets:  # each one a file of the site's static files (drf-spectacular-sidecar)
        path = asset.split("?")[0]
        if path.startswith(settings.STATIC_URL) or path.startswith("/" + settings.STATIC_URL):
            assert finders.find(path.split(settings.STATIC_URL, 1)[1]), asset
        else:
            assert client.get(asset).status_code == 200, asset


def test_the_login_page_language_switch_and_back_link_use_the_site_script(client, db):
    page = client.get(reverse("login")).content.decode()
    assert re.search(r'<script src="/static/js/site\.js"', page)
    assert "onchange" not in page
