"""A 2,048-table round where the players record: each side enters hands with its code, the other side confirms
them, 200 floor referees watch their tables and decide the disputes, at ten times the round's real rate.

A scratch PostgreSQL database (``bench/load.py``'s ``Server``, gunicorn as deployed) gets one event where the
players record, one round of 2,048 tables (4,096 pairs, bulk-created), both sides' codes issued by the desk's
service (``codes.issue_round_codes``), and 200 floor referees, each assigned a block of about ten tables (a
session each). The real round plays a hand every 2–3 minutes at each table; here each table's hand comes
every 12–18 s (``--speedup 10``): north–south enters it (``POST /api/matches/<id>/hand-entries/`` with
``Authorization: Side <match>:<code>`` and an Idempotency-Key), east–west confirms it 1–3 s later
(``…/confirm/``, its own code). One hand in ``--dispute-every`` is disputed instead and decided by the
table's floor referee (``…/decide/``, ``confirm``); every floor referee polls its tables' open entries every
10 s (``GET /api/events/<slug>/hand-entries/open/?mine=1``). The clients are open-loop: each request is sent
when due (a pool of client threads, one kept-alive connection each); its latency is measured from the send,
and how late the pool sent it is reported beside.

In the same run, before and after the round, the bare Django write view (``bench/bare.py``: session, CSRF,
one INSERT) is offered the same rate of writes by the same pool for ``--bare-seconds`` each; the limit is
3 × its p99. Target: the entries' and confirmations' p99 ≤ 3 × the bare view's p99; every entry and
confirmation stored once (each confirmed hand one Hand, each entry one row). Exits 1 on a miss or an error.

Beside the latencies, the CPU a request took (gunicorn's processes and PostgreSQL's, read from /proc before
and after each phase: ``load.cpu_used``) for the bare view and for the round's requests, and the cores the
round's rate needs at that cost: whether a miss is this machine's size or the requests' own time.

    .venv/bin/python bench/bench_selfscore.py [--tables 2048] [--referees 200] [--seconds 60] [--speedup 10]
                                              [--pool 64] [--bare-seconds 15] [--dispute-every 50]
"""
import argparse
import heapq
import http.client
import json
import os
import random
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: I001  (bench/load.py, beside this script)

