"""Beat across machines: run one ``celery beat``; a second one (two machines both started with beat, or a
failover while the first still runs) sends every periodic task twice, and that must change nothing more than
sending it once. One scenario per entry of CELERY_BEAT_SCHEDULE: a new periodic task fails here until it has one."""
import datetime as dt

import pytest
from django.conf import settings

from config.celery import app
from infra.models import IdempotencyRecord
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, tables_of  # noqa: F401
from tournament.clocks import services as clock_services
from tournament.models import ClockFiring, HandAllowance, PrintJob

pytestmark = pytest.mark.django_db
app.loader.import_default_modules()  # register the tasks as a worker does (autodiscovery)


def twice(entry):
    """The entry's task as two beats send it: the same task, run twice in the same period."""
    task = app.tasks[settings.CELERY_BEAT_SCHEDULE[entry]["task"]]
    return task.run(), task.run()


def sweep_round_clocks(frozen_now, chief):  # noqa: F811 (the fixture's value)
    rnd = make_round(tables=2)
    clock_services.start_clock(rnd, chief)
    frozen_now.advance(minutes=61)  # the announcement's ETA task was lost: the sweep fires it
    first, second = twice("sweep-round-clocks")
    assert first == {str(rnd.pk): ["announce", *(f"table:{t.pk}" for t in tables_of(rnd))]} and second == {}
    assert ClockFiring.objects.filter(round=rnd).count() == 1 and HandAllowance.objects.count() == 2


def purge_idempotency_records(frozen_now, chief):  # noqa: F811
    IdempotencyRecord.objects.create(key="old", owner="1", method="POST", path="/api/x/", fingerprint="f",
                                     status=201, created_at=frozen_now.at - dt.timedelta(days=2))
    IdempotencyRecord.objects.create(key="new", owner="1", method="POST", path="/api/x/", fingerprint="f",
                                     status=201, created_at=frozen_now.at)
    assert twice("purge-idempotency-records") == (1, 0)
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["new"]


def sweep_print_jobs(frozen_now, chief):  # noqa: F811
    rnd = make_round(tables=2)
    job = PrintJob.objects.create(event=rnd.stage.event, kind="scoresheets", params={"round": rnd.pk}, params_key="r",
                                  fingerprint="f", status=PrintJob.Status.RUNNING, progress=15, attempts=1,
                                  started_at=frozen_now.at, heartbeat_at=frozen_now.at)
    frozen_now.advance(minutes=5)  # its worker died: no heartbeat since
    assert twice("sweep-print-jobs") == ({"requeued": [job.pk]}, {"requeued": []})
    job.refresh_from_db()
    assert job.status == PrintJob.Status.QUEUED and job.attempts == 1


def snapshot_events(frozen_now, chief):  # noqa: F811
    rnd = make_round(tables=1)                     # its table is playing: a round open
    first, second = twice("snapshot-events")
    assert len(first) == 1 and first[0].startswith(rnd.stage.event.slug) and second == []   # the second: fresh


SCENARIOS = {"sweep-round-clocks": sweep_round_clocks, "purge-idempotency-records": purge_idempotency_records,
             "sweep-print-jobs": sweep_print_jobs, "snapshot-events": snapshot_events}


def test_every_periodic_task_has_a_two_beats_scenario():
    assert set(settings.CELERY_BEAT_SCHEDULE) == set(SCENARIOS)


@pytest.mark.parametrize("entry", sorted(SCENARIOS))
def test_two_beats_do_what_one_does(entry, frozen_now, chief, monkeypatch, tmp_path):  # noqa: F811
    monkeypatch.setattr(settings, "EVENT_SNAPSHOT_DIR", tmp_path / "snapshots")   # the snapshots' folder: a test's
    SCENARIOS[entry](frozen_now, chief)
