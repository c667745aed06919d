"""POST rulings with 64 concurrent clients against gunicorn and PostgreSQL on this machine.

Creates a scratch PostgreSQL database, migrates it, seeds one table (match) per client with its
own table referee, starts gunicorn on 127.0.0.1 with a free port, and sends a bounded number of
POSTs (every request has its own Idempotency-Key; some are sent twice on purpose). Prints
requests/s and p50/p99 latency (target p99 < 60 ms), then checks that every ruling sent is stored
exactly once, and counts the SQL queries of one ruling POST (in-process, on a probe table with as
many rulings as the others). Stops gunicorn and drops the database at the end.

gunicorn runs like production: DEBUG off, persistent database connections (DJANGO_CONN_MAX_AGE=60),
gthread workers (default 3 workers x 4 threads for this 2-core machine).

By default every client sends its next ruling as soon as the answer arrives (a closed loop at full
saturation: the latency is then mostly queueing, about clients / throughput). ``--pace S`` makes
each client wait S seconds between rulings (a referee's phone), which measures latency under a
sustained load the server can carry.

    .venv/bin/python bench/bench_rulings.py [--clients 64] [--per-client 20] [--workers 3] [--threads 4]
                                            [--pace 0]
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
DB_NAME = f"tractor_bench_rulings_{os.getpid()}"


def psql(sql):
    host = PG.split("@", 1)[1].split(":")[0]
    subprocess.run(["psql", "-h", host, "-U", "postgres", "-q", "-c", sql], check=True)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def setup_django(env):
    os.environ.update(env)
    sys.path.insert(0, str(REPO))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def seed(clients):
    """One event, one round, one match per client, each with its own referee and a session cookie."""
    import datetime as dt

    from django.contrib.auth.models import Group, Permission, User
    from django.contrib.contenttypes.models import ContentType
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import _get_new_csrf_string

    from scoring.profile_store import latest_profile
    from tournament.models import Event, Match, Pair, Player, Round, Stage, Unit
    from tournament.roles import sync_role_groups

    sync_role_groups(Group, Permission, ContentType)
    group = Group.objects.get(name="table_referee")
    event = Event.objects.create(slug="bench", name="bench", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=latest_profile("shenzhen-community"),
                                 published=True)
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="bench")
    rnd = Round.objects.create(stage=stage, number=1)
    tables = []
    for n in range(clients):
        pairs = []
        for side in ("a", "b"):
            unit = Unit.objects.create(event=event, name=f"u{n}{side}")
            p1 = Player.objects.create(event=event, unit=unit, name=f"p{n}{side}1", gender="M")
            p2 = Player.objects.create(event=event, unit=unit, name=f"p{n}{side}2", gender="M")
            pairs.append(Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=f"pair{n}{side}"))
        match = Match.objects.create(round=rnd, table=n + 1, ns=pairs[0], ew=pairs[1], profile=event.profile)
        user = User.objects.create_user(f"bench{n}", password=None)
        user.groups.add(group)
        match.referees.add(user)
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        tables.append((match.pk, session.session_key, _get_new_csrf_string()))
    return tables


def start_gunicorn(port, workers, threads, env):
    log = open(REPO / "var" / "bench-rulings-gunicorn.log", "w")
    proc = subprocess.Popen(
        [str(REPO / ".venv" / "bin" / "gunicorn"), "config.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--threads", str(threads), "--worker-class", "gthread",
         "--keep-alive", "30", "--backlog", "256", "--log-level", "warning"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("gunicorn did not start (see var/bench-rulings-gunicorn.log)")


BODIES = [{"code": "delay", "side": "NS"}, {"code": "failed_throw", "side": "EW", "cards": 1, "role": "defenders"},
          {"code": "out_of_turn", "side": "EW"}, {"code": "exposed_card", "side": "NS"}]


def client_run(port, table, per_client, repeat_every, pace, latencies, sent, errors):
    """One referee's phone: ``per_client`` rulings, every ``repeat_every``-th sent twice (same key),
    ``pace`` seconds apart (0: back to back)."""
    match_id, session_key, csrf = table
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json", "X-CSRFToken": csrf, "Host": "127.0.0.1",
               "Cookie": f"sessionid={session_key}; csrftoken={csrf}"}
    if pace:
        time.sleep(random.uniform(0, pace))  # phones are not synchronised
    for i in range(per_client):
        key = str(uuid.uuid4())
        body = json.dumps(BODIES[i % len(BODIES)])
        for attempt in range(2 if i % repeat_every == 0 else 1):
            start = time.perf_counter()
            try:
                status = post(conn, f"/api/matches/{match_id}/rulings/", body, {**headers, "Idempotency-Key": key})
            except OSError as exc:
                errors.append((repr(exc), attempt))
                continue
            latencies.append(time.perf_counter() - start)
            if status != 201:
                errors.append((status, attempt))
        sent.append((match_id, key))
        if pace:
            time.sleep(pace)
    conn.close()


def warm_up(port, tables):
    """Read every table's penalty log once (untimed), so each gunicorn worker has loaded the code."""
    for match_id, session_key, _csrf in tables:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", f"/api/matches/{match_id}/rulings/", headers={"Cookie": f"sessionid={session_key}"})
        conn.getresponse().read()
        conn.close()


