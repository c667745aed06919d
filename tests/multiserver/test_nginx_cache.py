"""The README's nginx in front (``config/nginx.conf``, issue 44 item 4), run through a real nginx (Debian's
package, which ``.ci/run`` installs) before gunicorn: anonymous visitors' public pages and the hall's reads are
kept a second or two and served from the cache; a signed-in visitor's page is never kept nor served from it, and
no visitor's token or cookie reaches another.

The file is used as it is but for what a test machine must change (``tools.nginx_front``: the upstream servers,
the listening address, the cache folder, the redirect server)."""
import http.cookiejar
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

from tests.conftest import REPO, TEST_PASSWORD, subprocess_env, wait_for
from tests.tournament.test_clock_fixtures import make_round
from tools import nginx_front
from tournament import roles
from tournament.models import EventRole

pytestmark = pytest.mark.worker


@pytest.fixture(autouse=True)
def _needs_nginx():
    if os.path.exists(nginx_front.NGINX):
        return
    if os.environ.get("CI"):
        pytest.fail("the nginx test needs Debian's nginx: .ci/run installs it")
    pytest.skip("nginx not installed (apt-get install nginx)")


@pytest.fixture
def front(transactional_db, tmp_path):
    """gunicorn (config/gunicorn.py) on the test database, nginx with config/nginx.conf in front: nginx's port."""
    app_port = nginx_front.free_port()
    env = {**subprocess_env(), "GUNICORN_WORKERS": "2"}
    app = subprocess.Popen([sys.executable, "-m", "gunicorn", "config.wsgi", "-c", "config/gunicorn.py",
                            "--bind", f"127.0.0.1:{app_port}"], cwd=REPO, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    proxy = None
    try:
        proxy, port = nginx_front.start(tmp_path, app_port)
        assert wait_for(lambda: status_of(Visitor(port), "/accounts/login/") == 200, timeout=60), "no answer"
        yield port
    finally:
        for proc in (proxy, app):
            if proc is not None:
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
