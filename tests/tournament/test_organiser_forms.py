"""Issue 33: the organiser's pages (event, staff, stages, draws, referees, clock) validate through Django Forms.
A bad input shows its Chinese sentence next to its field and saves nothing; the event's create and edit pages
share one form, whose rules stay the events service's (the API's too)."""
import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.profile_store import sync_profiles
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round  # noqa: F401
from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.competition import draws, stages, swiss_rounds
from tournament.events.forms import EventForm
from tournament.models import ApiToken, ClockEvent, Draw, Event, EventRole
from tournament.staff.services import add_creator


def next_to(html: str, name: str) -> list[str]:
    """The error sentences inside the <label>s holding an input (or select) named ``name``."""
    labels = [label for label in re.findall(r"<label\b.*?</label>", html, re.S)
              if re.search(rf'name="{re.escape(name)}"', label)]
    assert labels, f"no field {name} on the page"
    return [e for label in labels for e in re.findall(r'<span class="error">(.*?)</span>', label, re.S)]


@pytest.fixture
def organiser(client, make_user):
    user = make_user(roles.ORGANISER)
    client.force_login(user)
    return user


def owned_event(user, **kw):
    event = make_event(4, 2, **kw)
    add_creator(event, user)
    return event


NEW = {"name": "区职工赛", "organising_body": "区总工会", "start_date": "2026-12-05", "end_date": "2026-12-05",
       "venue": "文化宫", "profile": "union-games", "profile_version": "", "format": "groups_elimination",
       "slug": ""}


# --------------------------------------------------------------------------- event create / edit / copy
@pytest.mark.parametrize("field, value, sentence", [
    ("end_date", "2026-12-04", "最后一天不能早于第一天"),        # the service's rule
    ("start_date", "2026-13-40", "请输入日期，例如 2026-12-05。"),  # the form's date field, the service's sentence
    ("name", "赛" * 201, "名称太长（最多 200 个字）。"),
    ("name", "", "请填写赛事名称。"),
    ("venue", "馆" * 201, "太长了（最多 200 个字）。"),
    ("slug", "Not A Slug", "网址只能包含小写字母、数字和连字符。"),
    ("format", "nonsense", "请从列表中选择赛制。"),
    ("profile", "no-such-rules", "请选择比赛规则。"),
])
def test_a_bad_new_event_shows_its_chinese_sentence_next_to_its_field(client, organiser, field, value, sentence):
    sync_profiles()
    answer = client.post(reverse("event_new"), {**NEW, field: value})
    assert answer.status_code == 200
    errors = next_to(answer.content.decode(), field)
    assert errors and sentence in errors[0], (field, errors)
    assert not Event.objects.exists()


def test_create_and_edit_share_one_form(client, organiser):
    sync_profiles()
    assert isinstance(client.get(reverse("event_new")).context["form"], EventForm)
    answer = client.post(reverse("event_new"), NEW)
    event = Event.objects.get()
    assert answer.status_code == 302 and (event.name, event.profile.slug, event.venue) == ("区职工赛", "union-games",
                                                                                           "文化宫")
    page = client.get(reverse("event_edit", args=[event.slug]))
    assert isinstance(page.context["form"], EventForm)
    html = page.content.decode()
    assert 'value="2026-12-05"' in html and 'value="区职工赛"' in html


def test_a_bad_edit_saves_nothing(client, organiser):
    event = owned_event(organiser)
    other = make_event(2, 1)
    values = {"name": "改名", "organising_body": "", "start_date": "2026-12-05", "end_date": "2026-12-06",
              "venue": "", "profile": event.profile.slug, "profile_version": event.profile.version,
              "format": event.format, "slug": other.slug}
    answer = client.post(reverse("event_edit", args=[event.slug]), values)
    assert answer.status_code == 200
    assert any(other.slug in e and "网址" in e for e in next_to(answer.content.decode(), "slug"))
    event.refresh_from_db()
    assert event.name != "改名" and event.end_date == dt.date(2026, 12, 5)


def test_the_format_of_a_drawn_event_stays_whatever_is_posted(client, organiser):
    """The format field is disabled once drawn (its hidden input keeps the page's value); a forged post
    cannot change it."""
    event = owned_event(organiser)
    group_stage = stages.create_stages_from_format(event)[0]
    draws.do_draw(group_stage, "groups", seed="s", user=organiser)
    page = client.get(reverse("event_edit", args=[event.slug])).content.decode()
    assert '<input type="hidden" name="format"' in page
    values = {"name": event.name, "start_date": "2026-12-05", "end_date": "2026-12-05",
              "profile": event.profile.slug, "profile_version": event.profile.version, "format": "swiss"}
    assert client.post(reverse("event_edit", args=[event.slug]), values).status_code == 302
    event.refresh_from_db()
    assert event.format == Event.Format.GROUPS_ELIMINATION and event.end_date == dt.date(2026, 12, 5)