def post(conn, path, body, headers):
    """POST and return the status; a kept-alive connection the server closed meanwhile is reopened once
    and the request sent again (the same Idempotency-Key makes that retry safe)."""
    for retry in (False, True):
        try:
            conn.request("POST", path, body, headers)
            response = conn.getresponse()
            response.read()
            return response.status
        except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
            conn.close()
            if retry:
                raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--per-client", type=int, default=20)
    parser.add_argument("--repeat-every", type=int, default=5, help="send every n-th ruling twice")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker (gthread)")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds each client waits between rulings")
    args = parser.parse_args()

    psql(f'CREATE DATABASE "{DB_NAME}"')
    env = {**os.environ, "DATABASE_URL": f"{PG}/{DB_NAME}", "DJANGO_CONN_MAX_AGE": "60",
           "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "bench-only-not-a-secret",
           "DJANGO_SECURE_SSL_REDIRECT": "0", "DJANGO_SESSION_COOKIE_SECURE": "0", "DJANGO_CSRF_COOKIE_SECURE": "0",
           "DJANGO_LOG_LEVEL": "WARNING", "DJANGO_VAR_DIR": str(REPO / "var" / "bench-rulings")}
    proc = None
    try:
        setup_django(env)
        tables = seed(args.clients + 1)
        probe, tables = tables[-1], tables[:-1]
        from django.db import connections

        connections.close_all()
        port = free_port()
        proc = start_gunicorn(port, args.workers, args.threads, env)
        latencies, sent, errors = [], [], []
        threads = [threading.Thread(target=client_run, args=(port, t, args.per_client, args.repeat_every,
                                                             args.pace, latencies, sent, errors)) for t in tables]
        warm_up(port, tables)
        began = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - began
        queries = probe_queries(probe, args.per_client, sent)
        report(args, latencies, sent, errors, elapsed, queries)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
        from django.db import connections

        connections.close_all()
        psql(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def probe_queries(table, count, sent):
    """SQL queries of each of ``count`` ruling POSTs on the probe table (in-process, Django's test client)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    match_id, session_key, _csrf = table
    client = Client()
    client.cookies["sessionid"] = session_key
    counts = []
    for i in range(count):
        key = str(uuid.uuid4())
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(f"/api/matches/{match_id}/rulings/", data=json.dumps(BODIES[i % len(BODIES)]),
                                   content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
        if response.status_code != 201:
            raise SystemExit(f"probe: unexpected answer {response.status_code}: {response.content[:300]!r}")
        counts.append(len(ctx.captured_queries))
        sent.append((match_id, key))
    return counts


def report(args, latencies, sent, errors, elapsed, queries):
    from rulings.models import Ruling

    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000
    print(f"clients={args.clients} workers={args.workers} threads={args.threads} (gthread) pace={args.pace}s "
          f"requests={len(latencies)} (rulings {len(sent) - len(queries)}, "
          f"repeats {len(latencies) - len(sent) + len(queries)}) in {elapsed:.2f} s")
    print(f"requests/s: {len(latencies) / elapsed:.1f}")
    print(f"latency p50: {p50:.1f} ms   p99: {p99:.1f} ms   (target p99 < 60 ms: {'met' if p99 < 60 else 'NOT met'})")
    print(f"SQL queries per ruling POST (probe table, rulings 1..{len(queries)}): "
          f"min {min(queries)}, max {max(queries)}")
    stored = list(Ruling.objects.values_list("match_id", "idempotency_key"))
    exactly_once = sorted(stored) == sorted(sent) and len(set(stored)) == len(stored)
    print(f"errors (non-201): {len(errors)}; stored {len(stored)} of {len(sent)} sent; "
          f"every ruling stored exactly once: {'yes' if exactly_once else 'NO'}")
    if errors or not exactly_once:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
