"""Sharing an event (issue 16): its pages carry Open Graph tags with the event's name, dates and venue and an
image drawn from its name (a PNG, cached per event, new when the event changes); the site has a favicon, touch
icons and an app manifest."""
import datetime as dt
import io
import json
import os
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.urls import reverse
from PIL import Image

from tests.tournament.test_draws_support import make_event
from tournament.competition import draws
from tournament.competition.stages import create_stages_from_format
from tournament.events import share


class MetaTags(HTMLParser):
    """``<meta property|name=... content=...>`` and ``<link rel=... href=...>`` of a page's head."""

    def __init__(self):
        super().__init__()
        self.meta, self.links = {}, {}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and "content" in attrs:
            self.meta.setdefault(attrs.get("property") or attrs.get("name"), attrs["content"])
        if tag == "link":
            self.links.setdefault(attrs.get("rel"), attrs.get("href"))


def meta_of(response):
    parser = MetaTags()
    parser.feed(response.content.decode())
    return parser


@pytest.fixture
def shared_event(db):
    cache.clear()
    event = make_event(4, 2, slug="share-me")
    event.name = "2026年深圳市社区居民扑克牌升级大赛"
    event.venue = "莲花山体育馆"
    event.organising_body = "深圳市福田区文体局"
    event.end_date = dt.date(2026, 12, 6)
    event.save()
    return event


@pytest.mark.parametrize("page", ["event_detail", "competition_schedule", "competition_groups",
                                  "competition_standings", "event_penalty_log"])
def test_event_pages_carry_name_dates_and_venue(client, shared_event, page):
    response = client.get(reverse(page, args=[shared_event.slug]), HTTP_HOST="testserver")
    assert response.status_code == 200
    meta = meta_of(response).meta
    assert meta["og:title"] == shared_event.name
    assert meta["og:description"] == "2026-12-05 – 2026-12-06 · 莲花山体育馆 · 深圳市福田区文体局"
    assert meta["description"] == meta["og:description"]
    assert meta["og:image"] == f"http://testserver/events/{shared_event.slug}/share.png"
    assert meta["og:url"] == f"http://testserver{reverse(page, args=[shared_event.slug])}"
    assert meta["og:site_name"] == "拖拉机赛事"


def test_share_image_is_a_png_of_the_events_name_cached_until_the_event_changes(client, shared_event):
    url = reverse("event_share_image", args=[shared_event.slug])
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(first.content))
    assert image.format == "PNG" and image.size == share.SIZE
    assert len(image.convert("L").getcolors(maxcolors=256)) > 10  # drawn text, not an empty card
    assert cache.get(share.image_key(shared_event)) == first.content
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    shared_event.name = "2027年深圳市社区居民扑克牌升级大赛"
    shared_event.save()
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"] and changed.content != first.content


def test_an_unpublished_events_image_is_not_public(client, shared_event):
    shared_event.published = False
    shared_event.save()
    assert client.get(reverse("event_share_image", args=[shared_event.slug])).status_code == 404
    page = client.get(reverse("home"))
    assert shared_event.name not in page.content.decode()


def test_site_pages_have_favicon_touch_icon_manifest_and_a_default_share(client, db):
    tags = meta_of(client.get(reverse("home")))
    assert tags.meta["og:title"] == "拖拉机赛事" and tags.meta["og:image"].endswith("/static/img/icon-512.png")
    static = Path(django_settings.BASE_DIR) / "static"
    for rel in ("icon", "apple-touch-icon", "manifest"):
        assert tags.links[rel].startswith("/static/")
        assert (static / tags.links[rel].removeprefix("/static/")).is_file()
    manifest = json.loads((static / "manifest.webmanifest").read_text())
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        path = static / icon["src"].removeprefix("/static/")
        if icon["type"] == "image/png":
            assert Image.open(path).size == tuple(int(n) for n in icon["sizes"].split("x"))


@pytest.mark.browser
def test_a_phone_sees_the_share_tags_image_and_download_links(transactional_db, live_server, page, tmp_path):
    """Chromium at 390 × 844: the event page's share tags name the event, its dates and venue; the share image
    loads; the group page offers its .xlsx downloads without widening the page."""
    cache.clear()
    event = make_event(8, 4, slug="share-phone")
    event.name, event.venue = "2026年福田区社区升级赛", "莲花山体育馆"
    event.save()
    groups = create_stages_from_format(event)[0]
    draws.draw_groups(groups, seed="phone")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + reverse("event_detail", args=[event.slug]))
    meta = {name: page.locator(f'meta[property="{name}"]').get_attribute("content")
            for name in ("og:title", "og:description", "og:image", "og:url")}
    assert meta["og:title"] == event.name
    assert "2026-12-05" in meta["og:description"] and "莲花山体育馆" in meta["og:description"]
    assert meta["og:url"] == live_server.url + reverse("event_detail", args=[event.slug])
    image = page.request.get(meta["og:image"])
    assert image.ok and image.headers["content-type"] == "image/png"
    (tmp_path / "share.png").write_bytes(image.body())
    assert Image.open(tmp_path / "share.png").size == share.SIZE
    page.goto(live_server.url + reverse("competition_groups", args=[event.slug]))
    links = page.locator("p.downloads a")
    assert links.count() == 2 and links.nth(0).inner_text() == "排名（.xlsx）"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(Path(os.environ.get("SCREENSHOT_DIR", tmp_path)) / "share-groups-phone.png"))
