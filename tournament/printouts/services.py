"""Printouts as a service: build one now, or as a background job that is reused while the data stands.

Views, the ``printout`` management command and the Celery task all call these functions.
"""
import datetime as dt
import hashlib
import logging

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import translation
from django.utils.translation import gettext

from common.errors import UserError, gettext_noop
from config.celery import app as celery_app
from infra import clock
from tournament.models import Event, PrintJob
from tournament.printouts.common import PrintOptions, canonical_json
from tournament.printouts.registry import PRINTOUTS, get_printout

logger = logging.getLogger(__name__)

#: The Celery task that builds a print job (``tournament.printouts.tasks``). Sent by name: the tasks import
#: this module, never the other way round.
BUILD_PRINT_JOB = "tournament.build_print_job"


def send_build(job_id):
    """Queue the build of print job ``job_id`` (call it after the commit that made the job)."""
    celery_app.send_task(BUILD_PRINT_JOB, args=(job_id,))
PROGRESS_STEP = 5  # write progress to the database every 5 %
QUEUED_TIMEOUT = dt.timedelta(minutes=10)  # queued this long: its task was lost (a busy queue takes seconds)
MAX_ATTEMPTS = 3  # builds started for one job before it is marked failed (a printout that kills its worker)


def find_event(slug):
    """The event with this slug (UserError listing the valid slugs otherwise)."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        valid = ", ".join(Event.objects.order_by("slug").values_list("slug", flat=True)) or "-"
        raise UserError(gettext_noop("Unknown event %(slug)s (valid: %(valid)s)."), field="event", slug=slug,
                        valid=valid)
    return event


def check_options(printout, options):
    """Refuse a round or match given to a printout that does not use it (UserError naming the option)."""
    for name in ("round", "match"):
        if getattr(options, name) is not None and name not in printout.uses:
            raise UserError(gettext_noop("The printout %(kind)s does not take a %(option)s."), field=name,
                            option=name, kind=printout.kind)


def collect(kind, event, options):
    """The printout and its collected data (in the options' language)."""
    printout = get_printout(kind)
    check_options(printout, options)
    with translation.override(options.lang):
        return printout, printout.collect(event, options)


def fingerprint(kind, options, data):
    """A SHA-256 of everything a printout shows: equal fingerprints mean an equal PDF."""
    text = f"{kind}\n{canonical_json(options.as_params())}\n{canonical_json(data)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def render(printout, data, options, progress=None):
    """The PDF bytes for collected data."""
    with translation.override(options.lang):
        return printout.render(data, progress)


def build_printout(kind, event, options=None, progress=None):
    """Build a printout now; returns the PDF bytes (ValueError for a bad kind or option)."""
    options = options or PrintOptions()
    printout, data = collect(kind, event, options)
    return render(printout, data, options, progress)


def file_name(kind, event, options):
    """A download name such as ``demo-scoresheets-round-3.pdf``."""
    parts = [event.slug, kind]
    if options.round is not None:
        parts.append(f"round-{options.round}")
    if options.match is not None:
        parts.append(f"match-{options.match}")
    if options.lang != "zh-hans":
        parts.append(options.lang)
    return "-".join(parts) + ".pdf"


def params_key(options):
    """The options as a short stable text, used to find an earlier job for the same request."""
    return f"round={options.round or ''};match={options.match or ''};lang={options.lang}"


def request_job(kind, event, options, user=None):
    """The job for this request: the finished (or running) one while the data is unchanged, else a new one.

    A job whose worker died (no heartbeat for the timeout) is requeued here, exactly once, instead of being
    handed back stuck. A new or requeued job is sent to Celery when the transaction commits.
    Returns ``(job, created)``.
    """
    printout, data = collect(kind, event, options)
    print_id = fingerprint(kind, options, data)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        existing = (PrintJob.objects.filter(event=event, kind=printout.kind, params_key=params_key(options),
                                            fingerprint=print_id)
                    .exclude(status=PrintJob.Status.FAILED).order_by("-id").first())
        if existing is not None and stale_jobs(PrintJob.objects.filter(pk=existing.pk)).exists():
            requeue_stale_jobs(pk=existing.pk)
            existing.refresh_from_db()
        if existing is not None and existing.status != PrintJob.Status.FAILED:
            return existing, False
        job = PrintJob.objects.create(event=event, kind=printout.kind, params=options.as_params(),
                                      params_key=params_key(options), fingerprint=print_id,
                                      requested_by=user if user is not None and user.is_authenticated else None)

        transaction.on_commit(lambda: send_build(job.pk))
    return job, True


def heartbeat_timeout() -> dt.timedelta:
    """How long a running build may stay silent before its worker counts as dead (settings, seconds)."""
    return dt.timedelta(seconds=getattr(settings, "PRINT_JOB_HEARTBEAT_TIMEOUT", 60))


def heartbeat_every() -> dt.timedelta:
    """How often the build loop writes its heartbeat (at most; settings, seconds)."""
    return dt.timedelta(seconds=getattr(settings, "PRINT_JOB_HEARTBEAT_EVERY", 5))


def stale_jobs(queryset=None, now=None):
    """The jobs (of ``queryset``) that will never finish as they are: running without a heartbeat for the
    heartbeat timeout (a killed worker), or queued for longer than QUEUED_TIMEOUT (a lost task)."""
    now = now or clock.now()
    queryset = PrintJob.objects.all() if queryset is None else queryset
    return queryset.annotate(alive_at=Coalesce("heartbeat_at", "started_at", "created_at")).filter(
        Q(status=PrintJob.Status.RUNNING, alive_at__lt=now - heartbeat_timeout())
        | Q(status=PrintJob.Status.QUEUED, alive_at__lt=now - QUEUED_TIMEOUT))


def requeue_stale_jobs(*, now=None, **filters) -> list[int]:
    """Requeue every stale job (or the one ``filters`` names): each exactly once, even with several sweeps at
    the same time (rows locked with SKIP LOCKED; a requeued job has a fresh heartbeat, so it is no longer
    stale). A job that already used MAX_ATTEMPTS builds is marked failed instead. Returns the requeued ids;
    their tasks are sent when the transaction commits."""
    now = now or clock.now()
    requeued = []
    with transaction.atomic():
        rows = stale_jobs(PrintJob.objects.select_for_update(skip_locked=True).filter(**filters), now)
        for job in rows.order_by("pk"):
            if job.attempts >= MAX_ATTEMPTS:
                PrintJob.objects.filter(pk=job.pk).update(
                    status=PrintJob.Status.FAILED, finished_at=now, heartbeat_at=now,
                    error=gettext("The build stopped %(count)s times without finishing.") % {"count": job.attempts})
                logger.error("print job %s failed after %s attempts", job.pk, job.attempts)
                continue
            PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.QUEUED, progress=0, heartbeat_at=now)
            logger.warning("print job %s requeued (status %s, last sign of life %s)", job.pk, job.status,
                           job.alive_at)
            requeued.append(job.pk)
        if requeued:
            transaction.on_commit(lambda: [send_build(pk) for pk in requeued])
    return requeued


