"""Round turnover (issue 31 item 3): from the last result of a Swiss round to the next round paired,
published and its score sheets and table cards printed, end to end, at 256, 1,024 and 4,096 entries.

A scratch PostgreSQL database (``bench.load.Server``) gets one Swiss event per size (bulk_create: pairs in
256 units, Chinese names); round 1 is paired by the real service and every table but the last is given a
result in bulk (status, winner, levels: what the standings read). Then a fresh child process, as the
organiser's web request and a worker would run it, times each step through the real services:

1. the last table's hands recorded (``scoring.services.record_hand``) until its match is won;
2. the round closed, its results published (``tournament.competition.rounds.close_round``);
3. the next round paired from the standings (``swiss_rounds.pair_next_round``), its tables public at once;
4. the round's score sheets and table cards: the organiser's print request (``request_job``) and the task
   body (``build_print_job``) in-process, with their progress writes counted.

The child prints its peak RSS (``ru_maxrss``; the seeding never counts). The bare Django view's rate is
measured in the same run (gunicorn, 64 clients back to back, ``bench/load.py``) and printed beside it.
Targets at 4,096 entries: under 60 s end to end on a machine whose bare view does 400 req/s or more (on a
slower day the limit is scaled by 400 / its rate), under 500 MB per process. Exits 1 on a miss.

    .venv/bin/python bench/bench_round_turnover.py [--sizes 256,1024,4096]
"""
import argparse
import json
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from bench import load  # noqa: E402

SECONDS_TARGET = 60.0   # at 4,096 entries, on a machine whose bare view does FAST_BARE_RPS or more
FAST_BARE_RPS = 400
PEAK_MB_TARGET = 500.0
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蔡蒋余于杜叶程苏魏吕丁任沈姚卢"
GIVEN = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂华建国红梅玉珍志文斌宇浩凯鹏飞晓云海燕"


def peak_rss_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- the parent: the bare view's rate, one seeded event per size, one child per size ----------------------

def bare_rate(server, seconds=3.0):
    """The bare Django view back to back (64 clients, gunicorn as production): requests/s."""
    tables = load.seed_tables(64)
    server.start()
    load.warm_up(server.port, tables)
    latencies, elapsed, errors = load.run_load(server.port, [load.BareWriter(t) for t in tables], 10**9,
                                               limit=seconds)
    server.proc.terminate()
    server.proc.wait(timeout=30)
    server.proc = None
    if errors:
        raise SystemExit(f"the bare view failed: {errors[:3]}")
    return load.figures(latencies, elapsed)["rps"]