def test_a_bad_copy_shows_its_sentence_and_makes_nothing(client, organiser):
    event = owned_event(organiser)
    answer = client.post(reverse("event_copy", args=[event.slug]),
                         {"name": "复制", "start_date": "2026-12-05", "end_date": "2026-12-01", "slug": ""})
    assert answer.status_code == 200
    assert "最后一天不能早于第一天" in next_to(answer.content.decode(), "end_date")[0]
    assert Event.objects.count() == 1
    answer = client.post(reverse("event_copy", args=[event.slug]),
                         {"name": "复制", "start_date": "", "end_date": "", "slug": "", "with_entries": "on"})
    copy = Event.objects.exclude(pk=event.pk).get()
    assert answer.status_code == 302 and copy.start_date == event.start_date and copy.pairs.count() == 4


# --------------------------------------------------------------------------- staff
def test_a_bad_staff_row_shows_its_sentence_next_to_its_field(client, organiser):
    event = owned_event(organiser)
    before = get_user_model().objects.count()
    url = reverse("event_staff", args=[event.slug])
    for post, field, sentence in (
            ({"role": "table_referee", "display_name": ""}, "display_name", "请填写"),
            ({"role": "table_referee", "display_name": "名" * 151}, "display_name", "最多 150"),
            ({"role": "king", "display_name": "张裁判"}, "role", "请选择角色"),
            ({"role": "table_referee", "display_name": "张裁判", "password": "123"}, "password", "至少")):
        answer = client.post(url, post)
        assert answer.status_code == 200
        errors = next_to(answer.content.decode(), field)
        assert errors and sentence in errors[0], (post, errors)
    assert get_user_model().objects.count() == before and not EventRole.objects.exclude(user=organiser).exists()


def test_a_bad_token_shows_its_sentence_next_to_its_field(client, organiser):
    event = owned_event(organiser)
    answer = client.post(reverse("event_token_create", args=[event.slug]), {"name": "平" * 101, "user": organiser.pk})
    assert "100" in next_to(answer.content.decode(), "name")[0]
    answer = client.post(reverse("event_token_create", args=[event.slug]), {"name": "脚本", "user": 999999})
    assert "请选择" in next_to(answer.content.decode(), "user")[0]
    assert not ApiToken.objects.exists()


def test_a_bad_organiser_account_shows_its_sentence_and_makes_nothing(client, make_user):
    client.force_login(make_user(is_superuser=True))
    before = get_user_model().objects.count()
    answer = client.post(reverse("site_organisers"), {"display_name": "王老师", "username": "bad name!"})
    assert "登录名" in next_to(answer.content.decode(), "username")[0]
    assert get_user_model().objects.count() == before


def test_a_new_organiser_account_says_its_password_works_once_and_where_to_log_in(client, make_user):
    """The staff page's card said both; the organiser accounts' card said neither."""
    client.force_login(make_user(is_superuser=True))
    page = client.post(reverse("site_organisers"), {"display_name": "王老师"}).content.decode()
    created = page[page.index('id="created"'):page.index("</section>")]
    assert "此密码仅可使用一次" in created and "登录网址：http://testserver/accounts/login/" in created


# --------------------------------------------------------------------------- stages and draws
def field_error(html: str, field: str) -> str:
    """The stage pages' sentence for ``field`` (a <p class="error" data-field-error=…> under its input)."""
    found = re.search(rf'data-field-error="{field}">(.*?)</p>', html, re.S)
    assert found, f"no error for {field}"
    return found.group(1)


@pytest.mark.parametrize("post, field, sentence", [
    ({"kind": "round_robin", "name": "小组赛", "n_groups": "0"}, "n_groups", "分组数必须是正整数"),
    ({"kind": "round_robin", "name": "小组赛", "n_groups": "两"}, "n_groups", "分组数必须是正整数"),
    ({"kind": "elimination", "name": "淘汰赛", "places_played": "3"}, "places_played", "2 的幂"),
    ({"kind": "swiss", "name": "瑞士移位", "rounds": "31"}, "rounds", "轮数须为 1 至 30 的整数"),
    ({"kind": "round_robin", "name": "组" * 101}, "name", "阶段名称最多100个字符"),
])
def test_a_bad_new_stage_shows_its_sentence_next_to_its_field(client, organiser, post, field, sentence):
    event = owned_event(organiser)
    answer = client.post(reverse("competition_manage_stages", args=[event.slug]), {"action": "create", **post})
    assert answer.status_code == 400
    assert sentence in field_error(answer.content.decode(), field)
    assert not event.stages.exists()


