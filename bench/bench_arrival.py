"""A hall of phones arriving (issue 44 item 8), against the server ``make run`` starts: gunicorn with
``config/gunicorn.py`` on a SQLite database under ``var/``, as a real event's ``make run DEMO=0`` serves it (DEBUG
off), beside a bare Django view on the same server in the same run.

``--phones`` phones (200) arrive at ``--rate`` a second (20): each opens a new connection, opens a page (the
event's schedule, a 64-table round; the bare read view ``/bench/bare-read/`` in the bare phase) and then polls
as ``static/js/live.js`` does: ``live.json`` for the round every 10 s with the ETag of its last answer, on its
kept-alive connection, for ``--seconds`` (40). A page open is timed from the moment the phone connects.

Then 400 polls of the round clock (``/api/rounds/<id>/clock/``) from one address with the production throttle
rates, as 200 phones behind one venue router send them.

Printed, for the bare view and the product: page-open p50/p95, poll p99, refused or failed connections, 429s.
Targets (issue 44's "Done when"): 0 refused connections, page-open p95 at most 3x the bare view's in the same run,
0 x 429 among the clock polls. Exits 1 on a miss.

    .venv/bin/python bench/bench_arrival.py [--phones 200] [--rate 20] [--seconds 40] [--tables 64]
"""
import argparse
import http.client
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench import load  # noqa: E402

POLL_EVERY = 10.0
PAGE_OF_BARE = 3.0
CLOCK_POLLS = 400


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000 if ordered else float("nan")


class Phase:
    """One arrival of phones against ``page`` then ``poll``; the figures of the phase."""

    def __init__(self, port, *, page, poll, phones, rate, seconds):
        self.port, self.page, self.poll = port, page, poll
        self.phones, self.rate, self.seconds = phones, rate, seconds
        self.opens, self.polls, self.refused, self.statuses = [], [], [], {}
        self.lock = threading.Lock()

    def count(self, status):
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def phone(self, began, n):
        start = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            conn.request("GET", self.page, headers={"Host": "127.0.0.1", "Accept": "text/html"})
            response = conn.getresponse()
            response.read()
        except OSError as exc:
            with self.lock:
                self.refused.append(repr(exc))
            return
        with self.lock:
            self.opens.append(time.perf_counter() - start)
        self.count(response.status)
        tag, rng = None, random.Random(n)
        due = time.perf_counter() + rng.uniform(0, POLL_EVERY)
        while due < began + self.seconds:
            time.sleep(max(0.0, due - time.perf_counter()))
            headers = {"Host": "127.0.0.1", "Accept": "application/json"}
            if tag:
                headers["If-None-Match"] = tag
            try:
                conn.request("GET", self.poll, headers=headers)
                response = conn.getresponse()
                response.read()
            except OSError:   # a kept-alive connection the server closed when idle: the phone connects again
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            with self.lock:
                self.polls.append(time.perf_counter() - due)
            self.count(response.status)
            tag = response.getheader("ETag") or tag
            due += POLL_EVERY
        conn.close()

    def run(self):
        began = time.perf_counter()
        threads = []
        for n in range(self.phones):
            time.sleep(max(0.0, began + n / self.rate - time.perf_counter()))
            thread = threading.Thread(target=self.phone, args=(began, n), daemon=True)
            thread.start()
            threads.append(thread)
        for thread in threads:
            thread.join()
        return self


