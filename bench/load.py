"""The write benches' harness: gunicorn + PostgreSQL on this machine, 64 clients, the bare view beside.

Used by ``bench_rulings.py`` and ``bench_hands_api.py``. A scratch PostgreSQL database is created and
migrated, one table (match) per client is seeded with its own table referee and a logged-in session,
and gunicorn is started like production (DEBUG off, persistent connections, gthread workers) with
``bench.settings``, which adds the bare yardstick view (``bench/bare.py``: session authentication, the
CSRF check, one INSERT) under ``/bench/bare/``; production URLs never have it.

Each load is measured in the same run for the bare view and the write under test, driven by the same
client loop:

* back to back: every client sends its next request as soon as the answer arrives (throughput; the
  latency is then mostly queueing, about clients / throughput), in alternating phases of a few seconds
  (bare, write, bare, write, ...), the median phase of each compared: a passing disturbance of the machine
  (another process, a checkpoint) then hits both instead of deciding the ratio;
* paced: every client sends one request a second, phones not synchronised (latency under a load the
  server carries: the p99 target).

Beside them, back to back in the same phases, the statements a table's write sends with nothing else
(``bench/bare.py``'s ``statements``: the idempotency claim and answer, the transaction, the lock, one read,
the roles, three writes): the most a write made of those statements can reach on this machine today.

``report`` prints every figure with its target and the bare view's figure beside it, and the ratio.
"""
import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
# gunicorn as README deploys it: 2 x cores + 1 worker processes of one thread each (gthread, for keep-alive).
# Threads in one process share its interpreter lock: a write that waits on the database several times a
# request loses more to them than the bare view does (3 x 4 threads here: hand 0.31-0.37, ruling 0.39-0.44).
WORKERS = 2 * (os.cpu_count() or 1) + 1
RATIO_TARGET = 0.2      # the write's back-to-back throughput, as a share of the bare view's: the plain write path's
                        # floor (its statements alone reach 0.38-0.40; ten times the biggest event's need)
P99_TARGET_MS = 60.0    # the write's p99 with every client writing once a second ...
SLOW_BARE_RPS = 400     # ... or, on a slow day (the bare view under this many req/s back to back),
P99_OF_BARE = 3.0       # within this many times the bare view's p99 in the same run


def psql(sql):
    host = PG.split("@", 1)[1].split(":")[0]
    subprocess.run(["psql", "-h", host, "-U", "postgres", "-q", "-c", sql], check=True)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A scratch database and gunicorn on it; ``with Server(name) as server:`` drops both at the end."""

    def __init__(self, name, workers=WORKERS, threads=1):
        self.db = f"tractor_bench_{name}_{os.getpid()}"
        self.workers, self.threads, self.name = workers, threads, name
        self.proc = None
        self.env = {**os.environ, "DATABASE_URL": f"{PG}/{self.db}", "DJANGO_CONN_MAX_AGE": "60",
                    "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "bench-only-not-a-secret",
                    "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_SESSION_COOKIE_SECURE": "0",
                    "DJANGO_CSRF_COOKIE_SECURE": "0", "DJANGO_LOG_LEVEL": "WARNING",
                    "DJANGO_SETTINGS_MODULE": "bench.settings",
                    "DJANGO_VAR_DIR": str(REPO / "var" / f"bench-{name}")}
        self.env.pop("REDIS_URL", None)  # the cache stays local: the writes measured here use none

    def __enter__(self):
        psql(f'CREATE DATABASE "{self.db}"')
        os.environ.update(self.env)
        sys.path.insert(0, str(REPO))
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        return self

    def start(self):
        """Start gunicorn (after seeding: the workers open their own connections)."""
        from django.db import connections

        connections.close_all()
        self.port = free_port()
        (REPO / "var").mkdir(exist_ok=True)
        log = open(REPO / "var" / f"bench-{self.name}-gunicorn.log", "w")
        gunicorn = Path(sys.executable).parent / "gunicorn"
        self.proc = subprocess.Popen(
            [str(gunicorn), "config.wsgi:application", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(self.workers), "--threads", str(self.threads), "--worker-class", "gthread",
             "--keep-alive", "30", "--backlog", "256", "--log-level", "warning"],
            cwd=REPO, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"gunicorn did not start (see var/bench-{self.name}-gunicorn.log)")

    def __exit__(self, *exc):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        psql(f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)')


def arguments(doc, what):
    """The write benches' command line: clients, the alternating back-to-back phases, the paced runs' length,
    the in-process probe, gunicorn's workers and threads."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3, help="alternating back-to-back phases of each (bare, write)")
    parser.add_argument("--phase-seconds", type=float, default=3.0, help="length of each back-to-back phase")
    parser.add_argument("--probe", type=int, default=20, help=f"{what} counted for their SQL queries, in-process")
    parser.add_argument("--paced-seconds", type=float, default=12.0, help="length of the once-a-second runs")
    parser.add_argument("--workers", type=int, default=WORKERS,
                        help="gunicorn worker processes (default: 2 x cores + 1, as README's deployment)")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (gthread)")
    return parser.parse_args()


