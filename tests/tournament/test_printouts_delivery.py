"""Printouts delivered: the command line, the organiser's downloads, and background jobs (service and worker)."""
import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from pypdf import PdfReader

from tests.conftest import wait_for
from tests.tournament.test_printouts_data import (  # noqa: F401  (fixtures)
    build_event_content,
    chief,
    event,
    first_round,
    played_match,
)
from tournament import roles
from tournament.models import PrintJob
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import request_job, run_job


def test_command_writes_the_pdf(event, first_round, tmp_path):
    out = tmp_path / "sheets.pdf"
    call_command("printout", "scoresheets", "--event", event.slug, "--round", str(first_round.pk),
                 "--output", str(out))
    reader = PdfReader(str(out))
    assert len(reader.pages) == first_round.matches.count()
    assert "记分表" in reader.pages[0].extract_text()
    call_command("printout", "schedule", "--event", event.slug, "--output", str(out), "--lang", "en")
    assert "Schedule" in PdfReader(str(out)).pages[0].extract_text()


def test_command_refuses_unknown_kind_and_event_listing_the_valid_ones(event, tmp_path):
    with pytest.raises(CommandError) as bad_kind:
        call_command("printout", "posters", "--event", event.slug, "--output", str(tmp_path / "x.pdf"))
    assert "posters" in str(bad_kind.value) and "scoresheets" in str(bad_kind.value)
    with pytest.raises(CommandError) as bad_event:
        call_command("printout", "schedule", "--event", "nope", "--output", str(tmp_path / "x.pdf"))
    assert "nope" in str(bad_event.value) and event.slug in str(bad_event.value)
    with pytest.raises(CommandError, match="round"):
        call_command("printout", "scoresheets", "--event", event.slug, "--output", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists()


def test_organiser_downloads_every_printout_from_the_page(client, event, played_match, make_user):
    client.force_login(make_user(roles.ORGANISER))
    page = client.get(reverse("printouts", args=[event.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    for kind in ("bracket", "schedule", "scoresheets", "results", "standings", "awards", "draw", "crosstable",
                 "penalties"):
        assert reverse("printout_download", args=[event.slug, kind]) in html
    assert reverse("printout_download", args=[event.slug, "swiss"]) not in html   # groups and a knock-out only
    response = client.get(reverse("printout_download", args=[event.slug, "results"]), {"match": played_match.pk})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert "attachment" in response["Content-Disposition"]
    assert PdfReader(io.BytesIO(response.content)).pages
    bad = client.get(reverse("printout_download", args=[event.slug, "results"]))
    assert bad.status_code == 400 and "round" in bad.content.decode()


@pytest.mark.parametrize("role", [None, roles.TABLE_REFEREE, roles.CHIEF_REFEREE, roles.ARBITRATION])
def test_only_organisers_get_printouts(client, event, make_user, role):
    if role is not None:
        client.force_login(make_user(role))
    for url in (reverse("printouts", args=[event.slug]), reverse("printout_download", args=[event.slug, "schedule"])):
        response = client.get(url)
        assert response.status_code in (302, 403)
        assert response.get("Content-Type") != "application/pdf"
    response = client.post(reverse("printout_job_create", args=[event.slug, "awards"]))
    assert response.status_code in (302, 403) and not PrintJob.objects.exists()


def test_job_service_progress_reuse_and_rebuild(event, first_round, played_match, chief,
                                                django_capture_on_commit_callbacks):
    from scoring.services import record_hand

    options = PrintOptions(round=first_round.pk)
    with django_capture_on_commit_callbacks(execute=False) as sent:
        job, created = request_job("scoresheets", event, options)
    assert created and len(sent) == 1 and job.status == PrintJob.Status.QUEUED
    job = run_job(job.pk)
    assert job.status == PrintJob.Status.DONE and job.progress == 100
    assert len(PdfReader(job.file.open("rb")).pages) == first_round.matches.count()
    assert run_job(job.pk).file.name == job.file.name  # running again changes nothing

    with django_capture_on_commit_callbacks(execute=False) as sent_again:
        again, created_again = request_job("scoresheets", event, options)
    assert again.pk == job.pk and not created_again and not sent_again

    record_hand(played_match, chief, number=4, trump="H", defender_points=40)
    with django_capture_on_commit_callbacks(execute=False):
        fresh, created_fresh = request_job("scoresheets", event, options)
    assert created_fresh and fresh.pk != job.pk and fresh.fingerprint != job.fingerprint


def test_progress_is_stored_while_building(event, first_round, monkeypatch, django_capture_on_commit_callbacks):
    from tournament.printouts import services as printout_services

    seen = []
    original = printout_services._progress_writer

    def spy(job, now):
        write = original(job, now)

        def report(done, total):
            write(done, total)
            seen.append(PrintJob.objects.get(pk=job.pk).progress)

        return report

    monkeypatch.setattr(printout_services, "_progress_writer", spy)
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = request_job("scoresheets", event, PrintOptions(round=first_round.pk))
    run_job(job.pk)
    assert seen == sorted(seen) and seen[0] < seen[-1] <= 99


def test_page_starts_a_job_and_the_status_endpoint_reports_it(client, event, first_round, make_user,
                                                              django_capture_on_commit_callbacks):
    client.force_login(make_user(roles.ORGANISER))
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(reverse("printout_job_create", args=[event.slug, "scoresheets"]),
                               {"round": first_round.pk, "lang": "zh-hans"})
    assert response.status_code == 302
    job = PrintJob.objects.get()
    status = client.get(reverse("printout_job_status", args=[event.slug, job.pk])).json()
    assert status["status"] == "queued" and status["progress"] == 0 and status["file_url"] == ""
    run_job(job.pk)
    status = client.get(reverse("printout_job_status", args=[event.slug, job.pk])).json()
    assert status["status"] == "done" and status["progress"] == 100
    pdf = client.get(status["file_url"])
    assert pdf.status_code == 200 and b"".join(pdf.streaming_content).startswith(b"%PDF")
    html = client.get(reverse("printouts", args=[event.slug])).content.decode()
    assert f'id="job-{job.pk}"' in html and "printouts.js" in html


@pytest.mark.worker
def test_a_real_worker_builds_the_round_of_score_sheets(celery_worker_process, make_user):
    from demo.event import seed_demo
    from tournament.models import Round

    event = seed_demo()[0]
    build_event_content(event, make_user(roles.CHIEF_REFEREE))
    first = Round.objects.get(stage__event=event, stage__order=1, number=1)
    job, created = request_job("scoresheets", event, PrintOptions(round=first.pk))
    assert created
    done = wait_for(lambda: PrintJob.objects.filter(pk=job.pk, status__in=["done", "failed"]).first(), timeout=90)
    assert done is not None and done.status == "done", done and done.error
    assert done.progress == 100
    reader = PdfReader(done.file.open("rb"))
    assert len(reader.pages) == first.matches.count() and event.name in reader.pages[0].extract_text()


def test_a_build_that_died_does_not_block_the_printout(event, first_round, frozen_now,
                                                       django_capture_on_commit_callbacks):
    from tournament.printouts.services import _claim

    options = PrintOptions(round=first_round.pk)
    with django_capture_on_commit_callbacks(execute=False):
        job, _ = request_job("scoresheets", event, options)
    assert _claim(job.pk) is not None  # the worker took it, then was killed mid-build
    assert _claim(job.pk) is None  # a duplicate task leaves a live build alone
    with django_capture_on_commit_callbacks(execute=False):
        assert request_job("scoresheets", event, options) == (job, False)

    frozen_now.advance(seconds=61)  # no heartbeat for longer than the timeout: the worker is dead
    with django_capture_on_commit_callbacks(execute=False) as sent:
        again, created = request_job("scoresheets", event, options)
    assert again.pk == job.pk and not created and again.status == PrintJob.Status.QUEUED and len(sent) == 1
    assert run_job(job.pk).status == PrintJob.Status.DONE  # the requeued task builds it
    assert PrintJob.objects.get(pk=job.pk).attempts == 2