def clock_polls(port, round_id):
    """400 clock polls from one address (20 phones' worth of connections at once): their statuses."""
    statuses, lock = {}, threading.Lock()

    def poller(share):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(share):
            conn.request("GET", f"/api/rounds/{round_id}/clock/", headers={"Host": "127.0.0.1"})
            response = conn.getresponse()
            response.read()
            with lock:
                statuses[response.status] = statuses.get(response.status, 0) + 1
        conn.close()

    threads = [threading.Thread(target=poller, args=(CLOCK_POLLS // 20,)) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--rate", type=float, default=20.0, help="phones arriving a second")
    parser.add_argument("--seconds", type=float, default=40.0, help="how long each phone polls after its page")
    parser.add_argument("--tables", type=int, default=64)
    args = parser.parse_args()

    var = REPO / "var" / "bench-arrival"
    shutil.rmtree(var, ignore_errors=True)
    var.mkdir(parents=True)
    env = {**os.environ, "DJANGO_VAR_DIR": str(var), "DATABASE_URL": f"sqlite:///{var / 'db.sqlite3'}",
           "DJANGO_SETTINGS_MODULE": "bench.settings", "DJANGO_DEBUG": "0",
           "DJANGO_SECRET_KEY": "bench-only-not-a-secret", "DJANGO_SECURE_SSL_REDIRECT": "0",
           "DJANGO_SESSION_COOKIE_SECURE": "0", "DJANGO_CSRF_COOKIE_SECURE": "0", "DJANGO_SECURE_HSTS_SECONDS": "0",
           "DJANGO_LOG_LEVEL": "WARNING"}
    for name in ("REDIS_URL", "CELERY_BROKER_URL"):   # make run's embedded defaults: no Redis
        env.pop(name, None)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", verbosity=0, interactive=False)
    load.seed_tables(args.tables)
    from django.db import connections

    from tournament.models import Round

    round_id = Round.objects.get(stage__event__slug="bench").pk
    connections.close_all()

    port = load.free_port()
    log = open(var / "gunicorn.log", "w")
    server = subprocess.Popen([str(Path(sys.executable).parent / "gunicorn"), "config.wsgi", "-c", "config/gunicorn.py",
                               "--bind", f"127.0.0.1:{port}"], cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("gunicorn did not start (see var/bench-arrival/gunicorn.log)") from None
                time.sleep(0.2)
        live = f"/events/bench/live.json?rounds={round_id}"
        for path in ("/events/bench/schedule/", live, "/bench/bare-read/"):   # warm every worker's first request
            for _ in range(20):
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request("GET", path, headers={"Host": "127.0.0.1"})
                conn.getresponse().read()
                conn.close()
        kw = {"phones": args.phones, "rate": args.rate, "seconds": args.seconds}
        bare = Phase(port, page="/bench/bare-read/", poll="/bench/bare-read/", **kw).run()
        product = Phase(port, page="/events/bench/schedule/", poll=live, **kw).run()
        clock = clock_polls(port, round_id)
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()

    print(f"{args.phones} phones arriving at {args.rate:g}/s, polling every {POLL_EVERY:g} s for {args.seconds:g} s, "
          f"against make run's server (config/gunicorn.py, SQLite, DEBUG off), {args.tables} tables")
    for name, phase in (("bare view", bare), ("product", product)):
        print(f"  {name:9}: page open p50 {percentile(phase.opens, 0.5):7.1f} ms  p95 "
              f"{percentile(phase.opens, 0.95):7.1f} ms  poll p99 {percentile(phase.polls, 0.99):7.1f} ms  "
              f"({len(phase.polls)} polls, median {statistics.median(phase.polls) * 1000 if phase.polls else 0:.1f} ms)"
              f"  refused {len(phase.refused)}  statuses {dict(sorted(phase.statuses.items()))}")
    ratio = percentile(product.opens, 0.95) / percentile(bare.opens, 0.95)
    refused = len(bare.refused) + len(product.refused)
    throttled = clock.get(429, 0)
    misses = []
    if refused:
        misses.append(f"{refused} refused connections")
    if not ratio <= PAGE_OF_BARE:
        misses.append(f"page-open p95 {ratio:.2f}x the bare view's")
    if throttled:
        misses.append(f"{throttled} clock polls refused 429")
    bad = {s: n for s, n in product.statuses.items() if s not in (200, 304)}
    if bad:
        misses.append(f"product answers {bad}")
    print(f"  page-open p95 {ratio:.2f}x the bare view's (target <= {PAGE_OF_BARE:g}x); refused connections "
          f"{refused} (target 0)")
    print(f"  {CLOCK_POLLS} clock polls from one address: {dict(sorted(clock.items()))}; 429: {throttled} (target 0)")
    print("  MISSED: " + "; ".join(misses) if misses else "  all targets met")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
