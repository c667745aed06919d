"""Organiser pages for the event itself: create, edit, copy (entries optional), publish and unpublish.

One :class:`~tournament.events.forms.EventForm` serves create and edit; the rules are
:mod:`tournament.events.services`'s (the API's too) and a refusal is shown next to its field."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament import access
from tournament.events import services
from tournament.events.forms import CopyEventForm, EventForm, PublishForm
from tournament.models import Event
from tournament.permissions import organiser_required


def _profiles(event=None):
    """Every profile's latest version with its title, source document, versions and organiser choices (with the
    event's own version, which may be an imported event's copy offered to no other event)."""
    return [{"profile": p, "source": services.source_text(p), "versions": services.profile_versions(p.slug, event),
             "choices": services.organiser_choices(p)} for p in services.profile_choices(event)]


def _form_page(request, *, event, form, title):
    return render(request, "tournament/events/form.html", {
        "event": event, "form": form, "title": title, "profiles": _profiles(event),
        "formats": Event.Format.choices, "drawn": form.drawn, "started": form.started,
        "choices": services.organiser_choices(event.profile) if event is not None else None,
    })


@login_required
def event_new(request):
    """A new event; the creator becomes its organiser."""
    if not access.may(request.user, access.CREATE_EVENT):
        raise PermissionDenied(_("Only organisers may create events."))
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and (event := form.save(request.user)) is not None:
        messages.success(request, _("The event was created. Next: add its staff and entries."))
        return redirect("event_detail", slug=event.slug)
    return _form_page(request, event=None, form=form, title=_("New event"))


@organiser_required
def event_edit(request, event):
    """Change the event's fields (the slug too), with the same form as a new event."""
    form = EventForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid() and (saved := form.save(request.user)) is not None:
        messages.success(request, _("Saved."))
        return redirect("event_detail", slug=saved.slug)
    return _form_page(request, event=event, form=form, title=_("Event settings"))


@organiser_required
@require_POST
def event_publish(request, event):
    """Publish or unpublish (``published`` = 1 or 0)."""
    form = PublishForm(request.POST)
    event = services.set_published(event, form.is_valid() and form.cleaned_data["published"])
    messages.success(request, _("The event is published.") if event.published else _("The event is hidden."))
    return redirect("event_detail", slug=event.slug)


@organiser_required
def event_copy(request, event):
    """A new unpublished event like this one, its entries copied when asked."""
    if not access.may(request.user, access.CREATE_EVENT) and not request.user.is_superuser:
        raise PermissionDenied(_("Only organisers may create events."))
    form = CopyEventForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid() and (copy := form.save(request.user)) is not None:
        messages.success(request, _("The copy was made (not published)."))
        return redirect("event_detail", slug=copy.slug)
    return render(request, "tournament/events/copy.html", {"event": event, "form": form})
