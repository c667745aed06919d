"""The README's nginx in front (``config/nginx.conf``, issue 44 item 4), run through a real nginx (Debian's
package, which ``.ci/run`` installs) before gunicorn: anonymous visitors' public pages and the hall's reads are
kept a second or two and served from the cache; a signed-in visitor's page is never kept nor served from it, and
no visitor's token or cookie reaches another.

The file is used as it is but for what a test machine must change (checked to match exactly once each): the
upstream servers (one gunicorn here), the listening address (no TLS), the cache folder, the redirect server."""
import http.cookiejar
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

from tests.conftest import REPO, TEST_PASSWORD, subprocess_env, wait_for
from tests.tournament.test_clock_fixtures import make_round
from tournament import roles
from tournament.models import EventRole

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

pytestmark = pytest.mark.worker


@pytest.fixture(autouse=True)
def _needs_nginx():
    if os.path.exists(NGINX):
        return
    if os.environ.get("CI"):
        pytest.fail("the nginx test needs Debian's nginx: .ci/run installs it")
    pytest.skip("nginx not installed (apt-get install nginx)")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def replaced(text, pattern, new):
    out, count = re.subn(pattern, new, text, flags=re.M | re.S)
    assert count == 1, f"config/nginx.conf changed shape: {pattern!r} matched {count} times"
    return out


def nginx_conf(root, app_port, port):
    """config/nginx.conf with this machine's servers, address and folders, inside a whole nginx.conf."""
    text = (REPO / "config" / "nginx.conf").read_text(encoding="utf-8")
    text = replaced(text, r"/var/cache/nginx/tractor", str(root / "cache"))
    text = replaced(text, r"    server 10\.0\.0\.11:8000[^\n]*\n    server 10\.0\.0\.12:8000[^\n]*\n",
                    f"    server 127.0.0.1:{app_port};\n")
    text = replaced(text, r"server \{\n    listen 80;.*?\n\}\n", "")
    text = replaced(text, r"    listen 443 ssl;\n", f"    listen 127.0.0.1:{port};\n")
    text = replaced(text, r"    ssl_certificate [^\n]*\n    ssl_certificate_key [^\n]*\n", "")
    temp = "\n".join(f"{kind}_temp_path {root / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi",
                                                                      "scgi"))
    user = "user root;" if os.geteuid() == 0 else ""
    return (f"{user}\ndaemon off;\npid {root / 'nginx.pid'};\nerror_log {root / 'error.log'} warn;\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{\naccess_log off;\n{temp}\n{text}\n}}\n")


@pytest.fixture
def front(transactional_db, tmp_path):
    """gunicorn (config/gunicorn.py) on the test database, nginx with config/nginx.conf in front: nginx's port."""
    app_port, port = free_port(), free_port()
    env = {**subprocess_env(), "GUNICORN_WORKERS": "2"}
    app = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "config/gunicorn.py",
                            "--bind", f"127.0.0.1:{app_port}"], cwd=REPO, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    (tmp_path / "cache").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(tmp_path, app_port, port), encoding="utf-8")
    check = subprocess.run([NGINX, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    proxy = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(tmp_path)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        assert wait_for(lambda: status_of(Visitor(port), "/accounts/login/") == 200, timeout=60), "no answer"
        yield port
    finally:
        for proc in (proxy, app):
            proc.terminate()
            proc.wait(timeout=20)


class Visitor:
    """A browser: its own cookie jar."""

    def __init__(self, port):
        self.port = port
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path):
        answer = self.opener.open(f"http://127.0.0.1:{self.port}{path}", timeout=10)
        return answer, answer.read().decode()

    def login(self, username):
        _answer, page = self.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        body = urllib.parse.urlencode({"username": username, "password": TEST_PASSWORD,
                                       "csrfmiddlewaretoken": token}).encode()
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/accounts/login/", data=body,
                                         headers={"Referer": f"http://127.0.0.1:{self.port}/accounts/login/"})
        self.opener.open(request, timeout=10).read()
        assert any(cookie.name == "sessionid" for cookie in self.jar)


def status_of(visitor, path):
    try:
        return visitor.get(path)[0].status
    except OSError:
        return None


def cached(answer):
    return answer.headers.get("X-Cache-Status")


def test_an_anonymous_visitors_public_page_and_the_hall_reads_come_from_the_cache(front):
    rnd = make_round()
    slug = rnd.stage.event.slug
    first, second = Visitor(front), Visitor(front)
    for path in (f"/events/{slug}/", f"/events/{slug}/schedule/", f"/events/{slug}/live.json?rounds={rnd.pk}",
                 f"/api/rounds/{rnd.pk}/clock/"):
        answer, body = first.get(path)
        again, body_again = second.get(path)
        assert cached(answer) in ("MISS", "EXPIRED") and cached(again) == "HIT", (path, answer.headers)
        assert "Set-Cookie" not in answer.headers and "Set-Cookie" not in again.headers, path
        assert "csrfmiddlewaretoken" not in body, path


def test_a_signed_in_visitors_page_is_never_kept_nor_served_from_the_cache(front, make_user):
    rnd = make_round()
    event = rnd.stage.event
    organiser = make_user(username="zhangsan", first_name="张三丰")
    EventRole.objects.create(event=event, user=organiser, role=roles.ORGANISER)
    anonymous, staff = Visitor(front), Visitor(front)
    anonymous.get(f"/events/{event.slug}/")          # an anonymous copy in the cache
    staff.login("zhangsan")
    for _ in range(2):
        answer, page = staff.get(f"/events/{event.slug}/")
        assert cached(answer) == "BYPASS" and "张三丰" in page      # the organiser's own page, never the copy
    time.sleep(2.5)                                    # past every copy's life
    answer, page = anonymous.get(f"/events/{event.slug}/")
    assert "张三丰" not in page and "zhangsan" not in page   # the organiser's page was never kept


def test_no_visitors_token_or_cookie_reaches_another(front):
    first, second = Visitor(front), Visitor(front)
    answers = [visitor.get("/accounts/login/") for visitor in (first, second)]
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1) for _a, page in answers]
    cookies = [{c.name: c.value for c in visitor.jar}.get("csrftoken") for visitor in (first, second)]
    assert all(cached(answer) != "HIT" for answer, _page in answers)
    assert tokens[0] != tokens[1] and cookies[0] and cookies[1] and cookies[0] != cookies[1]
