"""A fresh install's first site administrator, made in the browser (no shell): ``make run`` prints the
set-up page's address and a setup code; the page makes the administrator for whoever gives the code, and
is gone once there is one."""
import io

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command

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