LIMIT_OF_BARE = 3.0
REAL_SECONDS = (120.0, 180.0)    # a hand every 2–3 minutes a table
POLL_SECONDS = 10.0              # a floor referee's page polls its tables' open entries
POINTS = [80, 120]               # the defenders take the stage without a level: the match goes on


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2048)
    parser.add_argument("--referees", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the round's load")
    parser.add_argument("--speedup", type=float, default=10.0, help="times the round's real rate")
    parser.add_argument("--pool", type=int, default=64, help="client threads (one connection each)")
    parser.add_argument("--bare-seconds", type=float, default=15.0, help="each bare-view phase (before, after)")
    parser.add_argument("--dispute-every", type=int, default=50, help="one hand in this many is disputed")
    parser.add_argument("--workers", type=int, default=load.WORKERS)
    return parser.parse_args()


def seed(n_tables, n_referees):
    """The event, its round of ``n_tables`` tables, the codes, the floor referees with their sessions.
    Returns (slug, [(match id, NS code, EW code, referee index)], [(session key, CSRF token)])."""
    import datetime as dt

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.contrib.sessions.backends.db import SessionStore
    from django.middleware.csrf import _get_new_csrf_string

    from scoring.profile_store import latest_profile
    from tournament.models import Event, EventRole, Match, Pair, Player, Round, Stage, Unit
    from tournament.selfscore import codes

    profile = latest_profile("shenzhen-community")
    event = Event.objects.create(slug="bench-self", name="选手录入", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=profile, published=True,
                                 hand_recorders=Event.Recorders.PLAYERS)
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="bench")
    rnd = Round.objects.create(stage=stage, number=1)
    n_pairs = 2 * n_tables
    units = Unit.objects.bulk_create([Unit(event=event, name=f"单位{i}") for i in range(n_pairs)])
    players = Player.objects.bulk_create([Player(event=event, unit=units[i // 2], name=f"选手{i}", gender="M")
                                          for i in range(2 * n_pairs)], batch_size=4000)
    pairs = Pair.objects.bulk_create([Pair(event=event, unit=units[i], player1=players[2 * i],
                                           player2=players[2 * i + 1], name=f"队{i}") for i in range(n_pairs)],
                                     batch_size=4000)
    matches = Match.objects.bulk_create([Match(round=rnd, table=t + 1, ns=pairs[2 * t], ew=pairs[2 * t + 1],
                                               profile=profile) for t in range(n_tables)], batch_size=4000)
    chief = User.objects.create_user("bench-chief", password=None)
    EventRole.objects.create(event=event, user=chief, role=EventRole.Role.CHIEF_REFEREE)
    sessions, through = [], Match.referees.through
    links = []
    for r in range(n_referees):
        user = User.objects.create_user(f"floor{r}", password=None)
        EventRole.objects.create(event=event, user=user, role=EventRole.Role.TABLE_REFEREE)
        session = SessionStore()
        session["_auth_user_id"] = str(user.pk)
        session["_auth_user_backend"] = settings.AUTHENTICATION_BACKENDS[0]
        session["_auth_user_hash"] = user.get_session_auth_hash()
        session.create()
        sessions.append((session.session_key, _get_new_csrf_string()))
        links += [through(match_id=m.pk, user_id=user.pk) for m in matches[r::n_referees]]
    through.objects.bulk_create(links, batch_size=4000)
    issued = {(i.match_id, i.side): i.code for i in codes.issue_round_codes(rnd, chief)}
    tables = [(m.pk, issued[(m.pk, "NS")], issued[(m.pk, "EW")], i % n_referees) for i, m in enumerate(matches)]
    return event.slug, tables, sessions


def hand_body(number):
    body = {"number": number, "trump": "SHDC"[number % 4], "defender_points": POINTS[number % 2],
            "last_trick": {"by": "declarers", "shape": "single"}}
    if number == 1:
        body["declarer"] = "N"
    return body


class Plan:
    """The open-loop schedule: (due, seq, kind, table, data); client threads take what is due."""

    GRACE = 10.0   # seconds past the end a client still sends what fell behind; the rest is counted unsent

    def __init__(self, stop_at):
        self.heap, self.lock, self.seq, self.stop_at = [], threading.Condition(), 0, stop_at
        self.results = {}   # kind -> [(latency, late, status)]
        self.unsent = 0

    def add(self, due, kind, table, data=None):
        if due >= self.stop_at:
            return
        with self.lock:
            self.seq += 1
            heapq.heappush(self.heap, (due, self.seq, kind, table, data))
            self.lock.notify()

    def take(self):
        with self.lock:
            while True:
                now = time.perf_counter()
                if now >= self.stop_at and (not self.heap or self.heap[0][0] > now):
                    return None
                if now >= self.stop_at + self.GRACE:   # an overloaded server: the run stays bounded
                    self.unsent += len(self.heap)
                    self.heap.clear()
                    return None
                if self.heap and self.heap[0][0] <= now:
                    return heapq.heappop(self.heap)
                wait = (self.heap[0][0] - now) if self.heap else 0.2
                self.lock.wait(min(wait, 0.2))

    def record(self, kind, latency, late, status):
        with self.lock:
            self.results.setdefault(kind, []).append((latency, late, status))


def send(conn, method, path, body, headers):
    for retry in (False, True):
        try:
            conn.request(method, path, body, headers)
            response = conn.getresponse()
            return response.status, response.read()
        except (ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected):
            conn.close()
            if retry:
                raise


def drive(port, plan, act, pool):
    """``pool`` threads take the plan's due items and run ``act(conn, item) -> (kind, status)``."""
    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            item = plan.take()
            if item is None:
                break
            began = time.perf_counter()
            try:
                kind, status = act(conn, item)
            except OSError as exc:
                plan.record(item[2], time.perf_counter() - began, began - item[0], repr(exc))
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                continue
            plan.record(kind, time.perf_counter() - began, began - item[0], status)
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(pool)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def bare_phase(port, bare_tables, rate, seconds, pool):
    """The bare write view offered ``rate`` writes a second, spread over its sessions."""
    start = time.perf_counter() + 0.5
    plan = Plan(start + seconds)
    for i in range(int(rate * seconds)):
        plan.add(start + i / rate + random.uniform(0, 1 / rate), "bare", bare_tables[i % len(bare_tables)], i)

    def act(conn, item):
        _match, session_key, csrf = item[3]
        headers = {"Content-Type": "application/json", "X-CSRFToken": csrf, "Host": "127.0.0.1",
                   "Cookie": f"sessionid={session_key}; csrftoken={csrf}"}
        status, _body = send(conn, "POST", "/bench/bare/", json.dumps({"n": item[4]}), headers)
        return "bare", status

    drive(port, plan, act, pool)
    return plan.results.get("bare", []), plan.unsent


def side_headers(match_id, code):
    return {"Content-Type": "application/json", "Host": "127.0.0.1", "Authorization": f"Side {match_id}:{code}",
            "Idempotency-Key": load.new_key()}


def warm_players(port, tables, state):
    """Untimed: the first hand of a few tables entered and confirmed, so every worker has loaded the players'
    code and opened its connection before the round is measured."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    for match_id, ns, ew, _referee in tables:
        status, body = send(conn, "POST", f"/api/matches/{match_id}/hand-entries/", json.dumps(hand_body(1)),
                            side_headers(match_id, ns))
        if status != 201:
            raise SystemExit(f"warm-up entry: {status} {body[:200]!r}")
        entry = json.loads(body)["id"]
        status, body = send(conn, "POST", f"/api/matches/{match_id}/hand-entries/{entry}/confirm/", "{}",
                            side_headers(match_id, ew))
        if status != 201:
            raise SystemExit(f"warm-up confirmation: {status} {body[:200]!r}")
        state[match_id]["number"] = 2
    conn.close()


def round_phase(port, slug, tables, sessions, args, state):
    """The round: entries, confirmations, disputes decided, the floor referees' polls."""
    start = time.perf_counter() + 1.0
    plan = Plan(start + args.seconds)
    low, high = (s / args.speedup for s in REAL_SECONDS)
    rng = random.Random(7)
    for table in tables:
        plan.add(start + rng.uniform(0, high), "enter", table)
    for r, session in enumerate(sessions):
        plan.add(start + rng.uniform(0, POLL_SECONDS), "poll", r, session)
    stored = {"entries": 0, "confirmed": 0, "decided": 0}

    def act(conn, item):
        due, _seq, kind, table, data = item
        if kind == "poll":
            session_key, _csrf = data
            status, _ = send(conn, "GET", f"/api/events/{slug}/hand-entries/open/?mine=1",
                             None, {"Host": "127.0.0.1", "Cookie": f"sessionid={session_key}"})
            plan.add(time.perf_counter() + POLL_SECONDS, "poll", table, data)
            return "poll", status
        match_id, ns, ew, referee = table
        if kind == "enter":
            number = state[match_id]["number"]
            status, body = send(conn, "POST", f"/api/matches/{match_id}/hand-entries/",
                                json.dumps(hand_body(number)), side_headers(match_id, ns))
            if status == 201:
                stored["entries"] += 1
                entry = json.loads(body)["id"]
                disputed = rng.random() < 1 / args.dispute_every   # one hand in so many, any table
                plan.add(time.perf_counter() + rng.uniform(1, 3), "dispute" if disputed else "confirm", table, entry)
            return "enter", status
        if kind == "confirm":
            status, _ = send(conn, "POST", f"/api/matches/{match_id}/hand-entries/{data}/confirm/", "{}",
                             side_headers(match_id, ew))
            if status == 201:
                stored["confirmed"] += 1
                state[match_id]["number"] += 1
                plan.add(time.perf_counter() + rng.uniform(low, high), "enter", table)
            return "confirm", status
        if kind == "dispute":
            status, _ = send(conn, "POST", f"/api/matches/{match_id}/hand-entries/{data}/dispute/",
                             json.dumps({"note": "bench"}), side_headers(match_id, ew))
            if status == 201:
                plan.add(time.perf_counter() + rng.uniform(5, 15), "decide", table, data)
            return "dispute", status
        session_key, csrf = sessions[referee]
        status, _ = send(conn, "POST", f"/api/matches/{match_id}/hand-entries/{data}/decide/",
                         json.dumps({"action": "confirm"}),
                         {"Content-Type": "application/json", "Host": "127.0.0.1", "X-CSRFToken": csrf,
                          "Cookie": f"sessionid={session_key}; csrftoken={csrf}", "Idempotency-Key": load.new_key()})
        if status == 201:
            stored["decided"] += 1
            state[match_id]["number"] += 1
            plan.add(time.perf_counter() + rng.uniform(low, high), "enter", table)
        return "decide", status

    drive(port, plan, act, args.pool)
    return plan.results, stored, state, plan.unsent


def metered(server, run, *args):
    """``run(*args)`` and the CPU seconds it took (``load.cpu_used``), with its wall time as ``wall``."""
    began, at = load.cpu_used(server.proc.pid), time.perf_counter()
    result = run(*args)
    used = load.cpu_between(began, load.cpu_used(server.proc.pid))
    return result, {**used, "wall": time.perf_counter() - at}


def figures(rows):
    ordered = sorted(latency for latency, _late, _status in rows)
    late = sorted(late for _latency, late, _status in rows)
    if not ordered:
        return {"n": 0, "p50": 0.0, "p99": 0.0, "late99": 0.0}
    at = min(len(ordered) - 1, int(len(ordered) * 0.99))
    return {"n": len(ordered), "p50": ordered[len(ordered) // 2] * 1000, "p99": ordered[at] * 1000,
            "late99": late[at] * 1000}


def stored_once(state):
    """Every table's recorded hands are 1..n-1 (n its next number), one version each, and one entry each."""
    from django.db.models import Count, Max

    from scoring.models import Hand
    from tournament.models import HandEntry

    hands = {r["match_id"]: r for r in Hand.objects.values("match_id").annotate(n=Count("id"), top=Max("number"))}
    entries = {r["match_id"]: r["n"] for r in HandEntry.objects.values("match_id").annotate(n=Count("id"))}
    ok = True
    for match_id, kept in state.items():
        done = kept["number"] - 1
        row = hands.get(match_id, {"n": 0, "top": 0})
        ok &= row["n"] == done and (done == 0 or row["top"] == done)
        ok &= entries.get(match_id, 0) in (done, done + 1)   # the last one may still wait at the end
    return ok, sum(r["n"] for r in hands.values()), sum(entries.values())


def main():
    args = arguments()
    rate = args.tables / (sum(REAL_SECONDS) / 2 / args.speedup) * 2   # entries + confirmations a second
    with load.Server("selfscore", args.workers) as server:
        began = time.perf_counter()
        slug, tables, sessions = seed(args.tables, args.referees)
        bare_tables = load.seed_tables(64)
        seeded = time.perf_counter() - began
        server.start()
        load.warm_up(server.port, bare_tables)
        state = {t[0]: {"number": 1} for t in tables}
        warm_players(server.port, tables[:4 * args.workers], state)
        (before, bare_unsent), cpu_before = metered(server, bare_phase, server.port, bare_tables, rate,
                                                     args.bare_seconds, args.pool)
        (results, stored, state, unsent), cpu = metered(server, round_phase, server.port, slug, tables, sessions,
                                                        args, state)
        (after, more), cpu_after = metered(server, bare_phase, server.port, bare_tables, rate, args.bare_seconds,
                                           args.pool)
        bare_unsent += more
        once, hands, entries = stored_once(state)
    bare = figures(before + after)
    writes = figures(results.get("enter", []) + results.get("confirm", []))
    limit = LIMIT_OF_BARE * bare["p99"]
    errors = [(kind, status) for kind, rows in results.items() for _l, _late, status in rows if status not in (200, 201)]
    errors += [("bare", status) for _l, _late, status in before + after if status != 201]
    print(f"gunicorn {args.workers} gthread workers + PostgreSQL; {args.tables} tables, {args.referees} floor "
          f"referees, a hand every {REAL_SECONDS[0] / args.speedup:.0f}–{REAL_SECONDS[1] / args.speedup:.0f} s a "
          f"table ({args.speedup:g}× the round's real rate): about {rate:.0f} entries + confirmations a second, "
          f"{args.seconds:.0f} s; pool of {args.pool} clients; seeded in {seeded:.0f} s")
    print(f"bare write view at the same rate, {len(before) + len(after)} writes before and after: p50 "
          f"{bare['p50']:.1f} ms, p99 {bare['p99']:.1f} ms (sent late p99 {bare['late99']:.0f} ms; "
          f"{bare_unsent} not sent {Plan.GRACE:.0f} s past the end)")
    for kind in ("enter", "confirm", "dispute", "decide", "poll"):
        fig = figures(results.get(kind, []))
        print(f"  {kind:8s} {fig['n']:6d}: p50 {fig['p50']:.1f} ms, p99 {fig['p99']:.1f} ms "
              f"(sent late p99 {fig['late99']:.0f} ms)")
    served = sum(len(rows) for rows in results.values())
    bare_cpu = (cpu_before["server"] + cpu_before["database"] + cpu_after["server"] + cpu_after["database"]) / max(
        1, len(before) + len(after))
    round_cpu = (cpu["server"] + cpu["database"]) / max(1, served)
    planned = rate + args.referees / POLL_SECONDS   # entries + confirmations, the floor referees' polls
    print(f"CPU a request (gunicorn + PostgreSQL): bare view {bare_cpu * 1000:.1f} ms, the round's {round_cpu * 1000:.1f} "
          f"ms ({round_cpu / bare_cpu if bare_cpu else 0:.1f}× the bare view's); the round's {planned:.0f} requests a "
          f"second need {round_cpu * planned:.1f} cores of it; this machine has {os.cpu_count()}, all busy "
          f"{cpu['machine'] / cpu['wall']:.1f} of them during the round (the bench's own clients "
          f"{cpu['client'] / cpu['wall']:.1f})")
    met = writes["n"] > 0 and writes["p99"] <= limit and not unsent
    print(f"  round items not sent {Plan.GRACE:.0f} s past the end (the server fell behind): {unsent}")
    print(f"entries + confirmations {writes['n']}: p50 {writes['p50']:.1f} ms, p99 {writes['p99']:.1f} ms; "
          f"limit {LIMIT_OF_BARE:.0f}× the bare view's p99 = {limit:.1f} ms: {'met' if met else 'NOT met'} "
          f"(ratio {writes['p99'] / bare['p99'] if bare['p99'] else 0:.2f})")
    print(f"stored: {entries} entries, {hands} hands ({stored['confirmed']} confirmed, {stored['decided']} decided); "
          f"every entry and hand once: {'yes' if once else 'NO'}; errors: {len(errors)}"
          f"{' ' + repr(errors[:3]) if errors else ''}")
    if errors or not once or not met:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
