"""Page permissions shared by the organiser pages (entries, competition, clock settings, printouts)."""
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from .models import Event

MANAGE_EVENT = "tournament.manage_event"


def organiser_event(request, slug) -> Event:
    """The event, for an organiser (the ``manage_event`` permission) only: 403 for everyone else."""
    if not request.user.has_perm(MANAGE_EVENT):
        raise PermissionDenied(_("Only organisers may manage the competition."))
    return get_object_or_404(Event.objects.select_related("profile"), slug=slug)


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
