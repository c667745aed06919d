"""Two app servers and two Celery workers, each with its own var/ folder, against one PostgreSQL and Redis
(issue 15, item 3: app servers and workers keep no state of their own).

Like two machines behind a reverse proxy: one browser (one cookie jar for 127.0.0.1) talks to both.
- a person logged in on server A is logged in on server B (sessions in the database, cached in Redis);
- a printout asked for on one server is built by either worker, stored in the shared file store
  (``DJANGO_FILE_STORAGE=database``) and downloaded from the other server, nothing under any var/;
- hands and rulings sent alternately to both servers, each retried with its Idempotency-Key on the other
  server (and once to both at the same moment), are stored exactly once;
- the hall display polled on both servers agrees after every hand (the display cache is shared).

Needs PostgreSQL and Redis (``DATABASE_URL``, ``REDIS_URL``, as ``.ci/run`` sets them): skipped without them,
and fails in CI. Bounded: every wait has a timeout, the whole test takes well under two minutes.
"""
import http.cookiejar
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from django.db import connection
from pypdf import PdfReader

from infra.models import StoredFile
from rulings.models import Ruling
from scoring.models import Hand
from tests.conftest import REPO, TEST_PASSWORD, subprocess_env
from tournament import roles
from tournament.models import PrintJob

pytestmark = [pytest.mark.multiserver, pytest.mark.worker]

START_TIMEOUT = 60
HANDS = [45, 120, 80, 120, 60, 120]      # defender points: the match goes on (no side passes A)
RULINGS = [{"code": "delay", "side": "NS"}, {"code": "out_of_turn", "side": "EW"},
           {"code": "exposed_card", "side": "NS"}, {"code": "delay", "side": "EW"}]
TIMED = {"server_now", "remaining_seconds", "remaining_text"}  # read at each server's own "now"


