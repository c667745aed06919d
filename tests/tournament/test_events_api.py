"""Events and staff from the API (issue 11): create, change, publish; staff added, listed, removed; errors
as {"field", "detail"} in Chinese; the creator becomes the organiser; slugs from pinyin."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from scoring.profile_store import latest_profile
from tournament import access
from tournament.competition import draws
from tournament.competition.stages import create_stages_from_format
from tournament.events.services import make_slug
from tournament.models import Event, EventRole, Pair, Player, Unit
from tournament.staff.passwords import password_set_by_owner
from tournament.staff.services import create_organiser_account, unique_username


def post(client, path, body):
    return client.post(path, data=json.dumps(body), content_type="application/json")


def patch(client, path, body):
    return client.patch(path, data=json.dumps(body), content_type="application/json")


NEW = {"name": "2026 区职工拖拉机赛", "start_date": "2026-12-05", "end_date": "2026-12-06", "venue": "区文化宫",
       "profile": "union-games", "format": "groups_elimination", "organising_body": "区总工会"}


@pytest.fixture
def organiser(db):
    user, _password = create_organiser_account("王主任")
    password_set_by_owner(user)  # the first login set a password of their own (tests/tournament/test_staff_accounts.py)
    return user


def test_create_event_makes_the_creator_its_organiser(client, organiser):
    client.force_login(organiser)
    response = post(client, "/api/events/", NEW)
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["slug"] == "2026-qzgtljs"   # a long name by its initials (issue 27 item 12)
    assert body["name"] == NEW["name"] and body["profile"] == "union-games" and body["published"] is False
    assert body["profile_version"] >= 1 and body["organising_body"] == "区总工会"
    event = Event.objects.get(slug=body["slug"])
    assert EventRole.objects.filter(event=event, user=organiser, role="organiser").exists()
    assert access.may(organiser, access.MANAGE, event=event)


def test_slug_is_pinyin_and_unique(db, organiser):
    assert make_slug("区职工赛") == "quzhigongsai"
    Event.objects.create(slug="quzhigongsai", name="x", start_date="2026-01-01", end_date="2026-01-01",
                         profile=create_event_profile())
    assert make_slug("区职工赛") == "quzhigongsai-2"
    assert unique_username("张裁判") == "zhangcaipan"


def test_long_names_give_short_addresses_and_logins(db):
    """Issue 27 item 12: a 58-character event address and the login "quzonggonghuizhouxiaomei" are hard to
    type from a card: a long name is shortened to its initials (digits whole), and a number follows a taken one."""
    assert make_slug("2026年深圳市社区居民扑克牌升级大赛") == "2026-nszssqjmpkpsjds"
    assert make_slug("2026 区职工拖拉机赛") == "2026-qzgtljs"
    assert unique_username("区总工会周小梅") == "qzghzxm"
    get_user_model().objects.create_user("qzghzxm")
    assert unique_username("区总工会周小梅") == "qzghzxm2"


def create_event_profile():
    return latest_profile("union-games")


@pytest.mark.parametrize("change,field,words", [
    ({"name": ""}, "name", "名称"),
    ({"end_date": "2026-12-01"}, "end_date", "最后一天"),
    ({"start_date": "12/05"}, "start_date", "日期"),
    ({"profile": "nonsense"}, "profile", "规则"),
    ({"format": "chess"}, "format", "赛制"),
    ({"slug": "Bad Slug"}, "slug", "网址"),
])
def test_bad_input_is_a_chinese_sentence_naming_the_field(client, organiser, change, field, words):
    client.force_login(organiser)
    response = post(client, "/api/events/", {**NEW, **change})
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == field and words in body["detail"], body
    assert "约束" not in body["detail"]


def test_only_accounts_allowed_may_create(client, make_user):
    assert post(client, "/api/events/", NEW).status_code in (401, 403)
    client.force_login(make_user())
    assert post(client, "/api/events/", NEW).status_code == 403


def test_patch_publishes_and_the_format_is_fixed_after_a_draw(client, organiser):
    client.force_login(organiser)
    slug = post(client, "/api/events/", {**NEW, "format": "round_robin"}).json()["slug"]
    response = patch(client, f"/api/events/{slug}/", {"published": True, "venue": "体育馆"})
    assert response.status_code == 200 and response.json()["published"] is True
    event = Event.objects.get(slug=slug)
    assert event.venue == "体育馆"
    create_stages_from_format(event)
    stage = event.stages.first()
    unit = Unit.objects.create(event=event, name="甲单位")
    for i in range(4):
        p1 = Player.objects.create(event=event, unit=unit, name=f"甲{i}", gender="M")
        p2 = Player.objects.create(event=event, unit=unit, name=f"乙{i}", gender="F")
        Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=f"第{i}对")
    draws.draw_groups(stage, seed="x")
    response = patch(client, f"/api/events/{slug}/", {"format": "elimination"})
    assert response.status_code == 400 and response.json()["field"] == "format"
    assert "抽签" in response.json()["detail"]


def test_staff_api(client, organiser, make_user):
    client.force_login(organiser)
    slug = post(client, "/api/events/", NEW).json()["slug"]
    made = post(client, f"/api/events/{slug}/staff/", {"display_name": "张裁判", "role": "chief_referee"})
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["username"] == "zhangcaipan" and body["display_name"] == "张裁判" and body["role"] == "chief_referee"
    assert len(body["password"]) >= 8 and {"id", "user_id"} <= set(body)
    client.logout()  # a one-time password: the login page asks for a new one before logging in
    first = client.post(reverse("login"), {"username": "zhangcaipan", "password": body["password"]})
    assert first.status_code == 302 and first["Location"] == reverse("first_password")
    assert not client.login(username="zhangcaipan", password=body["password"])
    client.force_login(organiser)
    again = post(client, f"/api/events/{slug}/staff/", {"username": "zhangcaipan", "role": "table_referee"})
    assert again.status_code == 201 and "password" not in again.json()
    given = post(client, f"/api/events/{slug}/staff/", {"username": "li-ref", "display_name": "李裁判",
                                                        "role": "table_referee", "password": "secret-123"})
    assert given.status_code == 201 and given.json()["password"] == "secret-123"
    listed = client.get(f"/api/events/{slug}/staff/").json()
    assert {(r["display_name"], r["role"]) for r in listed} >= {("张裁判", "chief_referee"), ("张裁判", "table_referee"),
                                                                ("王主任", "organiser"), ("李裁判", "table_referee")}
    assert all("password" not in r for r in listed)
    bad = post(client, f"/api/events/{slug}/staff/", {"role": "table_referee"})
    assert bad.status_code == 400 and bad.json()["field"] == "display_name"
    role_id = again.json()["id"]
    assert client.delete(f"/api/events/{slug}/staff/{role_id}/").status_code == 204
    assert not EventRole.objects.filter(pk=role_id).exists()
    own = EventRole.objects.get(event__slug=slug, user=organiser)
    last = client.delete(f"/api/events/{slug}/staff/{own.pk}/")
    assert last.status_code == 400 and last.json()["field"] == "role"
    client.force_login(make_user())
    assert client.get(f"/api/events/{slug}/staff/").status_code == 404  # unpublished: not even visible


def test_a_chief_of_event_a_can_do_nothing_in_event_b(db, make_user, organiser):
    a = Event.objects.create(slug="a", name="A", start_date="2026-01-01", end_date="2026-01-01",
                             profile=create_event_profile(), published=True)
    b = Event.objects.create(slug="b", name="B", start_date="2026-01-01", end_date="2026-01-01",
                             profile=create_event_profile(), published=True)
    chief = make_user()
    EventRole.objects.create(event=a, user=chief, role="chief_referee")
    for action in (access.RUN_CLOCK, access.APPROVE, access.DECIDE_FIRST, access.DECIDE_RESULT, access.CLOSE_ROUND):
        assert access.may(chief, action, event=a)
        assert not access.may(make_user_reload(chief), action, event=b)


def make_user_reload(user):
    return type(user).objects.get(pk=user.pk)


def test_superuser_page_creates_an_organiser_who_may_create_events(client, db):
    admin = type(create_organiser_account("x")[0]).objects.create_superuser("root", password="pw-root-123")
    client.force_login(admin)
    page = client.post("/site/organisers/", {"display_name": "区工会 王老师"})
    assert page.status_code == 200
    html = page.content.decode()
    assert "区工会 王老师" in html and "qghwls" in html
    user = type(admin).objects.get(username="qghwls")
    assert user.has_perm("tournament.add_event")
    assert Permission.objects.filter(user=user, codename="add_event").exists()
