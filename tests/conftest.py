"""Shared fixtures: users per role, frozen time, a real Celery worker, and headless Chromium."""
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest
from django.core import signals
from django.core.cache import cache
from django.db import close_old_connections, transaction
from django.test import override_settings

from common.errors import UserError
from infra.auth import UserThrottle

# Live-server browser tests call the ORM from Playwright's event loop thread.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

REPO = Path(__file__).resolve().parent.parent
SEEDS = REPO.parent / "shared" / "seeds"   # the rule documents' originals, beside the clone (CI lays them there too)
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


TEST_PASSWORD = "pw-for-tests"  # every make_user account's password


@contextmanager
def connection_kept():
    """Like Django's test client: requests do not close the test's connection (its transaction holds the
    demo data). Entered after the last use of the test client, which connects the closing again."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def reads_of(model, queries) -> int:
    """How many of the captured ``queries`` (``CaptureQueriesContext``) read ``model``'s table."""
    return sum(f'FROM "{model._meta.db_table}"' in query["sql"] for query in queries.captured_queries)


@contextmanager
def refused(field):
    """Expect a user error (common.errors.UserError) naming ``field``; yields pytest's ExceptionInfo."""
    with pytest.raises(UserError) as caught:
        yield caught
    assert caught.value.field == field, (caught.value.field, str(caught.value))


# --- throttles ----------------------------------------------------------------------------