def seed_tables(count):
    """One event, one round, one match per client, each with its own referee (a table referee of the event,
    assigned to the match, as the staff page makes them) and a session: [(match id, session key, CSRF token)]."""
    import datetime as dt

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import _get_new_csrf_string

    from scoring.profile_store import latest_profile
    from tournament.models import Event, EventRole, Match, Pair, Player, Round, Stage, Unit
    event = Event.objects.create(slug="bench", name="bench", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=latest_profile("shenzhen-community"),
                                 published=True)
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="bench")
    rnd = Round.objects.create(stage=stage, number=1)
    tables = []
    for n in range(count):
        pairs = []
        for side in ("a", "b"):
            unit = Unit.objects.create(event=event, name=f"u{n}{side}")
            p1 = Player.objects.create(event=event, unit=unit, name=f"p{n}{side}1", gender="M")
            p2 = Player.objects.create(event=event, unit=unit, name=f"p{n}{side}2", gender="M")
            pairs.append(Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=f"pair{n}{side}"))
        match = Match.objects.create(round=rnd, table=n + 1, ns=pairs[0], ew=pairs[1], profile=event.profile)
        user = User.objects.create_user(f"bench{n}", password=None)
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.TABLE_REFEREE)
        match.referees.add(user)
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        tables.append((match.pk, session.session_key, _get_new_csrf_string()))
    return tables


def post(conn, path, body, headers):
    """POST and return (status, body); a kept-alive connection the server closed meanwhile is reopened
    once and the request sent again (the same Idempotency-Key makes that retry safe)."""
    for retry in (False, True):
        try:
            conn.request("POST", path, body, headers)
            response = conn.getresponse()
            return response.status, response.read()
        except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
            conn.close()
            if retry:
                raise


class Writer:
    """What one client sends: ``next()`` gives (path, body or None when done, key); ``answered(status, body)``."""

    def __init__(self, table):
        self.match_id, self.session_key, self.csrf = table

    def headers(self):
        return {"Content-Type": "application/json", "X-CSRFToken": self.csrf, "Host": "127.0.0.1",
                "Cookie": f"sessionid={self.session_key}; csrftoken={self.csrf}"}


class BareWriter(Writer):
    def request(self, i):
        return "/bench/bare/", json.dumps({"n": i}), None


class StatementsWriter(Writer):
    """The statements a table's write sends, and nothing else (``bench/bare.py``: ``statements``)."""

    def request(self, i):
        return f"/api/bench/statements/{self.match_id}/", json.dumps({"n": i}), new_key()


