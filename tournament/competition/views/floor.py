"""A floor referee's page ("my tables"): their tables in the current round(s) with the pairs, the hands
recorded, the time left, the hands waiting for a confirmation and the open disputes, the newest activity
first. The referee themselves, the chief referees and the organisers (``?referee=``) may read it. Thin:
:mod:`tournament.desk.floor` reads."""
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from common.names import display_name
from tournament import access
from tournament.competition.floor_forms import FloorRefereeForm
from tournament.desk import floor
from tournament.models import Event
from tournament.staff.services import referees_of


@login_required
def referee_tables(request, slug):
    event = get_object_or_404(Event, slug=slug)
    anyone = access.may(request.user, access.REFEREE_TABLES, event=event)
    if not anyone and not access.may(request.user, access.OWN_TABLES, event=event):
        raise PermissionDenied(_("This page is for the event's referees, chief referees and organisers."))
    chosen = FloorRefereeForm(request.GET, referees=referees_of(event))
    if not chosen.is_valid():
        raise Http404(chosen.errors["referee"][0])
    referee = chosen.cleaned_data["referee"] or request.user
    if referee.pk != request.user.pk and not anyone:
        raise PermissionDenied(_("Only the chief referees and organisers may read another referee's tables."))
    rounds, tables = floor.referee_tables(event, referee)
    return render(request, "tournament/competition/floor_tables.html", {
        "event": event, "referee": referee, "name": display_name(referee), "own": referee.pk == request.user.pk,
        "rounds": rounds, "tables": tables,
    })
