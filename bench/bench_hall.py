"""A hall full of phones (issue 31 item 2): spectators polling the live JSON and opening pages while the
tables write, through gunicorn like production, with PostgreSQL and Redis, beside the bare view.

The event (``bench.load.seed_tables``): one published round of ``--tables`` tables (64; 128, 512 and 2,048
for the growth figures), each with its own referee; 64 of them write. In
each phase of ``--seconds`` the same offered load is sent twice, the bare view first, then the product:

* ``--spectators`` phones (2,000) each polling every 10 s (not synchronised): the product's
  ``/events/<slug>/live.json?rounds=<id>&tables=<the tables its page shows>`` as ``static/js/live.js`` asks
  for it, with the ETag of the phone's last answer (``If-None-Match``): ``--whole-round`` of them (a quarter)
  on the round's schedule (every table: named when at most 100, else the whole round), the others on their
  own entry page (their table); the bare read view (``/bench/bare-read/``: one SELECT) in the bare phase;
* ``--pages`` page opens (200) spread over the phase: the event's hub, schedule and standings in turn (the
  bare read view in the bare phase);
* every table writing a hand every 5 s (``/api/matches/<id>/hands/`` with an Idempotency-Key; the bare write
  view ``/bench/bare/`` in the bare phase).

A spectator's latency is counted from when its poll was due, so a client that falls behind counts it. The
targets (read as issue 25's: an absolute limit on a fast machine, the ratio on a slow day): 0 errors; the
spectators' p99 and the writes' p99 each under 100 ms on a machine whose bare view does 400 req/s or more
back to back (measured here too), else each at most 3x the bare view's p99 at the same offered load in the
same run (the ratio is printed either way); after the writes stop, a poll with the last ETag answers 304.
Exits 1 on a miss.

    .venv/bin/python bench/bench_hall.py [--spectators 2000] [--pages 200] [--seconds 30] [--pollers 48] [--nginx]
"""
import argparse
import http.client
import json
import os
import queue
import random
import statistics
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench import load  # noqa: E402
from bench.bench_hands_api import hand_body  # noqa: E402
from tools import nginx_front  # noqa: E402

POLL_EVERY = 10.0
WRITE_EVERY = 5.0
P99_OF_BARE = 3.0
FAST_BARE_RPS = 400
FAST_P99_MS = 100.0
PAGES = ("/events/bench/", "/events/bench/schedule/", "/events/bench/standings/")
LIVE_MAX_TABLES = 100   # tournament.competition.live.MAX_TABLES (not imported: Django is set up later)