@pytest.fixture(autouse=True)
def _needs_postgres_and_redis():
    if connection.vendor == "postgresql" and os.environ.get("REDIS_URL"):
        return
    if os.environ.get("CI"):
        pytest.fail("the two-server test needs DATABASE_URL (PostgreSQL) and REDIS_URL: .ci/run sets them")
    pytest.skip("needs PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Machines:
    """Two gunicorn servers and two Celery workers, each started with its own DJANGO_VAR_DIR."""

    def __init__(self, root):
        self.root = root
        self.procs, self.logs = [], {}
        self.env = {**subprocess_env(), "DJANGO_FILE_STORAGE": "database", "DJANGO_LOG_LEVEL": "WARNING",
                    "DJANGO_CONN_MAX_AGE": "0"}
        self.env.pop("DJANGO_CACHE", None)
        self.urls = {}

    def start(self):
        for name in ("a", "b"):
            port = free_port()
            self._spawn(f"server-{name}", [sys.executable, "-m", "gunicorn", "config.wsgi:application",
                                           "--bind", f"127.0.0.1:{port}", "--workers", "1", "--threads", "4",
                                           "--worker-class", "gthread", "--log-level", "warning"])
            self.urls[name] = f"http://127.0.0.1:{port}"
        for name in ("a", "b"):
            self._spawn(f"worker-{name}", [sys.executable, "-m", "celery", "-A", "config", "worker",
                                           "--loglevel=info", "--pool=solo", "--concurrency=1",
                                           "-n", f"{name}@%h", "--without-mingle", "--without-gossip"])
        for name, url in self.urls.items():
            self._wait(lambda url=url: _answers(url), f"server-{name}")
        for name in ("a", "b"):
            self._wait(lambda name=name: "ready." in self.log(f"worker-{name}"), f"worker-{name}")

    def _spawn(self, name, command):
        var = self.root / name
        var.mkdir()
        log = open(self.root / f"{name}.log", "w")
        self.logs[name] = self.root / f"{name}.log"
        self.procs.append((name, log, subprocess.Popen(command, cwd=REPO, env={**self.env, "DJANGO_VAR_DIR": str(var)},
                                                       stdout=log, stderr=subprocess.STDOUT)))

    def _wait(self, ready, name):
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if ready():
                return
            for proc_name, _log, proc in self.procs:
                assert proc.poll() is None, f"{proc_name} exited:\n{self.log(proc_name)[-3000:]}"
            time.sleep(0.3)
        raise AssertionError(f"{name} did not start in {START_TIMEOUT} s:\n{self.log(name)[-3000:]}")

    def log(self, name):
        return self.logs[name].read_text(errors="replace")

    def stop(self):
        for _name, _log, proc in self.procs:
            proc.terminate()
        for _name, log, proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
            log.close()


def _answers(url):
    try:
        with urllib.request.urlopen(f"{url}/accounts/login/", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


class Browser:
    """One person's browser: one cookie jar for 127.0.0.1, whichever server (port) it talks to."""

    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name):
        return next((c.value for c in self.jar if c.name == name), None)

    def request(self, url, *, data=None, json_body=None, headers=None):
        """(status, headers, body bytes); 4xx/5xx answers are returned, not raised."""
        headers = dict(headers or {})
        body = None
        if json_body is not None:
            body = json.dumps(json_body).encode()
            headers["Content-Type"] = "application/json"
        elif data is not None:
            body = urllib.parse.urlencode(data).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if body is not None and self.cookie("csrftoken"):
            headers["X-CSRFToken"] = self.cookie("csrftoken")
        req = urllib.request.Request(url, data=body, headers=headers, method="POST" if body is not None else "GET")
        try:
            with self.opener.open(req, timeout=60) as response:
                return response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read()

    def login(self, server, user):
        _status, _headers, page = self.request(f"{server}/accounts/login/")
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
        status, _headers, _body = self.request(f"{server}/accounts/login/", data={
            "csrfmiddlewaretoken": token, "username": user.username, "password": TEST_PASSWORD})
        assert status == 200 and self.cookie("sessionid"), status  # redirected to the home page

    def post_json(self, url, body, key):
        status, headers, content = self.request(url, json_body=body, headers={"Idempotency-Key": key})
        return status, headers.get("Idempotent-Replay") == "true", content


@pytest.fixture
def machines(transactional_db, tmp_path):
    running = Machines(tmp_path)
    try:
        running.start()
        yield running
    finally:
        running.stop()


@pytest.fixture
def tables(transactional_db, make_user):
    """A published event, one round of two tables with one referee at both, an organiser and a chief."""
    import datetime as dt

    from scoring.profile_store import latest_profile
    from tournament.models import Event, Match, Pair, Player, Round, Stage, Unit

    event = Event.objects.create(slug="two-servers", name="两台服务器", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=latest_profile("shenzhen-community"),
                                 published=True)
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
    rnd = Round.objects.create(stage=stage, number=1)
    referee = make_user(roles.TABLE_REFEREE)
    matches = []
    for table in (1, 2):
        pairs = []
        for side in ("甲", "乙"):
            unit = Unit.objects.create(event=event, name=f"单位{side}{table}")
            players = [Player.objects.create(event=event, unit=unit, name=f"{side}{table}{n}", gender="M")
                       for n in (1, 2)]
            pairs.append(Pair.objects.create(event=event, unit=unit, player1=players[0], player2=players[1],
                                             name=f"{side}队{table}"))
        match = Match.objects.create(round=rnd, table=table, ns=pairs[0], ew=pairs[1], profile=event.profile)
        match.referees.add(referee)
        matches.append(match)
    return {"event": event, "round": rnd, "matches": matches, "referee": referee,
            "organiser": make_user(roles.ORGANISER), "chief": make_user(roles.CHIEF_REFEREE)}


def display(browser, server, round_id):
    """The hall display's JSON from ``server``, without what each server reads at its own "now"."""
    status, _headers, body = browser.request(f"{server}/api/rounds/{round_id}/clock/")
    assert status == 200, body[:300]
    data = {k: v for k, v in json.loads(body).items() if k not in TIMED}
    data["tables"] = [{k: v for k, v in row.items() if k not in TIMED} for row in data["tables"]]
    return data


def test_two_servers_two_workers_share_everything(machines, tables):
    a, b = machines.urls["a"], machines.urls["b"]
    event, rnd = tables["event"], tables["round"]
    hall = Browser()

    # --- a session started on A is valid on B; the chief starts the clock through B -----------------
    chief = Browser()
    chief.login(a, tables["chief"])
    status, _h, body = chief.request(f"{b}/api/rounds/{rnd.pk}/clock/actions/", json_body={"action": "start"})
    assert status == 200, body[:300]
    assert display(hall, a, rnd.pk) == display(hall, b, rnd.pk)
    assert display(hall, a, rnd.pk)["status"] == "running"

    # --- printouts: asked for on one server, built by either worker, downloaded from the other --------
    organiser = Browser()
    organiser.login(b, tables["organiser"])
    jobs = []
    for asked, other, kind, data in ((a, b, "scoresheets", {"round": rnd.pk}), (b, a, "schedule", {})):
        status, _h, body = organiser.request(f"{asked}/manage/{event.slug}/printouts/{kind}/jobs/",
                                             data={**data, "lang": "zh-hans"}, headers={"Accept": "application/json"})
        assert status == 202, body[:300]
        jobs.append((other, json.loads(body)))
    for other, job in jobs:
        deadline, state = time.monotonic() + 90, job
        while state["status"] not in ("done", "failed") and time.monotonic() < deadline:
            time.sleep(0.3)
            status, _h, body = organiser.request(f"{other}{job['status_url']}")
            assert status == 200, body[:300]
            state = json.loads(body)
        assert state["status"] == "done", (state, machines.log("worker-a")[-2000:], machines.log("worker-b")[-2000:])
        status, headers, pdf = organiser.request(f"{other}{state['file_url']}")
        assert status == 200 and headers["Content-Type"] == "application/pdf" and pdf.startswith(b"%PDF")
        stored = StoredFile.objects.get(name=PrintJob.objects.get(pk=state["id"]).file.name)
        assert bytes(stored.content) == pdf  # the file is the database's row, read by the other server
        if job["kind"] == "scoresheets":
            assert len(PdfReader(io.BytesIO(pdf)).pages) == len(tables["matches"])
    built = [re.findall(r"Task tournament\.build_print_job\[([0-9a-f-]+)\] succeeded", machines.log(f"worker-{n}"))
             for n in ("a", "b")]
    every = built[0] + built[1]
    assert len(every) >= len(jobs) and len(set(every)) == len(every)  # each task run by one worker, once
    for name in ("server-a", "server-b", "worker-a", "worker-b"):
        assert not list((machines.root / name).rglob("*.pdf")), f"a PDF was written under {name}'s var/"

    # --- hands, alternately to A and B, each retried on the other server -------------------------------
    referee = Browser()
    referee.login(a, tables["referee"])
    first = tables["matches"][0]
    servers = [a, b]
    for number, points in enumerate(HANDS, start=1):
        sent_to, retry_to = servers[number % 2], servers[(number + 1) % 2]
        body = {"number": number, "trump": "H", "defender_points": points,
                "last_trick": {"by": "declarers", "shape": "single"}, **({"declarer": "N"} if number == 1 else {})}
        key = str(uuid.uuid4())
        status, replayed, answer = referee.post_json(f"{sent_to}/api/matches/{first.pk}/hands/", body, key)
        assert status == 201 and not replayed, answer[:300]
        status, replayed, again = referee.post_json(f"{retry_to}/api/matches/{first.pk}/hands/", body, key)
        assert (status, replayed, again) == (201, True, answer)
        shown = [display(hall, server, rnd.pk) for server in (a, b)]
        assert shown[0] == shown[1]
        row = next(r for r in shown[0]["tables"] if r["match_id"] == first.pk)
        levels = json.loads(answer)["state"]["levels"]
        assert row["recorded"] == number and (row["ns_level"], row["ew_level"]) == (levels["NS"], levels["EW"])

    # the next hand sent to both servers at the same moment with one key: stored once
    number = len(HANDS) + 1
    body = {"number": number, "trump": "S", "defender_points": 120, "last_trick": {"by": "declarers", "shape": "single"}}
    once(referee, [f"{s}/api/matches/{first.pk}/hands/" for s in servers], body)
    stored = list(Hand.objects.filter(match=first).order_by("number").values_list("number", "version"))
    assert stored == [(n, 1) for n in range(1, number + 1)]  # every hand once, none a second version

    # --- rulings, alternately to A and B, each retried on the other server ----------------------------
    second = tables["matches"][1]
    keys = []
    for i, ruling in enumerate(RULINGS):
        sent_to, retry_to = servers[i % 2], servers[(i + 1) % 2]
        key = str(uuid.uuid4())
        status, replayed, answer = referee.post_json(f"{sent_to}/api/matches/{second.pk}/rulings/", ruling, key)
        assert status == 201 and not replayed, answer[:300]
        assert referee.post_json(f"{retry_to}/api/matches/{second.pk}/rulings/", ruling, key) == (201, True, answer)
        keys.append(key)
    keys.append(once(referee, [f"{s}/api/matches/{second.pk}/rulings/" for s in servers], RULINGS[0]))
    stored = list(Ruling.objects.filter(match=second).order_by("sequence").values_list("idempotency_key", flat=True))
    assert stored == keys  # every ruling once, in the order sent
    assert display(hall, a, rnd.pk) == display(hall, b, rnd.pk)


def once(browser, urls, body):
    """POST ``body`` with one new Idempotency-Key to every url at the same moment: one runs it, the others
    get its stored answer or 409 (still being processed), and a retry after a 409 gets the stored answer.
    Returns the key."""
    key = str(uuid.uuid4())
    start = threading.Barrier(len(urls))
    answers = [None] * len(urls)

    def send(i, url):
        start.wait()
        answers[i] = browser.post_json(url, body, key)

    threads = [threading.Thread(target=send, args=(i, url)) for i, url in enumerate(urls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    ran = [answer for answer in answers if answer[0] == 201 and not answer[1]]
    assert len(ran) == 1, answers
    for url, (status, replayed, content) in zip(urls, answers, strict=True):
        if status == 409:
            status, replayed, content = browser.post_json(url, body, key)
        assert (status, content) == (201, ran[0][2]), (url, status, content[:300])
    return key
