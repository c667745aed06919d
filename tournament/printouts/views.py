"""Organiser pages for printouts: the printouts page of an event, downloads and background jobs.

Only organisers (``tournament.manage_event``) reach these pages; every view is thin and calls
:mod:`tournament.printouts.services`.
"""
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from common.errors import UserError
from tournament.models import PrintJob, Round, Stage
from tournament.permissions import organiser_event
from tournament.printouts import services as services
from tournament.printouts.common import PrintOptions, at_tables, matches_of, position, round_label
from tournament.printouts.forms import PrintOptionsForm
from tournament.printouts.registry import PRINTOUTS
from tournament.selfscore import modes

RECENT_JOBS = 10


@login_required
@require_GET
def printouts_page(request, event_slug):
    """Every printout of the event: a download form each, background builds with their progress."""
    return _page(request, organiser_event(request, event_slug))


def _page(request, event, refused=None):
    """The printouts page; ``refused``: a printout's options the service refused (its kind, the field, the
    sentence and what was chosen), shown in that printout's form next to the field, answered with a 400."""
    rounds = Round.objects.filter(stage__event=event).select_related("stage").order_by("stage__order", "number")
    jobs = PrintJob.objects.filter(event=event).order_by("-id")[:RECENT_JOBS]
    labelled = [(r, f"{r.stage.label} · {round_label(r)}") for r in rounds]
    stage_kinds = set(Stage.objects.filter(event=event).values_list("kind", flat=True))
    return render(request, "tournament/printouts/index.html", {
        "event": event,
        "cards": [{"printout": printout, "refused": refused if refused and refused["kind"] == kind else None}
                  for kind, printout in PRINTOUTS.items() if not printout.stage_kind or printout.stage_kind in stage_kinds],
        "rounds": [(str(r.pk), label) for r, label in labelled],
        "matches": [(str(m.pk), _match_label(m)) for m in at_tables(matches_of(event))],   # a bye prints nothing
        "jobs": [_job_view(event, job) for job in jobs],
        # where the players record, the sides' slips come from each round's desk (new codes, shown once)
        "slip_rounds": [(r.pk, label) for r, label in labelled if modes.players_record_stage(r.stage)],
        "refused": refused,
    }, status=400 if refused else 200)


def _refused(request, event, kind, *, form, error):
    """The page again, the refusal in the form of ``kind`` (a service's sentence, never a command-line flag)."""
    return _page(request, event, {"kind": kind, "known": kind in PRINTOUTS,
                                  "field": error.field if error.field in ("round", "match") else "",
                                  "message": str(error), "round": form.typed("round"),
                                  "match": form.typed("match"), "lang": form.typed("lang")})


def _match_label(match):
    table = _("Table %(n)s") % {"n": match.table}
    return f"#{match.pk} {match.round.stage.label} {round_label(match.round)} {position(match)} · {table}"


@login_required
@require_GET
def printout_download(request, event_slug, kind):
    """Build a printout now and send it as a PDF download (400 with the reason for bad options)."""
    event = organiser_event(request, event_slug)
    form = PrintOptionsForm(request.GET)
    try:
        options = form.options(request.build_absolute_uri("/"))
        pdf = services.build_printout(kind, event, options)
    except UserError as exc:
        return _refused(request, event, kind, form=form, error=exc)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{services.file_name(kind, event, options)}"'
    return response


@login_required
@require_POST
def printout_job_create(request, event_slug, kind):
    """Ask for a background build (reused while the data is unchanged); back to the page, or JSON."""
    event = organiser_event(request, event_slug)
    form = PrintOptionsForm(request.POST)
    try:
        job, _created = services.request_job(kind, event, form.options(request.build_absolute_uri("/")),
                                             user=request.user)
    except UserError as exc:
        if _wants_json(request):
            return JsonResponse({"field": exc.field, "detail": str(exc)}, status=400)
        return _refused(request, event, kind, form=form, error=exc)
    if _wants_json(request):
        return JsonResponse(_job_view(event, job), status=202)
    return redirect(reverse("printouts", args=[event.slug]) + f"?job={job.pk}#job-{job.pk}")


def _wants_json(request):
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_GET
def printout_job_status(request, event_slug, job_id):
    """A job's status and progress as JSON (the page polls this)."""
    event = organiser_event(request, event_slug)
    job = get_object_or_404(PrintJob, pk=job_id, event=event)
    return JsonResponse(_job_view(event, job))


@login_required
@require_GET
def printout_job_file(request, event_slug, job_id):
    """The finished job's PDF."""
    event = organiser_event(request, event_slug)
    job = get_object_or_404(PrintJob, pk=job_id, event=event)
    if job.status != PrintJob.Status.DONE or not job.file:
        raise Http404
    options = PrintOptions(**job.params)
    return FileResponse(job.file.open("rb"), as_attachment=True, content_type="application/pdf",
                        filename=services.file_name(job.kind, event, options))


def _job_view(event, job):
    """What the page and the JSON endpoint show of a job."""
    printout = PRINTOUTS.get(job.kind)
    done = job.status == PrintJob.Status.DONE
    return {
        "id": job.pk,
        "kind": job.kind,
        "title": str(printout.title) if printout else job.kind,
        "params": job.params,
        "status": job.status,
        "status_label": str(job.get_status_display()),
        "progress": job.progress,
        "error": job.error,
        "status_url": reverse("printout_job_status", args=[event.slug, job.pk]),
        "file_url": reverse("printout_job_file", args=[event.slug, job.pk]) if done else "",
    }
