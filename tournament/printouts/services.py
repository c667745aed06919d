"""Printouts as a service: build one now, or as a background job that is reused while the data stands.

Views, the ``printout`` management command and the Celery task all call these functions.
"""
import datetime as dt
import hashlib
import logging

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Q
from django.utils import translation

from common.errors import UserError, gettext_noop
from config import clock
from tournament.models import Event, PrintJob
from tournament.printouts.common import PrintOptions, canonical_json
from tournament.printouts.registry import PRINTOUTS, get_printout
from tournament.printouts.tasks import build_print_job

logger = logging.getLogger(__name__)
PROGRESS_STEP = 5  # write progress to the database every 5 %
STALE_AFTER = dt.timedelta(minutes=10)  # a build of hundreds of sheets takes seconds, not minutes


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

    A new job is sent to Celery when the transaction commits. Returns ``(job, created)``.
    """
    printout, data = collect(kind, event, options)
    print_id = fingerprint(kind, options, data)
    with transaction.atomic():
        Event.objects.select_for_update().filter(pk=event.pk).first()
        existing = (PrintJob.objects.filter(event=event, kind=printout.kind, params_key=params_key(options),
                                            fingerprint=print_id)
                    .exclude(status=PrintJob.Status.FAILED).exclude(stale_jobs()).order_by("-id").first())
        if existing is not None:
            return existing, False
        job = PrintJob.objects.create(event=event, kind=printout.kind, params=options.as_params(),
                                      params_key=params_key(options), fingerprint=print_id,
                                      requested_by=user if user is not None and user.is_authenticated else None)

        transaction.on_commit(lambda: build_print_job.delay(job.pk))
    return job, True


def stale_jobs():
    """Jobs that will never finish: queued or running for longer than STALE_AFTER (a lost task, a killed
    worker). A request for the same printout then starts afresh, and a retried task may take the job over."""
    cutoff = clock.now() - STALE_AFTER
    waiting = Q(status=PrintJob.Status.QUEUED, created_at__lt=cutoff)
    running = Q(status=PrintJob.Status.RUNNING, started_at__lt=cutoff)
    return waiting | running


def _claim(job_id):
    """Mark a queued (or stale running) job as running; None when it is running, done or failed."""
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().get(pk=job_id)
        takeover = job.status == PrintJob.Status.RUNNING and PrintJob.objects.filter(stale_jobs(), pk=job_id).exists()
        if job.status != PrintJob.Status.QUEUED and not takeover:
            return None
        job.status, job.progress, job.started_at = PrintJob.Status.RUNNING, 0, clock.now()
        job.save(update_fields=["status", "progress", "started_at"])
        return job


def _progress_writer(job_id):
    """A ``progress(done, total)`` callback that stores the percentage (at most every PROGRESS_STEP)."""
    last = {"value": 0}

    def report(done, total):
        value = min(99, int(done * 100 / total)) if total else 99
        if value - last["value"] >= PROGRESS_STEP:
            last["value"] = value
            PrintJob.objects.filter(pk=job_id).update(progress=value)

    return report


def run_job(job_id):
    """Build a queued job's PDF and store it (what the Celery task runs). Returns the job.

    Running it again for a job that is running, done or failed changes nothing.
    """
    job = _claim(job_id)
    if job is None:
        return PrintJob.objects.get(pk=job_id)
    options = PrintOptions(**job.params)
    try:
        printout, data = collect(job.kind, job.event, options)
        pdf = render(printout, data, options, _progress_writer(job.pk))
    except Exception as exc:  # noqa: BLE001 - a failed build is recorded on the job and shown on the page
        logger.exception("print job %s failed", job.pk)
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.Status.FAILED, error=str(exc)[:2000],
                                                  finished_at=clock.now())
        job.refresh_from_db()
        return job
    job.refresh_from_db()
    job.fingerprint = fingerprint(job.kind, options, data)
    job.file.save(file_name(job.kind, job.event, options), ContentFile(pdf), save=False)
    job.status, job.progress, job.finished_at = PrintJob.Status.DONE, 100, clock.now()
    job.save(update_fields=["fingerprint", "file", "status", "progress", "finished_at"])
    return job


def available_kinds():
    """Every printout kind, in registry order."""
    return list(PRINTOUTS.values())
