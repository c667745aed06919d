"""A person's name on pages and printouts (common.names.display_name): a Chinese name family name first with
no space, any other name "first last", an account without a name by its login name."""
import datetime as dt
from types import SimpleNamespace

import pytest
from django.urls import reverse

from common.names import display_name, full_name
from scoring.profile_store import latest_profile
from tournament import roles
from tournament.models import Event
from tournament.templatetags.names import display_name as display_name_filter


class Person(SimpleNamespace):
    def get_username(self):
        return self.username


def person(first="", last="", username="wangming"):
    return Person(first_name=first, last_name=last, username=username)


@pytest.mark.parametrize("first, last, shown", [
    ("明", "王", "王明"),                 # Chinese: family name first, no space
    ("小明", "欧阳", "欧阳小明"),
    ("张裁判", "", "张裁判"),             # the staff pages keep the whole display name in first_name
    ("", "王", "王"),
    ("Anna", "Smith", "Anna Smith"),      # Latin: first last
    ("Anna", "", "Anna"),
    ("", "Smith", "Smith"),
    ("Ming", "王", "王Ming"),             # mixed: a CJK part gives the Chinese order
    ("明", "Wang", "Wang明"),
    ("  明 ", " 王 ", "王明"),            # surrounding spaces are not part of the name
    ("ひろし", "山田", "山田ひろし"),       # Japanese and Korean are written family name first too
    ("민준", "김", "김민준"),
])
def test_the_name_in_its_scripts_order(first, last, shown):
    assert full_name(first, last) == shown
    assert display_name(person(first, last)) == shown


@pytest.mark.parametrize("first, last", [("", ""), ("  ", " ")])
def test_an_account_without_a_name_is_shown_by_its_login_name(first, last):
    assert display_name(person(first, last, username="referee7")) == "referee7"


def test_no_user_is_no_name():
    assert display_name(None) == "" and display_name_filter(None) == ""


def test_a_django_user_and_the_template_filter(make_user):
    user = make_user(first_name="明", last_name="王")
    assert user.get_full_name() == "明 王"   # Django's order, which the pages no longer show
    assert display_name(user) == display_name_filter(user) == "王明"
    assert display_name(make_user(username="nameless")) == "nameless"


def test_the_page_header_and_the_referee_list_show_the_chinese_order(client, make_user):
    organiser = make_user(roles.ORGANISER, first_name="红", last_name="李")
    make_user(roles.TABLE_REFEREE, first_name="明", last_name="王")
    event = Event.objects.create(slug="names", name="姓名赛", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=latest_profile("shenzhen-community"))
    client.force_login(organiser)
    page = client.get(reverse("competition_manage_referees", args=[event.slug])).content.decode()
    assert '<span class="who">李红</span>' in page
    assert "<b>王明</b>" in page and '<option value="' in page and ">王明</option>" in page
    assert "明 王" not in page and "红 李" not in page
