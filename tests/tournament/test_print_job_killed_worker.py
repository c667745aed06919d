"""A real worker process killed with SIGKILL in the middle of a print build: the beat sweep requeues the
job and a second worker finishes it (issue 17, item 4). Bounded: about 30 s."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.conftest import REPO, wait_for
from tests.tournament.test_printouts_data import chief, event, first_round  # noqa: F401  (fixtures)
from tournament.models import PrintJob
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import request_job, requeue_stale_jobs


def _worker(app, log_name, **env):
    db = connection.settings_dict
    environ = {**os.environ, "CELERY_BROKER_URL": django_settings.CELERY_BROKER_URL,
               "PRINT_JOB_HEARTBEAT_EVERY": "0.2", **env}
    if db["ENGINE"].endswith("sqlite3"):
        environ["DATABASE_URL"] = f"sqlite:///{db['NAME']}"
    else:
        environ["DATABASE_URL"] = (f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:"
                                   f"{db['PORT'] or 5432}/{db['NAME']}")
    log = open(Path(django_settings.VAR_DIR) / log_name, "w")
    return subprocess.Popen([sys.executable, "-m", "celery", "-A", app, "worker", "--loglevel=info",
                             "--concurrency=1", "--pool=solo", "--without-mingle", "--without-gossip"],
                            cwd=REPO, env=environ, stdout=log, stderr=subprocess.STDOUT), log


def _stop(proc, log):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    log.close()


@pytest.mark.worker
def test_a_worker_killed_mid_print_and_the_job_finished_by_another(transactional_db, event, first_round,
                                                                   settings):
    settings.PRINT_JOB_HEARTBEAT_TIMEOUT = 2
    started = time.monotonic()
    doomed, doomed_log = _worker("tests.tournament.slow_celery", "worker-killed.log", SLOW_SHEET_SECONDS="1")
    second = None
    try:
        job, created = request_job("scoresheets", event, PrintOptions(round=first_round.pk))
        assert created and first_round.matches.count() >= 3  # three slowed sheets: time to kill it
        building = wait_for(lambda: PrintJob.objects.filter(pk=job.pk, status="running", progress__gt=0).first(),
                            timeout=20, interval=0.05)
        assert building is not None, "the first worker did not start the build"
        os.kill(doomed.pid, signal.SIGKILL)
        doomed.wait(timeout=5)
        dead = PrintJob.objects.get(pk=job.pk)
        assert dead.status == "running" and dead.progress < 100 and dead.attempts == 1

        time.sleep(2.5)  # no heartbeat for longer than the timeout
        assert requeue_stale_jobs() == [job.pk]  # the beat sweep's work, run here; the task is sent now
        assert requeue_stale_jobs() == []
        second, second_log = _worker("config", "worker-second.log")
        done = wait_for(lambda: PrintJob.objects.filter(pk=job.pk, status__in=["done", "failed"]).first(),
                        timeout=25)
        assert done is not None and done.status == "done", done and done.error
        assert done.attempts == 2 and done.progress == 100 and done.file
    finally:
        _stop(doomed, doomed_log)
        if second is not None:
            _stop(second, second_log)
    assert time.monotonic() - started < 60