def test_a_bad_stage_edit_and_void_and_draw_save_nothing(client, organiser):
    event = owned_event(organiser)
    groups, knockout = stages.create_stages_from_format(event)
    edit = reverse("competition_manage_stage_edit", args=[event.slug, groups.pk])
    answer = client.post(edit, {"action": "save", "name": "小组赛", "first_table": "-1"})
    assert answer.status_code == 400 and "起始桌号必须是正整数" in field_error(answer.content.decode(), "first_table")
    answer = client.post(edit, {"action": "delete"})
    assert answer.status_code == 400 and field_error(answer.content.decode(), "confirm")
    draw_page = reverse("competition_manage_stage", args=[event.slug, groups.pk])
    answer = client.post(draw_page, {"kind": "groups", "seed": "s", "n_groups": "0"})
    assert answer.status_code == 400 and "分组数必须是正整数" in field_error(answer.content.decode(), "n_groups")
    assert not Draw.objects.exists()
    assert client.post(draw_page, {"kind": "groups", "seed": "s", "n_groups": "1"}).status_code == 302
    answer = client.post(edit, {"action": "void", "reason": "因" * 201})
    assert answer.status_code == 400 and "原因最多200个字符" in field_error(answer.content.decode(), "reason")
    groups.refresh_from_db()
    assert groups.name == event.stages.get(pk=groups.pk).name and stages.is_drawn(groups)
    assert Draw.objects.count() == 1 and event.stages.count() == 2 and knockout.pk


# --------------------------------------------------------------------------- the chief's clock
@pytest.mark.parametrize("post, field, sentence", [
    ({"action": "add", "minutes": "700"}, "minutes", "请填写 -600 到 600 之间的非零整数分钟。"),
    ({"action": "add", "minutes": "两"}, "minutes", "请填写整数分钟。"),
    ({"action": "add", "minutes": ""}, "minutes", "请填写分钟数。"),               # the service's rule
    ({"action": "table_extra", "minutes": "3", "match": "999999"}, "match", "请选择本轮的一张桌。"),
])
def test_a_bad_clock_change_shows_its_sentence_next_to_its_field(client, chief, post, field, sentence):
    rnd = make_round(tables=1)
    client.force_login(chief)
    url = reverse("clock-chief", args=[rnd.stage.event.slug, rnd.pk])
    client.post(url, {"action": "start", "confirmed": "1"})
    answer = client.post(url, {**post, "confirmed": "1"})
    assert answer.status_code == 400
    assert next_to(answer.content.decode(), field) == [sentence]
    assert not ClockEvent.objects.exclude(kind="start").exists()


def test_numbers_and_ids_are_ascii_and_bounded(client, organiser):
    """A "２" or a 20-digit id is not a number: refused next to its field or above the page, never a 500."""
    event = owned_event(organiser)
    answer = client.post(reverse("competition_manage_stages", args=[event.slug]),
                         {"action": "create", "kind": "round_robin", "name": "小组赛", "n_groups": "２"})
    assert answer.status_code == 400 and "分组数必须是正整数" in field_error(answer.content.decode(), "n_groups")
    for post in ({"match": "9" * 20, "referee": organiser.pk}, {"match": "１", "referee": "9" * 20}):
        answer = client.post(reverse("competition_manage_schedule", args=[event.slug]), post, follow=True)
        assert answer.status_code == 200 and 'class="error' in answer.content.decode()
    assert not event.stages.exists()


def test_a_bad_number_of_swiss_rounds_shows_its_sentence(client, organiser):
    event = owned_event(organiser)
    stage = swiss_rounds.create_swiss_stage(event, name="瑞士移位", rounds=5)
    url = reverse("competition_manage_swiss", args=[event.slug, stage.pk])
    for rounds in ("31", "２"):
        answer = client.post(url, {"action": "rounds", "rounds": rounds})
        assert answer.status_code == 400 and "轮数须为 1 至 30 的整数" in field_error(answer.content.decode(), "rounds")
    stage.refresh_from_db()
    assert stage.settings["rounds"] == 5
