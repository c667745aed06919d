"""The organiser's pages for moving an event: download the event file, upload one (a new event).

The upload has two steps, a form each (:mod:`tournament.transfer.forms`): the file (checked, kept in the file
store under a name only the uploader's session holds), then the people it names, each given an existing account
the organiser may give roles or a new one (``people.people``, ``people.mappable_accounts``); only then is the
event created. A refusal is shown next to its field.
"""
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET

from common.errors import UserError
from infra import clock
from tournament import access
from tournament.models import EventRole
from tournament.permissions import organiser_required
from tournament.transfer import services
from tournament.transfer.codec import TransferError
from tournament.transfer.forms import PEOPLE_STEP, PeopleForm, UploadForm
from tournament.transfer.people import read_people, summary

UPLOADED = "event_import_file"  # the session's key: the name of the uploaded file in the file store


@organiser_required
@require_GET
def event_export(request, event):
    """The whole event as one JSON file (a backup, or to move it to another installation)."""
    response = HttpResponse(services.export_text(event), content_type="application/json; charset=utf-8")
    stamp = clock.now().strftime("%Y%m%d-%H%M")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{stamp}.json"'
    return response


@login_required
def event_import(request):
    """Upload an export file, then say who its people are here: the event is created as it was (superusers and
    organisers)."""
    if not access.may(request.user, access.CREATE_EVENT):
        raise PermissionDenied(_("Only organisers may create events."))
    if request.method != "POST":
        return _file_page(request, UploadForm())
    if PEOPLE_STEP not in request.POST:
        return _upload(request)
    return _confirm(request)


def _upload(request):
    """The first step: the file checked and kept for the second (the session's earlier upload dropped)."""
    form = UploadForm(request.POST, request.FILES)
    found = form.read(request.user) if form.is_valid() else None
    if found is None:
        return _file_page(request, form)
    raw, data, named = found
    _forget(request)
    request.session[UPLOADED] = default_storage.save(
        f"event-imports/{request.user.pk}-{secrets.token_hex(16)}.json", ContentFile(raw))
    people = PeopleForm(people=named, by=request.user, file_slug=summary(data)["slug"],
                        initial={"slug": form.cleaned_data["slug"]})
    return _people_page(request, data, people)


def _confirm(request):
    """The second step: the people's accounts chosen, the event imported from the kept file."""
    name = request.session.get(UPLOADED)
    if not name or not default_storage.exists(name):
        gone = TransferError(gettext_noop("The uploaded file is no longer here: upload it again."), field="file")
        return _file_page(request, UploadForm(request.POST, refused=gone))
    with default_storage.open(name, "rb") as stored:
        raw = stored.read()
    try:
        data, named = read_people(raw, request.user)
    except UserError as exc:
        _forget(request)
        return _file_page(request, UploadForm(request.POST, refused=exc))
    form = PeopleForm(request.POST, people=named, by=request.user, file_slug=summary(data)["slug"])
    report = form.save(raw, request.user) if form.is_valid() else None
    if report is None:
        return _people_page(request, data, form)
    _forget(request)
    messages.success(request, _("The event was imported with %(hands)s hands and %(rulings)s rulings.")
                     % {"hands": report.rows.get("scoring.hand", 0), "rulings": report.rows.get("rulings.ruling", 0)})
    if report.created_users:
        messages.info(request, _("New accounts without a password: %(names)s. Give them one on the staff page.")
                      % {"names": "、".join(report.created_users)})
    return redirect("event_detail", slug=report.event.slug)


def _forget(request):
    name = request.session.pop(UPLOADED, None)
    if name:
        default_storage.delete(name)


def _file_page(request, form):
    return render(request, "tournament/transfer/import.html", {"form": form},
                  status=400 if form.errors else 200)


def _people_page(request, data, form):
    """The second step: each person of the file with the accounts offered (a new one, or an existing one the
    organiser may give roles), the current choice and any refusal next to it."""
    labels = dict(EventRole.Role.choices)
    rows = []
    for person in form.named:
        roles = [str(labels[r]) for r in person.roles]
        if person.referee and EventRole.Role.TABLE_REFEREE not in person.roles:
            roles.append(_("referees tables"))
        rows.append({"person": person, "roles": "、".join(roles), "account": form[person.field]})
    return render(request, "tournament/transfer/people.html", {
        "form": form, "file": summary(data), "rows": rows}, status=400 if form.errors else 200)
