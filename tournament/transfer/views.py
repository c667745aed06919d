"""The organiser's pages for moving an event: download the event file, upload one (a new event)."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET

from common.errors import UserError
from config import clock
from tournament import access
from tournament.permissions import organiser_required
from tournament.transfer import services
from tournament.transfer.codec import TransferError

MAX_UPLOAD = 50 * 1024 * 1024  # an event of a few thousand hands is a few megabytes


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
    """Upload an export file: the event is created here as it was (superusers and organisers)."""
    if not access.may(request.user, access.CREATE_EVENT):
        raise PermissionDenied(_("Only organisers may create events."))
    error, slug = None, (request.POST.get("slug") or "").strip()
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise TransferError(gettext_noop("Choose the export file (.json) to upload."), field="file")
            if upload.size > MAX_UPLOAD:
                raise TransferError(gettext_noop("The file is larger than %(mb)s MB: this is not an event export."),
                                    field="file", mb=MAX_UPLOAD // (1024 * 1024))
            report = services.import_event(upload.read(), slug=slug or None, user=request.user)
        except UserError as exc:
            error = exc
        else:
            messages.success(request, _("The event was imported with %(hands)s hands and %(rulings)s rulings.")
                             % {"hands": report.rows.get("scoring.hand", 0),
                                "rulings": report.rows.get("rulings.ruling", 0)})
            if report.created_users:
                messages.info(request, _("New accounts without a password: %(names)s. Give them one on the staff "
                                         "page.") % {"names": "、".join(report.created_users)})
            return redirect("event_detail", slug=report.event.slug)
    return render(request, "tournament/transfer/import.html", {"error": error, "slug": slug},
                  status=400 if error else 200)