@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing():
    """Passwords hashed at a thousand iterations (``tests.hashers``): the suite makes thousands of users."""
    with override_settings(PASSWORD_HASHERS=["tests.hashers.QuickPBKDF2PasswordHasher",
                                             "django.contrib.auth.hashers.PBKDF2PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _no_throttles(settings):
    """Every test client shares one address, reused user ids and login names, and (with Redis) a cache
    that outlives each test: the API and login throttles and the login lockout are off unless a test sets
    them itself (tests/test_authentication.py)."""
    settings.API_THROTTLE_RATES = {"anon": None, "user": None, "login": None}
    settings.LOGIN_FAILURE_LIMIT = 10**9
    UserThrottle.cache.clear()   # per-process counts (infra.auth.UserThrottle): none left from another test


@pytest.fixture(autouse=True)
def _no_page_cache(settings):
    """A test reads the public pages fresh (it may change rows behind the services' back); the page cache's own
    tests (tests/tournament/test_page_cache.py) turn it on."""
    from tournament import pagecache

    settings.PUBLIC_PAGE_CACHE = False
    pagecache.forget_rows()  # a test database reuses ids (SQLite): no row's event is remembered from another test
    cache.clear()  # nor a round's cached hall display (tournament.competition.display_cache): round 1 may be another event's


# --- append-only tables and the test flush (PostgreSQL) --------------------------------------

@pytest.fixture(scope="session", autouse=True)
def _flush_may_truncate(request):
    """On PostgreSQL the append-only tables refuse TRUNCATE unless the session has
    ``tractor.allow_truncate = on``; the flush between transactional tests truncates, so the test
    database (only it) allows it for every connection. tests/test_append_only.py turns it off to check
    the refusal."""
    from django.conf import settings

    from infra.appendonly import ALLOW_TRUNCATE_SETTING

    if not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        return
    request.getfixturevalue("django_db_setup")
    blocker = request.getfixturevalue("django_db_blocker")
    from django.db import connection

    with blocker.unblock(), connection.cursor() as cursor:
        name = connection.settings_dict["NAME"]
        cursor.execute(f'ALTER DATABASE "{name}" SET {ALLOW_TRUNCATE_SETTING} = \'on\'')
        cursor.execute(f"SET {ALLOW_TRUNCATE_SETTING} = 'on'")


# --- roles -------------------------------------------------------------------------------

@pytest.fixture
def make_user(db):
    """Create a user holding the given role (a tournament.roles name), or none."""
    from django.contrib.auth.models import Group, Permission, User
    from django.contrib.contenttypes.models import ContentType

    from tournament.roles import sync_role_groups

    sync_role_groups(Group, Permission, ContentType)  # a transactional test's flush removes migration data
    counter = iter(range(1, 10_000))

    def make(role=None, username=None, **extra):
        user = User.objects.create_user(username=username or f"{role or 'user'}{next(counter)}",
                                        password=TEST_PASSWORD, **extra)
        if role:
            user.groups.add(Group.objects.get(name=role))
        return user

    return make


@pytest.fixture
def fresh_counters():
    """An empty cache: the counters kept there (wrong side codes per table and address) start at nothing, also
    where a rolled-back test's ids come again (SQLite)."""
    cache.clear()


# --- time --------------------------------------------------------------------------------

@pytest.fixture
def frozen_now():
    """Freeze infra.clock.now() at a fixed moment; the handle's advance(minutes=..) moves it."""
    import datetime as dt

    from infra import clock

    with clock.frozen(dt.datetime(*FROZEN_AT, tzinfo=dt.timezone.utc)) as handle:
        yield handle


# --- the demo event, seeded once for a module -------------------------------------------------

FROZEN_AT = (2026, 12, 5, 1, 0)   # frozen_now's moment


@contextmanager
def _seeded_for_the_module(django_db_blocker, *, frozen: bool):
    """The demo event seeded in a transaction open for the module and rolled back after it (seeding takes
    seconds); each test's own transaction is a savepoint in it, rolled back after the test, so every test
    finds the demo as seeded. Only for a module with no transactional or live-server test: their flush
    would end the module's transaction."""
    import datetime as dt

    from demo.event import seed_demo
    from infra import clock

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            with clock.frozen(dt.datetime(*FROZEN_AT, tzinfo=dt.timezone.utc)) if frozen else nullcontext():
                event = seed_demo()[0]
        except BaseException:
            outer.__exit__(*sys.exc_info())
            raise
    try:
        yield event
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.fixture(scope="module")
def demo_for_module(django_db_setup, django_db_blocker):
    """The demo event, seeded once for the module (see :func:`_seeded_for_the_module`)."""
    with _seeded_for_the_module(django_db_blocker, frozen=False) as event:
        yield event


@pytest.fixture(scope="module")
def frozen_demo_for_module(django_db_setup, django_db_blocker):
    """The same, seeded at ``frozen_now``'s moment."""
    with _seeded_for_the_module(django_db_blocker, frozen=True) as event:
        yield event


def fresh_demo(seeded):
    """The module's demo event read anew, the cache emptied (the ids are the same in every test of the module,
    so an entry an earlier test left would answer for its rolled-back rows)."""
    cache.clear()
    return type(seeded).objects.get(pk=seeded.pk)


# --- a real Celery worker ------------------------------------------------------------------

def subprocess_env():
    """This environment, with the test database and the configured broker, for a server or worker process."""
    from django.conf import settings
    from django.db import connection

    env = dict(os.environ)
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        env["DATABASE_URL"] = f"sqlite:///{db['NAME']}"
    else:
        env["DATABASE_URL"] = (
            f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
    env["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL
    return env


@pytest.fixture
def celery_worker_process(transactional_db):
    """Start a real `celery worker` process against the configured broker and the test database."""
    from django.conf import settings

    env = subprocess_env()
    log = open(Path(settings.VAR_DIR) / "celery-worker-test.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=info",
         "--concurrency=1", "--pool=solo", "--without-mingle", "--without-gossip"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def wait_for(predicate, timeout=30.0, interval=0.2):
    """Poll ``predicate`` until it returns a truthy value or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return predicate()


# --- headless Chromium (pytest-playwright) ---------------------------------------------------

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run must install Debian's chromium")
        pytest.skip(f"{CHROMIUM} not installed (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Playwright's ``wait_for_function("...")`` evaluates a string, which the site's Content-Security-Policy
    forbids: browser tests run with CSP bypassed, except tests/test_csp_browser.py, which checks it."""
    return {**browser_context_args, "bypass_csp": True}


@pytest.fixture(autouse=True)
def _no_browser_context_left(request):
    """A context left open keeps its pages polling the session's live server through the tests after it, whose
    refused database access prints a traceback from the server's thread (and, on Python 3.11, formatting it can
    break an ``ast.parse`` running in the test's own thread). Torn down after pytest-playwright's ``context``."""
    yield
    if "browser" in request.fixturenames:
        left = list(request.getfixturevalue("browser").contexts)
        for context in left:
            context.close()
        assert not left, "a browser context was left open: make it with pytest-playwright's new_context fixture"


def login(page, live_server, user):
    """Log ``user`` (made by make_user) in through the real login page."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", TEST_PASSWORD)
    page.click("form [type=submit]")
    # the login page's answer, not its own "load" (already reached): a page opened before the answer would race
    # the login's redirect (and its session cookie)
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.wait_for_load_state()


@pytest.fixture
def phone(page):
    """A page the size of a 360-px-wide phone."""
    page.set_viewport_size({"width": 360, "height": 740})
    return page
