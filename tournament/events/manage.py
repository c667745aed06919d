"""Organiser pages for the event itself: create, edit, copy (entries optional), publish and unpublish.

The fields are checked by :mod:`tournament.events.services`; a refusal is shown next to its field."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import UserError
from tournament import access
from tournament.events import services
from tournament.models import Event
from tournament.permissions import organiser_required

FORM_FIELDS = ("name", "organising_body", "start_date", "end_date", "venue", "profile", "profile_version", "format",
               "slug")


def _profiles(event=None):
    """Every profile's latest version with its title, source document, versions and organiser choices (with the
    event's own version, which may be an imported event's copy offered to no other event)."""
    return [{"profile": p, "source": services.source_text(p), "versions": services.profile_versions(p.slug, event),
             "choices": services.organiser_choices(p)} for p in services.profile_choices(event)]


def _form_page(request, *, event, values, error, title):
    return render(request, "tournament/events/form.html", {
        "event": event, "values": values, "error": error, "title": title, "profiles": _profiles(event),
        "formats": Event.Format.choices, "drawn": event is not None and services.drawn(event),
        "started": event is not None and services.play_started(event),
        "choices": services.organiser_choices(event.profile) if event is not None else None,
    })


@login_required
def event_new(request):
    """A new event; the creator becomes its organiser."""
    if not access.may(request.user, access.CREATE_EVENT):
        raise PermissionDenied(_("Only organisers may create events."))
    values = {"format": Event.Format.GROUPS_ELIMINATION}
    error = None
    if request.method == "POST":
        values = {k: (request.POST.get(k) or "").strip() for k in FORM_FIELDS}
        try:
            event = services.create_event(request.user, values)
        except UserError as exc:
            error = exc
        else:
            messages.success(request, _("The event was created. Next: add its staff and entries."))
            return redirect("event_detail", slug=event.slug)
    return _form_page(request, event=None, values=values, error=error, title=_("New event"))


@organiser_required
def event_edit(request, event):
    """Change the event's fields (the slug too)."""
    values = {"name": event.name, "organising_body": event.organising_body, "start_date": event.start_date,
              "end_date": event.end_date, "venue": event.venue, "profile": event.profile.slug,
              "profile_version": event.profile.version, "format": event.format, "slug": event.slug}
    error = None
    if request.method == "POST":
        values = {k: (request.POST.get(k) or "").strip() for k in FORM_FIELDS}
        try:
            event = services.update_event(event, values)
        except UserError as exc:
            error = exc
        else:
            messages.success(request, _("Saved."))
            return redirect("event_detail", slug=event.slug)
    return _form_page(request, event=event, values=values, error=error, title=_("Event settings"))


@organiser_required
@require_POST
def event_publish(request, event):
    """Publish or unpublish (``published`` = 1 or 0)."""
    event = services.set_published(event, request.POST.get("published") == "1")
    messages.success(request, _("The event is published.") if event.published else _("The event is hidden."))
    return redirect("event_detail", slug=event.slug)


@organiser_required
def event_copy(request, event):
    """A new unpublished event like this one, its entries copied when asked."""
    if not access.may(request.user, access.CREATE_EVENT) and not request.user.is_superuser:
        raise PermissionDenied(_("Only organisers may create events."))
    values = {"name": event.name, "start_date": event.start_date, "end_date": event.end_date, "slug": ""}
    error = None
    if request.method == "POST":
        values = {k: (request.POST.get(k) or "").strip() for k in ("name", "start_date", "end_date", "slug")}
        try:
            copy = services.copy_event(event, request.user, values,
                                       with_entries=request.POST.get("with_entries") == "1")
        except UserError as exc:
            error = exc
        else:
            messages.success(request, _("The copy was made (not published)."))
            return redirect("event_detail", slug=copy.slug)
    return render(request, "tournament/events/copy.html", {"event": event, "values": values, "error": error})
