"""A print job whose worker dies mid-build is requeued exactly once and finished by another worker (issue 17,
item 4: a killed worker left a job "running 15 %" and re-requests returned the stuck job)."""
import datetime as dt
import time

import pytest
from pypdf import PdfReader

from tests.tournament.test_printouts_data import chief, event, first_round  # noqa: F401  (fixtures)
from tournament.models import PrintJob
from tournament.printouts import services
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import (
    JobTakenOver,
    _claim,
    _progress_writer,
    request_job,
    requeue_stale_jobs,
    run_job,
)


class WorkerKilled(BaseException):
    """Stands for SIGKILL: nothing after it runs in the worker (not even ``except Exception``)."""


class FakeClock:
    """An injected clock: ``now()`` answers ``at``; tests move it."""

    def __init__(self, at):
        self.at = at

    def __call__(self):
        return self.at

    def advance(self, **delta):
        self.at += dt.timedelta(**delta)


@pytest.fixture
def queued(frozen_now, event, first_round, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        job, created = request_job("scoresheets", event, PrintOptions(round=first_round.pk))
    assert created and first_round.matches.count() >= 2
    return job


def _die_after_first_sheet(monkeypatch, clock):
    """The build reports its first sheet (a heartbeat), then the worker is killed."""
    real_render = services.render

    def render(printout, data, options, progress=None):
        def report(done, total):
            progress(done, total)
            clock.advance(seconds=6)  # the next report would write a heartbeat
            raise WorkerKilled

        return real_render(printout, data, options, report)

    monkeypatch.setattr(services, "render", render)


def test_the_build_loop_writes_the_heartbeat_with_the_injected_clock(queued, frozen_now):
    clock = FakeClock(frozen_now.at)
    job = _claim(queued.pk, clock())
    assert job.heartbeat_at == clock.at and job.attempts == 1
    report = _progress_writer(job, clock)
    clock.advance(seconds=2)
    report(1, 100)  # 1 %, 2 s: neither a progress step nor a heartbeat is due
    assert PrintJob.objects.get(pk=job.pk).heartbeat_at == clock.at - dt.timedelta(seconds=2)
    clock.advance(seconds=4)
    report(2, 100)  # 6 s since the last beat: a heartbeat, though the progress hardly moved
    stored = PrintJob.objects.get(pk=job.pk)
    assert stored.heartbeat_at == clock.at and stored.progress == 2


def test_a_worker_killed_mid_build_is_requeued_once_and_another_finishes_it(
        queued, frozen_now, monkeypatch, django_capture_on_commit_callbacks):
    clock = FakeClock(frozen_now.at)
    _die_after_first_sheet(monkeypatch, clock)
    with pytest.raises(WorkerKilled):
        run_job(queued.pk, now=clock)  # worker A
    dead = PrintJob.objects.get(pk=queued.pk)
    assert dead.status == PrintJob.Status.RUNNING and dead.attempts == 1
    assert dead.heartbeat_at == frozen_now.at and dead.progress > 0
    monkeypatch.undo()

    # 59 s of silence: maybe a slow sheet; nothing is requeued and a re-request gets the running job
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert requeue_stale_jobs(now=frozen_now.at + dt.timedelta(seconds=59)) == []
    assert sent == []
    frozen_now.advance(seconds=61)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert requeue_stale_jobs() == [queued.pk]
        assert requeue_stale_jobs() == []  # a second sweep finds nothing: exactly once
    assert len(sent) == 1
    requeued = PrintJob.objects.get(pk=queued.pk)
    assert requeued.status == PrintJob.Status.QUEUED and requeued.progress == 0
    assert requeued.heartbeat_at == frozen_now.at

    done = run_job(queued.pk)  # worker B, from the requeued task
    assert done.status == PrintJob.Status.DONE and done.progress == 100 and done.attempts == 2
    assert len(PdfReader(done.file.open("rb")).pages) == queued.event.stages.first().rounds.first().matches.count()
    assert requeue_stale_jobs(now=frozen_now.at + dt.timedelta(hours=1)) == []  # a done job is never requeued


def test_a_presumed_dead_worker_that_wakes_up_stops_and_leaves_the_new_build_alone(
        queued, frozen_now, django_capture_on_commit_callbacks):
    slow = _claim(queued.pk)  # worker A, stalled (not dead)
    frozen_now.advance(seconds=61)
    with django_capture_on_commit_callbacks(execute=False):
        assert requeue_stale_jobs() == [queued.pk]
    done = run_job(queued.pk)  # worker B
    assert done.status == PrintJob.Status.DONE and done.attempts == 2
    frozen_now.advance(seconds=10)
    with pytest.raises(JobTakenOver):
        _progress_writer(slow)(50, 100)  # worker A's next heartbeat finds the job is not its own any more
    assert PrintJob.objects.get(pk=queued.pk).file.name == done.file.name


def test_a_stuck_job_is_requeued_by_a_re_request_not_handed_back(queued, frozen_now,
                                                                  django_capture_on_commit_callbacks):
    assert _claim(queued.pk) is not None
    options = PrintOptions(round=queued.params["round"])
    frozen_now.advance(seconds=61)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        job, created = request_job("scoresheets", queued.event, options)
    assert job.pk == queued.pk and not created and job.status == PrintJob.Status.QUEUED and len(sent) == 1
    with django_capture_on_commit_callbacks(execute=False) as sent_again:
        assert requeue_stale_jobs() == []  # the sweep does not send it a second time
    assert sent_again == []


def test_a_job_that_keeps_killing_its_worker_fails_after_three_attempts(queued, frozen_now,
                                                                        django_capture_on_commit_callbacks):
    for attempt in (1, 2, 3):
        assert _claim(queued.pk).attempts == attempt
        frozen_now.advance(seconds=61)
        with django_capture_on_commit_callbacks(execute=False):
            requeued = requeue_stale_jobs()
        assert requeued == ([queued.pk] if attempt < 3 else [])
    failed = PrintJob.objects.get(pk=queued.pk)
    assert failed.status == PrintJob.Status.FAILED and "3" in failed.error
    assert "次" in failed.error  # the page shows the reason in Chinese


def test_a_lost_queued_task_is_sent_again_after_ten_minutes(queued, frozen_now,
                                                            django_capture_on_commit_callbacks):
    frozen_now.advance(minutes=9)
    with django_capture_on_commit_callbacks(execute=False):
        assert requeue_stale_jobs() == []
    frozen_now.advance(minutes=2)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        assert requeue_stale_jobs() == [queued.pk]
    assert len(sent) == 1


def test_the_sweep_task_is_on_the_beat_schedule():
    from django.conf import settings

    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "tournament.sweep_print_jobs" in tasks


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_the_same_time_requeue_a_job_once(event, first_round, frozen_now):
    """PostgreSQL: the second sweep skips the row the first one holds (SKIP LOCKED) instead of waiting and
    sending it again; once the first commits, the job has a fresh heartbeat and is not stale any more."""
    import threading

    from django.db import connection, transaction

    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only (SQLite serialises writers)")
    job, _ = request_job("scoresheets", event, PrintOptions(round=first_round.pk))
    _claim(job.pk)
    frozen_now.advance(seconds=61)
    held, release, seen = threading.Event(), threading.Event(), {}

    def first_sweep():
        with transaction.atomic():
            seen["first"] = requeue_stale_jobs()  # the row stays locked until this block ends
            held.set()
            release.wait(10)
        connection.close()

    thread = threading.Thread(target=first_sweep)
    thread.start()
    assert held.wait(10)
    started = time.monotonic()
    seen["second"] = requeue_stale_jobs()
    waited = time.monotonic() - started
    release.set()
    thread.join(10)
    assert seen == {"first": [job.pk], "second": []}
    assert waited < 5  # skipped the locked row, did not wait for it
    assert requeue_stale_jobs() == []
