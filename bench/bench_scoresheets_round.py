"""A whole round's score sheets as one PDF: 2,048 tables (4,096 pairs, 8,192 players) through the real
print-job path, target under 60 s and under 500 MB peak RSS.

A scratch PostgreSQL database is created, migrated and seeded with bulk_create (one round of 2,048
tables in 512 groups, Chinese names, 256 units; a few tables with hands and rulings recorded through
the real services), then dropped (``bench.load.Server``). The build runs in a fresh child process, as a
Celery worker would: the organiser's request (``request_job``: collect, fingerprint, the PrintJob row)
then the task body ``build_print_job`` in-process (collect again, draw, store through Django's storage
API), once with each file store (``filesystem``, ``database``). The child prints its baseline RSS
(after Django's start-up) and its peak RSS (``ru_maxrss``), so the seeding never counts.

Prints each figure beside its target; exits 1 when one is missed.
Run: ``.venv/bin/python bench/bench_scoresheets_round.py [--tables 2048] [--storage both]``.
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
SECONDS_TARGET = 60.0
PEAK_MB_TARGET = 500.0
GROUP_SIZE = 8  # pairs per group: 4 tables a round
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蔡蒋余于杜叶程苏魏吕丁任沈姚卢"
GIVEN = "伟芳娜秀英敏静丽强磊军洋勇艳杰娟涛明超兰霞平刚桂华建国红梅玉珍志文斌宇浩凯鹏飞晓云海燕"
DISTRICTS = ("福田", "罗湖", "南山", "宝安", "龙岗", "盐田", "龙华", "坪山", "光明", "大鹏")


def peak_rss_mb():
    """This process's peak resident memory so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- the parent: scratch database, seeding, one child per file store ---------------------------------

