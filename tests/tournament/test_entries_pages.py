"""Organiser entry pages and the entries API: permissions, forms, import report, exports, a phone."""
import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape
from openpyxl import Workbook, load_workbook

from scoring.profile_store import latest_profile
from tests.conftest import login
from tournament import roles
from tournament.entries import individuals
from tournament.entries import pairs as entry_pairs
from tournament.entries import services as svc
from tournament.entries.forms import GONE_SIGNUP
from tournament.models import Draw, Event, Registration


@pytest.fixture
def event(db):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug="cup", name="职工杯", start_date=day, end_date=day, published=True,
                                profile=latest_profile("shenzhen-community"))


@pytest.fixture
def organiser(client, make_user):
    client.force_login(make_user(roles.ORGANISER))
    return client


PAIR_POST = {"unit": "甲", "name": "甲一队", "player1": "张三", "gender1": "M", "phone1": "",
             "player2": "李四", "gender2": "F", "phone2": "", "seed": "", "team": ""}


def urls(event):
    pair = entry_pairs.add_pair(event, svc.PairData("甲", svc.PlayerData("王五", "M"), svc.PlayerData("赵六", "M"), "x"))
    names = ["entries_list", "entries_add", "entries_individuals", "entries_import"]
    return ([reverse(n, args=[event.slug]) for n in names]
            + [reverse(n, args=[event.slug, pair.pk]) for n in ("entries_edit", "entries_withdraw", "entries_replace")]
            + [reverse("entries_export", args=[event.slug, "entries"])])


def test_anonymous_is_sent_to_login(client, event):
    for url in urls(event):
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"], url


@pytest.mark.parametrize("role", [roles.TABLE_REFEREE, roles.CHIEF_REFEREE, None])
def test_other_roles_are_refused(client, event, make_user, role):
    client.force_login(make_user(role))
    for url in urls(event):
        assert client.get(url).status_code == 403, url
    assert client.post(reverse("entries_add", args=[event.slug]), PAIR_POST).status_code == 403
    assert event.pairs.count() == 1


def test_organiser_sees_every_page(organiser, event):
    for url in urls(event):
        assert organiser.get(url).status_code == 200, url


def test_add_pair_form(organiser, event):
    response = organiser.post(reverse("entries_add", args=[event.slug]), PAIR_POST)
    assert response.status_code == 302
    page = organiser.get(reverse("entries_list", args=[event.slug])).content.decode()
    assert "甲一队" in page and "张三" in page and "李四" in page


def test_add_pair_form_shows_service_error_on_its_field(organiser, event):
    organiser.post(reverse("entries_add", args=[event.slug]), PAIR_POST)
    response = organiser.post(reverse("entries_add", args=[event.slug]), {**PAIR_POST, "name": "甲二队"})
    assert response.status_code == 200
    assert "重复报名：“甲一队”已是这两名选手" in response.content.decode()
    assert response.context["form"].errors["player1"] == ["重复报名：“甲一队”已是这两名选手"]
    assert event.pairs.count() == 1


def test_edit_withdraw_replace(organiser, event):
    organiser.post(reverse("entries_add", args=[event.slug]), PAIR_POST)
    pair = event.pairs.get()
    edit = reverse("entries_edit", args=[event.slug, pair.pk])
    assert organiser.get(edit).context["form"].initial["player1"] == "张三"
    organiser.post(edit, {**PAIR_POST, "seed": "3"})
    pair.refresh_from_db()
    assert pair.seed == 3
    organiser.post(reverse("entries_replace", args=[event.slug, pair.pk]),
                   {"slot": "2", "player": "钱七", "gender": "F", "phone": ""})
    pair.refresh_from_db()
    assert pair.player2.name == "钱七"


def test_locked_event_says_why(organiser, event):
    Draw.objects.create(event=event, kind=Draw.Kind.GROUPS, seed="9", result={})
    page = organiser.get(reverse("entries_add", args=[event.slug])).content.decode()
    assert "报名已锁定" in page and 'name="player1"' not in page
    response = organiser.post(reverse("entries_add", args=[event.slug]), PAIR_POST)
    assert "报名已锁定" in response.content.decode() and event.pairs.count() == 0


def test_individuals_page_draws_and_shows_seed(organiser, event):
    url = reverse("entries_individuals", args=[event.slug])
    for name in ("A", "B", "C"):
        organiser.post(url, {"action": "add", "unit": "甲", "player1": name, "gender1": "M"})
    response = organiser.post(url, {"action": "draw", "seed": "42"})
    assert "单位“甲”有3人（奇数）" in response.content.decode() and not event.draws.exists()
    organiser.post(url, {"action": "add", "unit": "甲", "player1": "D", "gender1": "F"})
    organiser.post(url, {"action": "draw", "seed": "42"})
    page = organiser.get(url).content.decode()
    assert event.pairs.count() == 2 and '<strong class="seed">42</strong>' in page


