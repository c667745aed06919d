"""Clock pages: the big-screen hall display (public for published events) and the chief referee's
clock page with the overview of every table. Thin views over tournament.clock_services."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from . import clock_services as services
from .api_clock import apply_action, can_run_clock
from .models import Event, Match, Round
from .visibility import visible_events


def _round_of(event, round_id):
    return get_object_or_404(Round.objects.select_related("stage__event__profile"), pk=round_id,
                             stage__event=event)


def hall_display(request, slug, round_id):
    """The hall's big screen: countdown, announcement banner, the tables still playing."""
    event = get_object_or_404(visible_events(request.user), slug=slug)
    rnd = _round_of(event, round_id)
    return render(request, "tournament/clock/display.html", {"event": event, "round": rnd})


@login_required
def chief_clock(request, event_slug, round_id):
    """The chief referee's clock: start, pause, resume, add minutes, extra time for a table; overview."""
    if not can_run_clock(request.user):
        raise PermissionDenied(_("Only the chief referee can run the clock."))
    event = get_object_or_404(Event, slug=event_slug)
    rnd = _round_of(event, round_id)
    if request.method == "POST":
        _post_action(request, rnd)
        return redirect(request.path)
    data = services.live_clock(services.build_display_data(rnd.pk))
    matches = Match.objects.filter(round=rnd, ns__isnull=False, ew__isnull=False).order_by("table", "id")
    return render(request, "tournament/clock/chief.html", {
        "event": event, "round": rnd, "clock": data, "tables": data["tables"], "matches": matches,
    })


def _post_action(request, rnd):
    """Run the posted action and say what happened (or why not) as a message."""
    match_id = request.POST.get("match", "")
    try:
        apply_action(rnd, request.user, request.POST.get("action", ""), request.POST.get("minutes") or None,
                     int(match_id) if match_id.isdigit() else None, request.POST.get("note", "")[:200])
    except ValueError as exc:
        messages.error(request, str(exc))
    except IntegrityError:
        messages.error(request, _("The clock was changed by someone else at the same moment; reload."))
    else:
        messages.success(request, _("Clock updated."))