def run_load(port, writers, per_client, *, pace=0.0, duration=0.0, repeat_every=0, expect=201, limit=15.0):
    """Drive the clients: back to back (``pace`` 0) ``per_client`` requests each (each client stops early
    once ``limit`` seconds have passed, so a run stays bounded on a busy machine), or paced, one request
    every ``pace`` seconds for ``duration`` seconds. Every ``repeat_every``-th request is sent twice
    with the same Idempotency-Key. Returns (latencies, elapsed, errors)."""
    latencies, errors = [], []
    stop_at = [None, None]

    def client(writer):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = writer.headers()
        if pace:
            time.sleep(random.uniform(0, pace))  # phones are not synchronised
        i = 0
        while (i < per_client and time.perf_counter() < stop_at[1]) if not pace else (time.perf_counter() < stop_at[0]):
            path, body, key = writer.request(i)
            if body is None:
                break
            tries = 2 if repeat_every and key and i % repeat_every == 0 else 1
            for attempt in range(tries):
                extra = {"Idempotency-Key": key} if key else {}
                began = time.perf_counter()
                try:
                    status, answer = post(conn, path, body, {**headers, **extra})
                except OSError as exc:
                    errors.append((repr(exc), attempt))
                    continue
                latencies.append(time.perf_counter() - began)
                if status != expect:
                    errors.append((status, answer[:200]))
                elif attempt == 0:
                    writer.answered(answer) if hasattr(writer, "answered") else None
            i += 1
            if pace:
                time.sleep(pace)
        conn.close()

    threads = [threading.Thread(target=client, args=(w,)) for w in writers]
    began = time.perf_counter()
    stop_at[0], stop_at[1] = began + duration, began + limit
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, time.perf_counter() - began, errors


TICK = os.sysconf("SC_CLK_TCK")


def cpu_used(server_pid):
    """CPU seconds used so far (Linux's /proc): the machine's busy time, gunicorn's master and workers,
    PostgreSQL's processes, and this process (the bench's own clients). Subtract two readings for a phase."""
    gunicorn = postgres = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:   # gone between the listing and the read
            continue
        comm, fields = text[text.index("(") + 1:text.rindex(")")], text[text.rindex(")") + 1:].split()
        used = (int(fields[11]) + int(fields[12])) / TICK   # utime, stime: the stat line's 14th and 15th
        if int(stat.parent.name) == server_pid or int(fields[1]) == server_pid:
            gunicorn += used
        elif comm == "postgres":
            postgres += used
    cpu = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    busy = (sum(cpu[:8]) - cpu[3] - cpu[4]) / TICK   # all but idle and iowait (guest time is in user already)
    return {"machine": busy, "server": gunicorn, "database": postgres, "client": sum(os.times()[:2])}


def cpu_between(before, after):
    return {key: after[key] - before[key] for key in before}


def warm_up(port, tables):
    """One GET per table (untimed), so every gunicorn worker has loaded the code and opened its connection."""
    for match_id, session_key, _csrf in tables:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/api/matches/{match_id}/state/", headers={"Cookie": f"sessionid={session_key}"})
        conn.getresponse().read()
        conn.close()