def test_withdrawing_an_unknown_or_drawn_sign_up_is_refused_where_it_is(organiser, event):
    """Issue 33: the sign-up to withdraw reads through a Form; a refusal is said on the page, nothing changes."""
    url = reverse("entries_individuals", args=[event.slug])
    for name in ("A", "B"):
        organiser.post(url, {"action": "add", "unit": "甲", "player1": name, "gender1": "M"})
    organiser.post(url, {"action": "draw", "seed": "7"})
    drawn = event.registrations.order_by("pk").first()
    other = Event.objects.create(slug="other", name="别的", start_date=event.start_date, end_date=event.end_date,
                                 profile=event.profile)
    stranger = individuals.add_individual(other, "乙", svc.PlayerData("C", "M"))
    for pk in (stranger.pk, 10**6, "abc", "²", ""):
        page = organiser.post(url, {"action": "withdraw", "registration": pk}).content.decode()
        error = page.split('data-field-error="registration">')[1].split("<")[0]
        assert error == escape(GONE_SIGNUP) and 'class="grid"' in page.split(error)[1], pk   # above the list
    page = organiser.post(url, {"action": "withdraw", "registration": drawn.pk}).content.decode()
    row = page.split(f"<td>{drawn.player.name}</td>")[1].split("</tr>")[0]
    assert "已抽签组队" in row.split('data-field-error="registration">')[1]              # in the sign-up's row
    assert not Registration.objects.filter(status=Registration.Status.WITHDRAWN).exists()
    organiser.post(url, {"action": "add", "unit": "甲", "player1": "D", "gender1": "M"})
    late = event.registrations.get(player__name="D")
    assert organiser.post(url, {"action": "withdraw", "registration": late.pk}).status_code == 302
    late.refresh_from_db()
    assert late.status == Registration.Status.WITHDRAWN


def xlsx(rows):
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


HEADER = ["单位", "对名", "选手1", "性别1", "选手2", "性别2"]


def test_import_page_reports_errors_as_table_and_saves_nothing(organiser, event):
    raw = xlsx([HEADER, ["甲", "一队", "张三", "男", "李四", "男"], ["甲", "二队", "王五", "?", "赵六", "男"],
                ["", "三队", "孙八", "男", "钱七", "男"]])
    response = organiser.post(reverse("entries_import", args=[event.slug]),
                              {"file": SimpleUploadedFile("e.xlsx", raw)})
    html = response.content.decode()
    assert response.status_code == 200 and [e.row for e in response.context["errors"]] == [3, 4]
    assert "<td>3</td><td>性别1</td>" in html and "<td>4</td><td>单位</td>" in html
    assert event.pairs.count() == 0


def test_import_page_success(organiser, event):
    raw = "单位,选手1,性别1,选手2,性别2\r\n甲,张三,男,李四,女\r\n".encode("gbk")
    response = organiser.post(reverse("entries_import", args=[event.slug]),
                              {"file": SimpleUploadedFile("e.csv", raw)})
    assert response.status_code == 302 and event.pairs.get().name == "张三/李四"


@pytest.mark.parametrize("what, title", [("entries", "报名"), ("schedule", "赛程"), ("results", "成绩"),
                                          ("template", "报名")])
def test_export_downloads(organiser, event, what, title):
    entry_pairs.add_pair(event, svc.PairData("甲", svc.PlayerData("王五", "M"), svc.PlayerData("赵六", "F"), "x"))
    response = organiser.get(reverse("entries_export", args=[event.slug, what]))
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames[0] == title
    if what == "entries":
        assert [c.value for c in book[title][2]][:3] == ["甲", "x", "王五"]


def test_unknown_export_is_404(organiser, event):
    assert organiser.get(reverse("entries_export", args=[event.slug, "nope"])).status_code == 404


# --------------------------------------------------------------------------- API
API_PAIR = {"unit": "甲", "name": "一队", "player1": {"name": "张三", "gender": "M", "phone": "138"},
            "player2": {"name": "李四", "gender": "F"}}


def test_api_lists_entries_without_phones(client, event):
    entry_pairs.add_pair(event, svc.PairData("甲", svc.PlayerData("王五", "M", "139"), svc.PlayerData("赵六", "F"), "x"))
    data = client.get(f"/api/events/{event.slug}/entries/").json()
    assert data == [{"id": data[0]["id"], "name": "x", "unit": "甲", "seed": None, "team": "", "reserve": False,
                     "status": "active", "player1": {"name": "王五", "gender": "M"},
                     "player2": {"name": "赵六", "gender": "F"}}]


def test_api_create_needs_organiser(client, event, make_user):
    url = f"/api/events/{event.slug}/entries/"
    assert client.post(url, API_PAIR, content_type="application/json").status_code in (401, 403)
    client.force_login(make_user(roles.TABLE_REFEREE))
    assert client.post(url, API_PAIR, content_type="application/json").status_code == 403
    client.force_login(make_user(roles.ORGANISER))
    response = client.post(url, API_PAIR, content_type="application/json")
    assert response.status_code == 201 and response.json()["name"] == "一队"
    again = client.post(url, {**API_PAIR, "name": "二队"}, content_type="application/json")
    assert again.status_code == 400 and again.json() == {"code": "invalid", "detail": "重复报名：“一队”已是这两名选手",
                                                         "field": "player1"}


# --------------------------------------------------------------------------- a real phone
@pytest.mark.browser
def test_add_pair_form_on_a_360px_phone(transactional_db, live_server, phone, make_user):
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug="phone", name="手机测试", start_date=day, end_date=day,
                                 profile=latest_profile("shenzhen-community"))
    login(phone, live_server, make_user(roles.ORGANISER, username="org"))
    phone.goto(f"{live_server.url}{reverse('entries_add', args=[event.slug])}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    box = phone.locator("form:not(.publish-reminder) button[type=submit].primary").bounding_box()
    assert box["height"] >= 44 and box["width"] >= 300
    phone.fill("input[name=unit]", "甲")
    phone.fill("input[name=player1]", "张三")
    phone.fill("input[name=player2]", "张三")
    phone.click("form:not(.publish-reminder) button[type=submit].primary")
    assert "同一个人" in phone.locator(".error").first.inner_text()
    phone.fill("input[name=player2]", "李四")
    phone.select_option("select[name=gender2]", "F")
    phone.click("form:not(.publish-reminder) button[type=submit].primary")
    phone.wait_for_url(f"**{reverse('entries_list', args=[event.slug])}")
    assert "张三/李四" in phone.content()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    assert event.pairs.get().player2.gender == "F"
