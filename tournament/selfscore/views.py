"""Pages of the tables where the players record: the players' table page (no account: the side's code), the
code check it makes, the desk's slips (the codes issued and printed at once) and the desk's list of what
waits. The writes themselves go to the API (:mod:`tournament.selfscore.api`), which the page's script
calls with the side's code; the services check everything again."""
from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common.errors import UserError
from infra.auth import client_address
from scoring.table_page import table_match
from tournament import access
from tournament.models import Event, Match, Round
from tournament.selfscore import codes, pages


def _refused(error: UserError):
    return JsonResponse({"code": error.code, "field": error.field, "detail": str(error)}, status=error.status)


@require_GET
def players_table(request, match_id):
    """The players' table page: the confirmed hands, the entry waiting apart, the hand form while the table
    may enter, confirm / dispute / withdraw (the script, with the side's code)."""
    match = table_match(request.user, match_id)
    return render(request, "tournament/selfscore/players_table.html", pages.players_context(request, match))


@require_POST
@never_cache
def check_code(request, match_id):
    """Whose code it is at this table: ``{"code": "..."}`` → ``{"side": "NS", "name": "南北"}``; a wrong code
    is a 400 on ``code`` (counted and slowed as at every write)."""
    match = get_object_or_404(Match.objects.select_related("round__stage__event"), pk=match_id)
    try:
        typed = json.loads(request.body or b"{}").get("code", "")
    except (ValueError, AttributeError):
        typed = ""
    try:
        side = codes.side_of(match, str(typed or ""), address=client_address(request))
    except UserError as error:
        return _refused(error)
    return JsonResponse({"side": side.side, "name": pages.side_name(side.side)})


@login_required
@require_GET
def desk_entries(request, event_slug, round_id):
    """The desk's list of the round's waiting hands and disputes (a fragment the desk re-reads)."""
    event = get_object_or_404(Event, slug=event_slug)
    if not access.may(request.user, access.CLOSE_ROUND, event=event):
        raise PermissionDenied(_("The desk is for the chief referees and organisers of the event."))
    rnd = get_object_or_404(Round, pk=round_id, stage__event=event)
    return render(request, "tournament/selfscore/_desk_entries.html", {"rows": pages.desk_rows(rnd), "event": event})