def seed_round(tables, recorded=32):
    """One event with one round of ``tables`` tables; hands and rulings recorded at ``recorded`` tables.
    Returns the round's id."""
    import datetime as dt

    from django.contrib.auth.models import Group as AuthGroup
    from django.contrib.auth.models import Permission, User
    from django.contrib.contenttypes.models import ContentType

    from rulings.services import record_ruling
    from scoring.profile_store import latest_profile
    from scoring.services import record_hand
    from tournament import roles
    from tournament.models import Event, Group, GroupEntry, Match, Pair, Player, Round, Stage, Unit

    rng = random.Random(2048)
    roles.sync_role_groups(AuthGroup, Permission, ContentType)
    chief = User.objects.create_user("bench-chief", password=None, first_name="裁判长")
    chief.groups.add(AuthGroup.objects.get(name=roles.CHIEF_REFEREE))
    profile = latest_profile("shenzhen-community")
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug="bench-round", name="2026年深圳市社区居民扑克牌升级大赛（全市赛）",
                                 start_date=day, end_date=day, profile=profile, published=True)
    units = Unit.objects.bulk_create(
        [Unit(event=event, name=f"{DISTRICTS[i % 10]}区第{i + 1}社区") for i in range(256)])
    n_pairs = 2 * tables

    def name():
        return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice((1, 2))))

    players = Player.objects.bulk_create(
        [Player(event=event, unit=units[i // 2 % 256], name=name(), gender="M" if i % 3 else "F")
         for i in range(2 * n_pairs)], batch_size=4000)
    pairs = Pair.objects.bulk_create(
        [Pair(event=event, unit=units[i % 256], player1=players[2 * i], player2=players[2 * i + 1],
              name=f"{units[i % 256].name}{i // 256 + 1}队", seed=i + 1 if i < 64 else None)
         for i in range(n_pairs)], batch_size=4000)
    stage = Stage.objects.create(event=event, order=1, kind=Stage.Kind.ROUND_ROBIN, name="小组赛")
    n_groups = n_pairs // GROUP_SIZE
    groups = Group.objects.bulk_create([Group(stage=stage, name=f"第{g + 1}组", order=g + 1)
                                        for g in range(n_groups)])
    GroupEntry.objects.bulk_create([GroupEntry(group=groups[g], pair=pairs[g * GROUP_SIZE + k], position=k + 1)
                                    for g in range(n_groups) for k in range(GROUP_SIZE)], batch_size=4000)
    rnd = Round.objects.create(stage=stage, number=1,
                               scheduled_start=dt.datetime(2026, 12, 5, 1, 0, tzinfo=dt.timezone.utc))
    Match.objects.bulk_create(
        [Match(round=rnd, group=groups[t // (GROUP_SIZE // 2)], table=t + 1, ns=pairs[2 * t], ew=pairs[2 * t + 1],
               profile=profile) for t in range(tables)], batch_size=4000)
    step = max(1, tables // recorded)
    for match in Match.objects.filter(round=rnd, table__in=range(1, tables + 1, step)).order_by("table"):
        for number, points in enumerate((30, 85, 20), start=1):
            record_hand(match, chief, number=number, trump="S", defender_points=points,
                        declarer="N" if number == 1 else None)
        record_ruling(match, chief, "late", "NS", minutes=3, hand_number=3, note="迟到3分钟")
    return rnd.pk


def run_child(env, round_id, storage):
    """One build in a fresh process with ``storage`` as the file store; its figures as a dict."""
    child_env = {**env, "DJANGO_FILE_STORAGE": storage}
    done = subprocess.run([sys.executable, __file__, "--child", str(round_id)], env=child_env, cwd=REPO,
                          capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"the {storage} build failed (exit {done.returncode})")
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(storage, figs):
    """Print one build's figures beside the targets; returns whether both are met."""
    total = figs["request_s"] + figs["task_s"]
    ok_time, ok_mem = total < SECONDS_TARGET, figs["peak_mb"] < PEAK_MB_TARGET
    print(f"[{storage} store] {figs['sheets']} score sheets, {figs['pages']} pages, "
          f"PDF {figs['pdf_bytes'] / 2**20:.1f} MB, job {figs['status']}")
    print(f"  time: {total:.1f} s (request {figs['request_s']:.1f} s + task {figs['task_s']:.1f} s; "
          f"target < {SECONDS_TARGET:.0f} s: {'met' if ok_time else 'NOT met'})")
    print(f"  peak RSS: {figs['peak_mb']:.0f} MB (baseline after start-up {figs['baseline_mb']:.0f} MB; "
          f"target < {PEAK_MB_TARGET:.0f} MB: {'met' if ok_mem else 'NOT met'}); "
          f"peak before storing the PDF {figs['before_store_mb']:.0f} MB")
    print(f"  progress: {figs['progress_writes']} updates stored ({figs['progress_values']}); "
          f"task SQL queries: {figs['task_queries']}")
    return ok_time and ok_mem and figs["status"] == "done" and figs["pages"] == figs["sheets"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2048)
    parser.add_argument("--storage", choices=("both", "filesystem", "database"), default="both")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        return child(args.child)
    sys.path.insert(0, str(REPO))
    from bench.load import Server

    stores = ("filesystem", "database") if args.storage == "both" else (args.storage,)
    ok = True
    with Server("scoresheets") as server:
        from django.db import connections

        from tournament.models import PrintJob

        began = time.perf_counter()
        round_id = seed_round(args.tables)
        print(f"seeded {args.tables} tables ({2 * args.tables} pairs, {4 * args.tables} players) "
              f"in {time.perf_counter() - began:.1f} s")
        connections.close_all()
        for storage in stores:
            PrintJob.objects.all().delete()  # each build is a new job (else the request hands back the done one)
            connections.close_all()
            ok = report(storage, run_child(server.env, round_id, storage)) and ok
    return 0 if ok else 1


# --- the child: one build, as a worker runs it -----------------------------------------------------

def child(round_id):
    """The organiser's request then the Celery task body, in this process; prints the figures as JSON."""
    sys.path.insert(0, str(REPO))
    import django

    django.setup()
    from unittest import mock

    from django.db import connection
    from pypdf import PdfReader

    from tournament.models import PrintJob, Round
    from tournament.printouts import services
    from tournament.printouts.common import PrintOptions
    from tournament.printouts.tasks import build_print_job

    baseline = peak_rss_mb()
    rnd = Round.objects.select_related("stage__event").get(pk=round_id)
    options = PrintOptions(round=round_id, site_url="https://tractor.example.org")
    queued = []
    began = time.perf_counter()
    with mock.patch.object(services, "send_build", queued.append):  # no broker: run it here
        job, created = services.request_job("scoresheets", rnd.stage.event, options)
    request_s = time.perf_counter() - began
    assert created and queued == [job.pk], (created, queued)

    progress, queries = [], [0]

    def spy(execute, sql, params, many, context):
        queries[0] += 1
        if sql.startswith('UPDATE "tournament_printjob" SET "progress"'):
            progress.append(params[0])
        return execute(sql, params, many, context)

    storage = PrintJob._meta.get_field("file").storage
    save, before_store = storage.save, []

    def measured_save(*args, **kwargs):  # the peak before the PDF is handed to the store
        before_store.append(peak_rss_mb())
        return save(*args, **kwargs)

    began = time.perf_counter()
    with connection.execute_wrapper(spy), mock.patch.object(storage, "save", measured_save):
        result = build_print_job(job.pk)
    task_s = time.perf_counter() - began
    peak = peak_rss_mb()
    job = PrintJob.objects.get(pk=job.pk)
    pdf_bytes = pages = 0
    if job.file:
        pdf_bytes = job.file.size
        with job.file.open("rb") as handle:
            pages = len(PdfReader(handle).pages)
        job.file.storage.delete(job.file.name)
    sheets = rnd.matches.count()
    print(json.dumps({"request_s": request_s, "task_s": task_s, "baseline_mb": baseline, "peak_mb": peak,
                      "before_store_mb": before_store[0] if before_store else peak,
                      "status": result["status"], "sheets": sheets, "pages": pages, "pdf_bytes": pdf_bytes,
                      "progress_writes": len(progress), "progress_values": progress,
                      "task_queries": queries[0], "error": job.error}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