def p99(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000 if ordered else float("nan")


class Readers:
    """The spectators and page openers of one phase: a schedule of due requests, worked off by a pool of
    client threads (each with its kept-alive connection)."""

    def __init__(self, port, *, spectators, pages, seconds, pollers, bare, round_id, match_ids, whole_round):
        self.port, self.bare, self.seconds = port, bare, seconds
        self.live = live_path(round_id, match_ids)
        rng = random.Random(7)
        self.follows = {spectator: self.live if rng.random() < whole_round else
                        live_path(round_id, [rng.choice(match_ids)]) for spectator in range(spectators)}
        due = []
        for spectator in range(spectators):
            at = rng.uniform(0, POLL_EVERY)
            while at < seconds:
                due.append((at, "poll", spectator))
                at += POLL_EVERY
        due += [(rng.uniform(0, seconds), "page", i) for i in range(pages)]
        self.due = sorted(due)
        self.tags = {}
        self.latency = {"poll": [], "page": []}
        self.status = {}
        self.errors = []
        self.lock = threading.Lock()
        self.work = queue.Queue()
        self.pollers = pollers

    def path(self, kind, n):
        if self.bare:
            return "/bench/bare-read/"
        return self.follows[n] if kind == "poll" else PAGES[n % len(PAGES)]

    def client(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        while True:
            item = self.work.get()
            if item is None:
                break
            due_at, kind, n = item
            headers = {"Host": "127.0.0.1", "Accept": "application/json" if kind == "poll" else "text/html"}
            tag = self.tags.get(n) if kind == "poll" else None
            if tag:
                headers["If-None-Match"] = tag
            for retry in (False, True):
                try:
                    conn.request("GET", self.path(kind, n), headers=headers)
                    response = conn.getresponse()
                    response.read()
                    break
                except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected) as exc:
                    conn.close()
                    if retry:
                        with self.lock:
                            self.errors.append(repr(exc))
                        response = None
            done = time.perf_counter()
            if response is None:
                continue
            with self.lock:
                self.latency[kind].append(done - due_at)
                self.status[response.status] = self.status.get(response.status, 0) + 1
                if response.status not in (200, 304):
                    self.errors.append((kind, response.status))
                if kind == "poll" and response.getheader("ETag"):
                    self.tags[n] = response.getheader("ETag")
        conn.close()

    def run(self, began):
        threads = [threading.Thread(target=self.client) for _ in range(self.pollers)]
        for thread in threads:
            thread.start()
        for at, kind, n in self.due:
            wait = began + at - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            self.work.put((began + at, kind, n))
        for _ in threads:
            self.work.put(None)
        for thread in threads:
            thread.join()


def live_path(round_id, match_ids):
    """The poll of a page showing ``match_ids`` (``static/js/live.js``: named when at most 100)."""
    tables = f"&tables={','.join(map(str, match_ids))}" if len(match_ids) <= LIVE_MAX_TABLES else ""
    return f"/events/bench/live.json?rounds={round_id}{tables}"


class Table(load.Writer):
    """A table's referee recording the next hand (the product phase) or the bare write (the bare phase)."""

    numbers = {}

    def __init__(self, table, bare):
        super().__init__(table)
        self.bare = bare

    def request(self, i):
        if self.bare:
            return "/bench/bare/", json.dumps({"n": i}), None
        number = Table.numbers.get(self.match_id, 1)
        return f"/api/matches/{self.match_id}/hands/", json.dumps(hand_body(number)), load.new_key()

    def answered(self, body):
        if not self.bare:
            Table.numbers[self.match_id] = Table.numbers.get(self.match_id, 1) + 1


def phase(port, tables, round_id, match_ids, args, bare):
    """One phase's readers and writers together; their figures."""
    readers = Readers(port, spectators=args.spectators, pages=args.pages, seconds=args.seconds,
                      pollers=args.pollers, bare=bare, round_id=round_id, match_ids=match_ids,
                      whole_round=args.whole_round)
    writes = {}

    def write():
        writes["lat"], _elapsed, writes["errors"] = load.run_load(
            port, [Table(t, bare) for t in tables], 0, pace=WRITE_EVERY, duration=args.seconds)

    writer = threading.Thread(target=write)
    began = time.perf_counter()
    writer.start()
    readers.run(began)
    writer.join()
    elapsed = time.perf_counter() - began
    reads = readers.latency["poll"] + readers.latency["page"]
    return {"reads": len(reads), "polls": len(readers.latency["poll"]), "pages": len(readers.latency["page"]),
            "writes": len(writes["lat"]), "elapsed": elapsed, "poll_p99": p99(readers.latency["poll"]),
            "page_p99": p99(readers.latency["page"]), "read_p99": p99(reads),
            "read_p50": statistics.median(reads) * 1000 if reads else float("nan"),
            "write_p99": p99(writes["lat"]), "write_p50": statistics.median(writes["lat"]) * 1000,
            "status": readers.status, "errors": readers.errors + writes["errors"], "tags": readers.tags,
            "live": readers.live}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--pollers", type=int, default=48, help="client threads working off the readers' schedule")
    parser.add_argument("--workers", type=int, default=load.WORKERS)
    parser.add_argument("--tables", type=int, default=64,
                        help="tables in the round the spectators follow (64 of them write): 128 / 512 / 2,048 "
                             "for an event of 256 / 1,024 / 4,096 pairs")
    parser.add_argument("--nginx", action="store_true",
                        help="every request through config/nginx.conf's nginx (its micro-cache) in front, the bare "
                             "view's too")
    parser.add_argument("--whole-round", type=float, default=0.25,
                        help="the share of spectators on the round's schedule (the others on their entry page)")
    args = parser.parse_args()
    redis = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379")
    server = load.Server("hall", args.workers)
    server.env.update({"REDIS_URL": f"{redis}/11", "CELERY_BROKER_URL": f"{redis}/12"})  # production's path
    with server:
        from django.core.cache import cache
        from django.core.management import call_command

        from tournament.models import Match, Round

        cache.clear()
        call_command("collectstatic", interactive=False, verbosity=0)   # production serves the manifest's files
        tables = load.seed_tables(max(64, args.tables))[:64]
        round_id = Round.objects.get(stage__event__slug="bench").pk
        server.start()
        load.warm_up(server.port, tables)
        lat, elapsed, errors = load.run_load(server.port, [load.BareWriter(t) for t in tables], 10**9, limit=3.0)
        bare_rps = load.figures(lat, elapsed)["rps"]
        match_ids = list(Match.objects.filter(round_id=round_id).order_by("table").values_list("pk", flat=True))
        proxy, port = (nginx_front.start(REPO / "var" / "bench-hall-nginx", server.port, workers=os.cpu_count() or 1)
                       if args.nginx else (None, server.port))
        try:
            bare = phase(port, tables, round_id, match_ids, args, bare=True)
            warm_product(port, tables, round_id)
            real = phase(port, tables, round_id, match_ids, args, bare=False)
            quiet = quiet_poll(port, real, settle=3.0 if args.nginx else 0.0)
        finally:
            if proxy is not None:
                proxy.terminate()
                proxy.wait(timeout=30)
    offered = (real["reads"] + real["writes"]) / real["elapsed"]
    print(f"gunicorn {args.workers} gthread workers + PostgreSQL + Redis{', nginx in front (config/nginx.conf)' if args.nginx else ''}; "
          f"bare view back to back {bare_rps:.0f} req/s")
    print(f"a round of {max(64, args.tables)} tables; offered per phase: {args.spectators} spectators polling every "
          f"{POLL_EVERY:.0f} s ({args.whole_round:.0%} the whole round, the others their table), {args.pages} page opens, "
          f"64 tables writing every {WRITE_EVERY:.0f} s: {offered:.0f} req/s for {args.seconds:.0f} s")
    for label, figs in (("bare view", bare), ("product", real)):
        print(f"  {label}: reads p50 {figs['read_p50']:.1f} ms p99 {figs['read_p99']:.1f} ms (polls {figs['polls']}, "
              f"p99 {figs['poll_p99']:.1f}; pages {figs['pages']}, p99 {figs['page_p99']:.1f}); writes {figs['writes']} "
              f"p50 {figs['write_p50']:.1f} ms p99 {figs['write_p99']:.1f} ms; answers {figs['status']}; "
              f"errors {len(figs['errors'])}{' ' + repr(figs['errors'][:3]) if figs['errors'] else ''}")
    ok = not bare["errors"] and not real["errors"] and not errors
    for name, key in (("spectators", "read_p99"), ("writes", "write_p99")):
        fast = bare_rps >= FAST_BARE_RPS
        limit = FAST_P99_MS if fast else P99_OF_BARE * bare[key]
        met = real[key] <= limit
        ok = ok and met
        why = (f"the bare view does {FAST_BARE_RPS} req/s or more: under {FAST_P99_MS:.0f} ms" if fast else
               f"a slow day: {P99_OF_BARE:.0f}x the bare view's p99")
        print(f"  {name}' p99 {real[key]:.1f} ms = {real[key] / bare[key]:.1f}x the bare view's {bare[key]:.1f} ms; "
              f"target <= {limit:.1f} ms ({why}): {'met' if met else 'NOT met'}")
    print(f"  a poll with the last ETag once the writes stopped: {quiet} (target 304: {'met' if quiet == 304 else 'NOT met'})")
    return 0 if ok and quiet == 304 else 1


def warm_product(port, tables, round_id):
    """Untimed, as the bare view was warmed: one hand per table (its kept state made), the pages and a poll
    once per worker, so the product's phase is as warm as the bare view's."""
    load.run_load(port, [Table(t, False) for t in tables], 1)
    for path in (*PAGES, f"/events/bench/live.json?rounds={round_id}") * load.WORKERS:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", path, headers={"Host": "127.0.0.1"})
        conn.getresponse().read()
        conn.close()


def quiet_poll(port, figs, settle=0.0):
    """After the phase: a poll, then the same poll with its ETag (nothing changed in between). Through nginx the
    micro-cache first settles (``settle`` seconds, then a poll that starts its copy's refresh): until then it may
    serve the copy of a moment before the last write (``proxy_cache_use_stale updating``)."""
    if settle:
        time.sleep(settle)
        warm = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        warm.request("GET", figs["live"], headers={"Host": "127.0.0.1"})
        warm.getresponse().read()
        warm.close()
        time.sleep(1.0)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", figs["live"], headers={"Host": "127.0.0.1"})
    first = conn.getresponse()
    first.read()
    conn.request("GET", figs["live"], headers={"Host": "127.0.0.1", "If-None-Match": first.getheader("ETag") or ""})
    second = conn.getresponse()
    second.read()
    conn.close()
    return second.status


if __name__ == "__main__":
    sys.exit(main())