def figures(latencies, elapsed):
    ordered = sorted(latencies)
    return {"n": len(ordered), "rps": len(ordered) / elapsed, "p50": statistics.median(ordered) * 1000,
            "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000}


def measure(server, tables, make_writer, *, rounds, phase_seconds, paced_seconds, repeat_every):
    """The bare view and the write under test: back to back in ``rounds`` alternating phases of
    ``phase_seconds`` each (bare, write, bare, write, ...: a passing disturbance of the machine hits both,
    and the median phase of each is compared), then paced once each. Returns the figure sets (the back-to-back
    ones are the median phase, with every phase's rate under "phases") and the errors of the write's runs."""
    out, errors, phases = {}, [], {"bare": [], "write": [], "statements": []}
    kinds = (("bare", BareWriter, 0), ("write", make_writer, repeat_every))
    for _ in range(rounds):
        for label, factory, repeat in (*kinds, ("statements", StatementsWriter, 0)):
            lat, elapsed, errs = run_load(server.port, [factory(t) for t in tables], 10**9, repeat_every=repeat,
                                          limit=phase_seconds)
            phases[label].append(figures(lat, elapsed))
            errors += [("back", label, e) for e in errs]
    for label in phases:
        ranked = sorted(phases[label], key=lambda fig: fig["rps"])
        out[(label, "back")] = {**ranked[len(ranked) // 2], "phases": [fig["rps"] for fig in phases[label]]}
    for label, factory, repeat in kinds:
        lat, elapsed, errs = run_load(server.port, [factory(t) for t in tables], 0, pace=1.0,
                                      duration=paced_seconds, repeat_every=repeat)
        out[(label, "paced")] = figures(lat, elapsed)
        errors += [("paced", label, e) for e in errs]
    return out, errors


def report(name, figs, clients, workers, threads):
    """Every figure with its target and the bare view's beside it; returns whether both targets are met."""
    bare_b, write_b = figs[("bare", "back")], figs[("write", "back")]
    bare_p, write_p = figs[("bare", "paced")], figs[("write", "paced")]
    ratio = write_b["rps"] / bare_b["rps"]
    print(f"gunicorn {workers} gthread workers x {threads} threads + PostgreSQL, {clients} clients")
    print(f"back to back, median of {len(write_b['phases'])} alternating phases: {name} {write_b['rps']:.0f} req/s "
          f"(p50 {write_b['p50']:.0f} ms, p99 {write_b['p99']:.0f} ms) | bare view {bare_b['rps']:.0f} req/s "
          f"(p99 {bare_b['p99']:.0f} ms)")
    print(f"  phases: {name} {' / '.join(f'{r:.0f}' for r in write_b['phases'])} req/s; bare view "
          f"{' / '.join(f'{r:.0f}' for r in bare_b['phases'])} req/s")
    print(f"  ratio {ratio:.2f} of the bare view (target >= {RATIO_TARGET}: {'met' if ratio >= RATIO_TARGET else 'NOT met'})")
    bound = figs[("statements", "back")]
    print(f"  its statements alone (no validation, rules or answer: bench/bare.py) {bound['rps']:.0f} req/s, "
          f"{bound['rps'] / bare_b['rps']:.2f} of the bare view; the {name} does {write_b['rps'] / bound['rps']:.2f} "
          f"of that")
    print(f"once a second per client: {name} p50 {write_p['p50']:.1f} ms, p99 {write_p['p99']:.1f} ms "
          f"({write_p['rps']:.0f} req/s offered) | bare view p50 {bare_p['p50']:.1f} ms, p99 {bare_p['p99']:.1f} ms")
    slow = bare_b["rps"] < SLOW_BARE_RPS
    p99_limit = max(P99_TARGET_MS, P99_OF_BARE * bare_p["p99"]) if slow else P99_TARGET_MS
    why = f" (the bare view under {SLOW_BARE_RPS} req/s: {P99_OF_BARE:.0f}x its p99)" if slow else ""
    print(f"  p99 target < {p99_limit:.0f} ms{why}: {'met' if write_p['p99'] < p99_limit else 'NOT met'}")
    return ratio >= RATIO_TARGET and write_p["p99"] < p99_limit


def run_write_bench(args, name, label, writer, probe_queries, stored_once):
    """One write bench end to end: a scratch server, a table per client (and a probe table), the loads
    (:func:`measure`), the probe's SQL queries (``probe_queries(table, count)``), every figure
    (:func:`report`) and whether every write was stored exactly once (``stored_once()`` → (bool, what to
    say)); exits 1 on an error, a write not stored once or a missed target."""
    with Server(name, args.workers, args.threads) as server:
        tables = seed_tables(args.clients + 1)
        probe, tables = tables[-1], tables[:-1]
        server.start()
        warm_up(server.port, tables)
        # one write per client, untimed: the write's first phase is as warm as the bare view's (its kept
        # state made, its worker's connection open), not a one-off cost measured
        _lat, _elapsed, first = run_load(server.port, [writer(t) for t in tables], 1)
        figs, errors = measure(server, tables, writer, rounds=args.rounds, phase_seconds=args.phase_seconds,
                               paced_seconds=args.paced_seconds, repeat_every=5)
        errors = [("warm-up", e) for e in first] + errors
        queries = probe_queries(probe, args.probe)
        met = report(label, figs, args.clients, args.workers, args.threads)
        once, stored = stored_once()
        print(f"SQL queries per {label} (probe table, writes 1..{len(queries)}): min {min(queries)}, "
              f"max {max(queries)}")
        print(f"errors: {len(errors)}{' ' + repr(errors[:3]) if errors else ''}; {stored}; every write stored "
              f"exactly once: {'yes' if once else 'NO'}")
    if errors or not once or not met:
        raise SystemExit(1)


def new_key():
    return str(uuid.uuid4())
