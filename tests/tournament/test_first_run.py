"""A fresh install's first site administrator, made in the browser (no shell): ``make run`` prints the
set-up page's address and a setup code; the page makes the administrator for whoever gives the code, and
is gone once there is one."""
import io
import threading
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client

from tournament.staff import first_run

pytestmark = pytest.mark.django_db(transaction=True)   # the code is forgotten on commit
PASSWORD = "tuolaji-2026-sheng"


@pytest.fixture(autouse=True)
def fresh_code():
    first_run.forget_code()
    yield
    first_run.forget_code()


def printed_code():
    out = io.StringIO()
    call_command("first_run", "--address", "http://127.0.0.1:8000", stdout=out)
    return out.getvalue()


def body(code, **extra):
    return {"code": code, "display_name": "区工会 李主任", "username": "lizhuren", "new_password1": PASSWORD,
            "new_password2": PASSWORD, **extra}


def test_the_command_prints_the_page_and_a_code_kept_until_used():
    said = printed_code()
    code = first_run.issue_code()
    assert "http://127.0.0.1:8000/setup/" in said and code in said
    assert printed_code() == said   # the same code each start until it is used
    assert (settings.VAR_DIR / "setup-code").stat().st_mode & 0o077 == 0   # the server's account only


def test_the_home_page_points_a_fresh_install_to_the_set_up(client):
    page = client.get("/").content.decode()
    assert 'id="first-run"' in page and "/setup/" in page and "本站还没有管理员" in page


def test_a_wrong_code_is_refused_next_to_its_field_and_nothing_is_made(client):
    first_run.issue_code()
    page = client.post("/setup/", body("AAAA-AAAA")).content.decode()
    assert "这不是服务器终端里显示的设置码。" in page
    assert not User.objects.exists()


def test_a_weak_password_or_a_bad_login_name_is_refused_by_its_field(client):
    code = first_run.issue_code()
    page = client.post("/setup/", body(code, username="li zhuren", new_password1="123", new_password2="123")).content.decode()
    assert "登录名只能包含字母、数字和 . @ + - _。" in page
    assert "密码太短：至少需要 8 个字符。" in page and "这个密码太常见了。" in page
    assert page.count('class="has-error"') == 2
    assert not User.objects.exists()


def test_the_right_code_makes_the_administrator_logs_in_and_closes_the_page(client):
    code = first_run.issue_code()
    response = client.post("/setup/", body(code.lower().replace("-", " ")))
    assert response.status_code == 302 and response["Location"] == "/site/organisers/"
    admin = User.objects.get(username="lizhuren")
    assert admin.is_superuser and admin.is_staff and admin.first_name == "区工会 李主任"
    assert admin.check_password(PASSWORD)
    assert client.get("/site/organisers/").status_code == 200   # logged in, as the administrator
    assert not (settings.VAR_DIR / "setup-code").exists()
    assert client.get("/setup/").status_code == 404
    assert printed_code() == ""
    client.logout()
    assert 'id="first-run"' not in client.get("/").content.decode()


# --------------------------------------------------------------------------- issue 46 item 2
def test_right_codes_posted_at_once_make_one_administrator():
    """Eight right posts at once (real threads, each its own connection): one administrator; the others are
    refused (the page gone, the lock's re-check, or the code already forgotten), none is a 500."""
    code = first_run.issue_code()
    start = threading.Barrier(8)

    def post(n):
        try:
            start.wait()
            return Client(REMOTE_ADDR=f"10.46.2.{n}").post("/setup/", body(code, username=f"admin{n}")).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(post, range(8)))
    assert User.objects.filter(is_superuser=True).count() == 1, answers
    assert answers.count(302) == 1 and set(answers) <= {302, 200, 404, 409}, answers


def test_the_lock_re_checks_inside_the_transaction():
    """A post that passed the page's first check after another made the administrator is refused by the
    service itself, next to nothing half-saved."""
    first_run.make_administrator("first", "甲", PASSWORD)
    with pytest.raises(ValueError) as refused:
        first_run.make_administrator("second", "乙", PASSWORD)
    assert refused.value.status == 409
    assert list(User.objects.values_list("username", flat=True)) == ["first"]


def test_setup_posts_are_throttled_per_address_like_logins(client, settings):
    settings.API_THROTTLE_RATES = {"anon": None, "user": None, "login": "3/min"}
    code = first_run.issue_code()
    for _ in range(3):
        assert client.post("/setup/", body("AAAA-AAAA"), REMOTE_ADDR="10.46.2.100").status_code == 200
    with mock.patch.object(first_run, "code_ok") as checked:
        response = client.post("/setup/", body(code), REMOTE_ADDR="10.46.2.100")
    checked.assert_not_called()   # a throttled post reads no code
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "尝试次数过多" in response.content.decode() and not User.objects.exists()
    assert client.post("/setup/", body(code), REMOTE_ADDR="10.46.2.101").status_code == 302


def test_wrong_codes_lock_the_address_out_like_failed_logins(client, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    code = first_run.issue_code()
    for _ in range(3):
        assert client.post("/setup/", body("AAAA-AAAA"), REMOTE_ADDR="10.46.2.200").status_code == 200
    response = client.post("/setup/", body(code), REMOTE_ADDR="10.46.2.200")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "设置码错误次数过多" in response.content.decode() and not User.objects.exists()
    assert client.post("/setup/", body(code), REMOTE_ADDR="10.46.2.201").status_code == 302