class JobTakenOver(Exception):
    """Raised in a build whose job was requeued and claimed again (this worker was presumed dead)."""


def _claim(job_id, now=None):
    """Mark a queued (or stale running) job as running, as a new attempt; None when it is running (alive),
    done or failed."""
    now = now or clock.now()
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().get(pk=job_id)
        takeover = job.status == PrintJob.Status.RUNNING and stale_jobs(PrintJob.objects.filter(pk=job_id), now).exists()
        if job.status != PrintJob.Status.QUEUED and not takeover:
            return None
        job.status, job.progress, job.started_at, job.heartbeat_at = PrintJob.Status.RUNNING, 0, now, now
        job.attempts += 1
        job.save(update_fields=["status", "progress", "started_at", "heartbeat_at", "attempts"])
        return job


def _mine(job):
    """This attempt's job row while it is still this attempt's (a requeue and a new claim take it away)."""
    return PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.RUNNING, attempts=job.attempts)


def _progress_writer(job, now=clock.now):
    """A ``progress(done, total)`` callback: stores the percentage (at most every PROGRESS_STEP) and the
    heartbeat (at most every ``heartbeat_every()``); raises JobTakenOver once the job is no longer this
    attempt's."""
    last = {"value": 0, "beat": now()}

    def report(done, total):
        value = min(99, int(done * 100 / total)) if total else 99
        at = now()
        if value - last["value"] < PROGRESS_STEP and at - last["beat"] < heartbeat_every():
            return
        last["value"], last["beat"] = max(value, last["value"]), at
        if not _mine(job).update(progress=last["value"], heartbeat_at=at):
            raise JobTakenOver(job.pk)

    return report


def run_job(job_id, now=clock.now):
    """Build a queued job's PDF and store it (what the Celery task runs). Returns the job.

    Running it again for a job that is running (alive), done or failed changes nothing. ``now`` is the
    clock the heartbeat reads (tests inject one).
    """
    job = _claim(job_id, now())
    if job is None:
        return PrintJob.objects.get(pk=job_id)
    options = PrintOptions(**job.params)
    try:
        printout, data = collect(job.kind, job.event, options)
        pdf = render(printout, data, options, _progress_writer(job, now))
    except JobTakenOver:
        logger.warning("print job %s was taken over by another worker: this build stops", job.pk)
        return PrintJob.objects.get(pk=job_id)
    except Exception as exc:  # noqa: BLE001 - a failed build is recorded on the job and shown on the page
        logger.exception("print job %s failed", job.pk)
        _mine(job).update(status=PrintJob.Status.FAILED, error=str(exc)[:2000], finished_at=now())
        return PrintJob.objects.get(pk=job_id)
    name = job.file.storage.save(job.file.field.generate_filename(job, file_name(job.kind, job.event, options)),
                                 ContentFile(pdf))
    if not _mine(job).update(fingerprint=fingerprint(job.kind, options, data), file=name,
                             status=PrintJob.Status.DONE, progress=100, finished_at=now(), heartbeat_at=now()):
        job.file.storage.delete(name)  # another attempt owns the job now
    return PrintJob.objects.get(pk=job_id)


def available_kinds():
    """Every printout kind, in registry order."""
    return list(PRINTOUTS.values())
