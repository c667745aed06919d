"""The organiser's pages for moving an event: download the event file, upload one (a new event).

The upload has two steps: the file (checked, kept in the file store under a name only the uploader's session
holds), then the people it names, each given an existing account the organiser may give roles or a new one
(``services.people``, ``services.mappable_accounts``); only then is the event created.
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
from common.names import display_name
from common.numbers import whole
from infra import clock
from tournament import access
from tournament.models import EventRole
from tournament.permissions import organiser_required
from tournament.transfer import services
from tournament.transfer.codec import TransferError

MAX_UPLOAD = 50 * 1024 * 1024  # an event of a few thousand hands is a few megabytes
UPLOADED = "event_import_file"  # the session's key: the name of the uploaded file in the file store
NEW = "new"  # the account choice "a new account"


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
    slug = (request.POST.get("slug") or "").strip()
    if request.method != "POST":
        return _file_page(request, slug)
    if "people" not in request.POST:
        return _upload(request, slug)
    name = request.session.get(UPLOADED)
    if not name or not default_storage.exists(name):
        return _file_page(request, slug, TransferError(gettext_noop("The uploaded file is no longer here: upload it "
                                                                    "again."), field="file"))
    with default_storage.open(name, "rb") as stored:
        raw = stored.read()
    try:
        data, named = services.read_people(raw, request.user)
    except UserError as exc:
        _forget(request)
        return _file_page(request, slug, exc)
    chosen = {person.id: _choice(request.POST.get(person.field)) for person in named}
    try:
        report = services.import_event(raw, slug=slug or None, user=request.user, accounts=chosen)
    except UserError as exc:
        return _people_page(request, data, named, slug, chosen, exc)
    _forget(request)
    messages.success(request, _("The event was imported with %(hands)s hands and %(rulings)s rulings.")
                     % {"hands": report.rows.get("scoring.hand", 0), "rulings": report.rows.get("rulings.ruling", 0)})
    if report.created_users:
        messages.info(request, _("New accounts without a password: %(names)s. Give them one on the staff page.")
                      % {"names": "、".join(report.created_users)})
    return redirect("event_detail", slug=report.event.slug)


def _upload(request, slug):
    """The first step: the file checked and kept for the second (the session's earlier upload dropped)."""
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise TransferError(gettext_noop("Choose the export file (.json) to upload."), field="file")
        if upload.size > MAX_UPLOAD:
            raise TransferError(gettext_noop("The file is larger than %(mb)s MB: this is not an event export."),
                                field="file", mb=MAX_UPLOAD // (1024 * 1024))
        raw = upload.read()
        data, named = services.read_people(raw, request.user)
    except UserError as exc:
        return _file_page(request, slug, exc)
    _forget(request)
    request.session[UPLOADED] = default_storage.save(
        f"event-imports/{request.user.pk}-{secrets.token_hex(16)}.json", ContentFile(raw))
    return _people_page(request, data, named, slug, {p.id: p.proposed for p in named}, None)


def _forget(request):
    name = request.session.pop(UPLOADED, None)
    if name:
        default_storage.delete(name)


def _choice(value):
    """A posted account choice: None for a new account, an account id, or -1 (refused: not a choice offered)."""
    value = (value or NEW).strip()
    if value == NEW:
        return None
    number = whole(value)
    return -1 if number is None else number


def _file_page(request, slug, error=None):
    return render(request, "tournament/transfer/import.html", {"error": error, "slug": slug},
                  status=400 if error else 200)


def _people_page(request, data, named, slug, chosen, error):
    """The second step: each person of the file with the accounts offered (a new one, or an existing one the
    organiser may give roles), the current choice and any refusal next to it."""
    labels = dict(EventRole.Role.choices)
    accounts = [(str(u.pk), _("%(name)s (you)") % {"name": display_name(u)} if u.pk == request.user.pk
                 else display_name(u)) for u in services.mappable_accounts(request.user)]
    rows = []
    for person in named:
        roles = [str(labels[r]) for r in person.roles]
        if person.referee and EventRole.Role.TABLE_REFEREE not in person.roles:
            roles.append(_("referees tables"))
        current = chosen.get(person.id)
        rows.append({"person": person, "roles": "、".join(roles), "selected": NEW if current is None else str(current)})
    return render(request, "tournament/transfer/people.html", {
        "error": error, "slug": slug, "file": services.summary(data), "rows": rows, "accounts": accounts, "new": NEW,
    }, status=400 if error else 200)