def seed(n_pairs):
    """A published Swiss event of ``n_pairs`` entries, round 1 paired, every table but the last decided.
    Returns (stage id, the last table's match id, chief id, organiser id, seconds round 1's pairing took)."""
    import datetime as dt

    from django.contrib.auth.models import Group as AuthGroup
    from django.contrib.auth.models import Permission, User
    from django.contrib.contenttypes.models import ContentType

    from scoring.profile_store import latest_profile
    from tournament import roles
    from tournament.competition import swiss_rounds
    from tournament.models import Event, Match, Pair, Player, Unit

    rng = random.Random(n_pairs)
    roles.sync_role_groups(AuthGroup, Permission, ContentType)
    chief, _ = User.objects.get_or_create(username="turnover-chief", defaults={"first_name": "裁判长"})
    chief.groups.add(AuthGroup.objects.get(name=roles.CHIEF_REFEREE))
    organiser, _ = User.objects.get_or_create(username="turnover-organiser", defaults={"first_name": "主办方"})
    organiser.groups.add(AuthGroup.objects.get(name=roles.ORGANISER))
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug=f"turnover-{n_pairs}", name=f"全市瑞士制邀请赛（{n_pairs}对）", start_date=day,
                                 end_date=day, profile=latest_profile("shenzhen-community"), published=True)
    units = Unit.objects.bulk_create([Unit(event=event, name=f"第{i + 1}社区") for i in range(256)])

    def name():
        return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2))))

    players = Player.objects.bulk_create([Player(event=event, unit=units[i // 2 % 256], name=name(),
                                                 gender="M" if i % 3 else "F") for i in range(2 * n_pairs)],
                                         batch_size=4000)
    Pair.objects.bulk_create([Pair(event=event, unit=units[i % 256], player1=players[2 * i],
                                   player2=players[2 * i + 1], name=f"{units[i % 256].name}{i // 256 + 1}队")
                              for i in range(n_pairs)], batch_size=4000)
    stage = swiss_rounds.create_swiss_stage(event, rounds=5)
    began = time.perf_counter()
    swiss_rounds.pair_next_round(stage, seed="1", user=organiser)
    paired_s = time.perf_counter() - began
    matches = list(Match.objects.filter(round__stage=stage, ew__isnull=False).order_by("table"))
    last, decided = matches[-1], matches[:-1]
    finished = dt.datetime(2026, 12, 5, 3, 0, tzinfo=dt.timezone.utc)
    for match in decided:   # what the standings read of a finished match (no hands: the bench's shortcut)
        ns_won = rng.random() < 0.5
        match.status, match.winner_id = Match.Status.FINISHED, match.ns_id if ns_won else match.ew_id
        match.ns_level, match.ew_level = ("A", str(rng.randint(2, 9))) if ns_won else (str(rng.randint(2, 9)), "A")
        match.started_at, match.finished_at = finished - dt.timedelta(hours=1), finished
    Match.objects.bulk_update(decided, ["status", "winner", "ns_level", "ew_level", "started_at", "finished_at"],
                              batch_size=1000)
    return stage.pk, last.pk, chief.pk, organiser.pk, paired_s


def run_child(env, args):
    done = subprocess.run([sys.executable, __file__, "--child", json.dumps(args)], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"the turnover child failed (exit {done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(n_pairs, figs, paired_s, limit):
    steps = figs["steps"]
    total = sum(steps.values())
    print(f"{n_pairs} entries ({n_pairs // 2} tables): turnover {total:.1f} s end to end; peak RSS "
          f"{figs['peak_mb']:.0f} MB (after start-up {figs['baseline_mb']:.0f} MB)")
    print("  " + "; ".join(f"{name} {seconds:.2f} s" for name, seconds in steps.items()))
    print(f"  printed: {figs['sheets']} score sheets and {figs['cards']} table cards, "
          f"{figs['progress_writes']} progress updates stored; round 1 paired at seeding in {paired_s:.2f} s")
    if limit is None:
        return figs["peak_mb"] < PEAK_MB_TARGET and figs["ok"]
    ok_time, ok_mem = total < limit, figs["peak_mb"] < PEAK_MB_TARGET
    print(f"  target: < {limit:.0f} s ({'met' if ok_time else 'NOT met'}), < {PEAK_MB_TARGET:.0f} MB "
          f"({'met' if ok_mem else 'NOT met'})")
    return ok_time and ok_mem and figs["ok"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="256,1024,4096", help="entries per event, comma-separated")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(json.loads(args.child))
    sizes = [int(s) for s in args.sizes.split(",")]
    ok = True
    with load.Server("turnover") as server:
        from django.db import connections

        bare = bare_rate(server)
        limit = SECONDS_TARGET * max(1.0, FAST_BARE_RPS / bare)
        print(f"bare Django view (gunicorn, 64 clients back to back): {bare:.0f} req/s; the 4,096-entry target "
              f"{limit:.0f} s" + ("" if bare >= FAST_BARE_RPS else f" (60 s x {FAST_BARE_RPS} / {bare:.0f})"))
        for n_pairs in sizes:
            began = time.perf_counter()
            stage_id, match_id, chief_id, organiser_id, paired_s = seed(n_pairs)
            print(f"seeded {n_pairs} entries in {time.perf_counter() - began:.1f} s")
            connections.close_all()
            figs = run_child(server.env, {"stage": stage_id, "match": match_id, "chief": chief_id,
                                          "organiser": organiser_id})
            ok = report(n_pairs, figs, paired_s, limit if n_pairs >= 4096 else None) and ok
    return 0 if ok else 1


# --- the child: the turnover, as the web request and the worker run it -------------------------------------

def child(ids):
    import django

    django.setup()
    from unittest import mock

    from django.contrib.auth.models import User
    from django.db import connection

    from scoring.services import record_hand
    from tournament.competition import rounds, swiss_rounds
    from tournament.models import Match, PrintJob, Stage
    from tournament.printouts import services as printing
    from tournament.printouts.common import PrintOptions
    from tournament.printouts.tasks import build_print_job

    baseline = peak_rss_mb()
    chief, organiser = User.objects.get(pk=ids["chief"]), User.objects.get(pk=ids["organiser"])
    stage = Stage.objects.select_related("event").get(pk=ids["stage"])
    steps = {}

    began = time.perf_counter()
    match = Match.objects.get(pk=ids["match"])
    number = 1
    while not match.is_over:
        record_hand(match, chief, number=number, trump="S", defender_points=0, declarer="N" if number == 1 else None)
        match.refresh_from_db()
        number += 1
    steps["last result"] = time.perf_counter() - began

    began = time.perf_counter()
    rounds.close_round(match.round, chief)
    steps["round closed"] = time.perf_counter() - began

    began = time.perf_counter()
    draw = swiss_rounds.pair_next_round(stage, seed="2", user=organiser)
    steps["next round paired"] = time.perf_counter() - began
    next_round = stage.rounds.get(number=draw.params["round"])

    progress = [0]

    def spy(execute, sql, params, many, context):
        if sql.startswith('UPDATE "tournament_printjob" SET "progress"'):
            progress[0] += 1
        return execute(sql, params, many, context)

    built = {}
    for kind in ("scoresheets", "tablecards"):
        began = time.perf_counter()
        queued = []
        with mock.patch.object(printing, "send_build", queued.append):   # no broker: the task runs here
            job, _created = printing.request_job(kind, stage.event, PrintOptions(round=next_round.pk),
                                                 user=organiser)
        with connection.execute_wrapper(spy):
            result = build_print_job(job.pk)
        steps[f"{kind} printed"] = time.perf_counter() - began
        job = PrintJob.objects.get(pk=job.pk)
        built[kind] = (result["status"], queued == [job.pk], bool(job.file))
        if job.file:
            job.file.storage.delete(job.file.name)
    tables = next_round.matches.exclude(table=None).count()
    print(json.dumps({"steps": steps, "baseline_mb": baseline, "peak_mb": peak_rss_mb(), "sheets": tables,
                      "cards": tables, "progress_writes": progress[0], "hands": number - 1,
                      "ok": all(status == "done" and sent and stored for status, sent, stored in built.values()),
                      "built": built}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
