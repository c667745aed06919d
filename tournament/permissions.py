"""Page permissions of the organiser pages (entries, competition, clock settings, printouts): thin
adapters over the one check, ``tournament.access.may``."""
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament import access
from tournament.models import Event


def organiser_event(request, slug) -> Event:
    """The event, for its organisers only: 403 for everyone else."""
    event = get_object_or_404(Event.objects.select_related("profile"), slug=slug)
    if not access.may(request.user, access.MANAGE, event=event):
        raise PermissionDenied(_("Only organisers may manage the competition."))
    return event


def organiser_required(view):
    """Log in first, then organisers only; the view receives the Event instead of its slug.

    The URL names the slug ``slug`` or ``event_slug``.
    """
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        slug = kwargs.pop("slug") if "slug" in kwargs else kwargs.pop("event_slug")
        return view(request, organiser_event(request, slug), *args, **kwargs)
    return wrapped
