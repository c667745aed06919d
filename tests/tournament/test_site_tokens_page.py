"""A page for one's own site-wide organiser tokens (issue 29 item 2): an organiser makes one in the browser's
page, sees its key once (never kept by a cache), a program creates an event with it, and revoking it ends
that; an account that may not create events is refused the page."""
import re

from django.urls import reverse
from rest_framework.test import APIClient

from tournament import roles

EVENT = {"name": "区工会杯", "start_date": "2026-12-05", "end_date": "2026-12-05", "profile": "union-games"}


def test_an_organiser_makes_uses_and_revokes_a_site_token_on_the_page(client, make_user):
    organiser = make_user(roles.ORGANISER)
    client.force_login(organiser)
    assert reverse("site_tokens") in client.get(reverse("home")).content.decode()
    assert "请给令牌起个名字" in client.post(reverse("site_tokens"), {"name": ""}).content.decode()
    answer = client.post(reverse("site_tokens"), {"name": "成绩导入脚本"})
    html = answer.content.decode()
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    key = html.split('<code class="token-key">')[1].split("</code>")[0]
    assert key.startswith("trk_") and "已创建令牌“成绩导入脚本”。" in html
    program = APIClient(HTTP_AUTHORIZATION=f"Bearer {key}")
    made = program.post("/api/events/", EVENT, format="json")
    assert made.status_code == 201, made.content
    assert key not in client.get(reverse("site_tokens")).content.decode()     # shown only once
    page = client.get(reverse("site_tokens")).content.decode()
    [pk] = re.findall(r"/site/tokens/(\d+)/revoke/", page)
    assert client.post(reverse("site_token_revoke", args=[int(pk)])).status_code == 302
    assert "已撤销" in client.get(reverse("site_tokens")).content.decode()
    assert program.post("/api/events/", {**EVENT, "name": "再来一个"}, format="json").status_code == 401


def test_an_account_that_may_not_create_events_is_refused(client, make_user):
    client.force_login(make_user(roles.TABLE_REFEREE))
    assert client.get(reverse("site_tokens")).status_code == 403
