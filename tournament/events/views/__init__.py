"""Public and organiser pages: the home page, each event's hub and its share image.

The organiser pages are its modules `manage` and `choices` (so `**.views` in .importlinter covers them all);
no name this module imports may be a submodule's name (importing the submodule would overwrite it)."""
from django.conf import settings
from django.http import HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournament import access, pagecache
from tournament.access import visible_events
from tournament.events.share import share_image
from tournament.models import Match, Round
from tournament.staff import first_run
from tournament.transfer import snapshots


def home(request):
    """The home page: the events this visitor may see."""
    events = visible_events(request.user).select_related("profile")
    return render(request, "tournament/home.html", {
        "events": events, "may_create": access.may(request.user, access.CREATE_EVENT),
        "first_run": not request.user.is_authenticated and first_run.needed()})


@pagecache.public_page
def event_detail(request, slug):
    """An event's hub: public sections for everybody, the visitor's own work for staff.

    Table referees see the tables assigned to them, the chief referee every round's clock, organisers
    the entries, stages, schedule, referees and printouts.
    """
    event = get_object_or_404(visible_events(request.user).select_related("profile"), slug=slug)
    pagecache.seen(request, event)
    rounds = Round.objects.filter(stage__event=event).select_related("stage").order_by("stage__order", "number")
    my_tables = []
    if request.user.is_authenticated:
        my_tables = (Match.objects.filter(round__stage__event=event, referees=request.user)
                     .select_related("round__stage", "ns", "ew").order_by("round__stage__order", "round__number", "table"))
    is_organiser = access.may(request.user, access.MANAGE, event=event)
    return render(request, "tournament/event_detail.html", {
        "event": event,
        "rounds": rounds,
        "my_tables": my_tables,
        "is_organiser": is_organiser,
        "snapshot": snapshots.status(event) if is_organiser else None,
        "snapshot_minutes": settings.EVENT_SNAPSHOT_MINUTES,
        "is_chief": access.may(request.user, access.RUN_CLOCK, event=event),
        "is_arbiter": access.may(request.user, access.DECIDE_SECOND, event=event),
    })


@require_GET
def event_share_image(request, slug):
    """The PNG a shared link of the event shows (its name, dates and venue), cached per event."""
    event = get_object_or_404(visible_events(request.user), slug=slug)
    png, key = share_image(event)
    etag = f'"{key.rsplit(":", 1)[1]}"'
    if request.headers.get("If-None-Match") == etag:
        return HttpResponseNotModified(headers={"ETag": etag})
    response = HttpResponse(png, content_type="image/png")
    response["ETag"] = etag
    response["Cache-Control"] = "public, max-age=3600" if event.published else "private, max-age=600"
    return response
