"""The chief's desk (one page per round, polled as JSON) and the arbitration page. Thin views over
``tournament.desk.board`` (reading); every decision posts to the existing API (tournament.desk.api,
rulings.api), whose services check the rights again."""
import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common import punctuation
from common.errors import UserError
from common.names import display_name
from rulings import appeal_route
from rulings.asking import confirm_labels
from rulings.presenters import offence_menu
from tournament import access
from tournament.competition.floor_forms import FloorRefereeForm
from tournament.competition.referees import referees_of
from tournament.desk import board, floor, uplinks
from tournament.desk.forms import ReissueSlipForm, RoundSlipsForm
from tournament.models import Event, Match, Round
from tournament.printouts import slips
from tournament.selfscore import codes


def _desk_round(request, event_slug, round_id):
    event = get_object_or_404(Event.objects.select_related("profile"), slug=event_slug)
    if not access.may(request.user, access.CLOSE_ROUND, event=event):
        raise PermissionDenied(_("The desk is for the chief referees and organisers of the event."))
    rnd = get_object_or_404(Round.objects.select_related("stage__event__profile"), pk=round_id, stage__event=event)
    return event, rnd


def _rights(user, event):
    return {"approve": access.may(user, access.APPROVE, event=event),
            "decide_result": access.may(user, access.DECIDE_RESULT, event=event),
            "close": access.may(user, access.CLOSE_ROUND, event=event),
            "file_appeal": access.may(user, access.DECIDE_FIRST, event=event),
            "bodies": sorted(appeal_route.bodies_of(user, event))}


def _labels():
    """The desk script's words, in the active language."""
    return {
        "table": _("Table %(n)s"), "open": _("Open: results not published yet"),
        "closed": _("Closed: results published at %(at)s"), "deadline": _("Appeals close in %(left)s"),
        "deadline_passed": _("The appeal deadline has passed (%(at)s)"), "approve": _("Approve"),
        "reject": _("Reject"), "proposed_by": _("Proposed by %(who)s at %(at)s"), "hand": _("hand %(n)s"),
        "own": _("You proposed it: another chief referee decides."), "table_page": _("Table page"),
        "console": _("Console"), "no_limit": _("no limit"), "time_up": _("Time is up"), "saved": _("Saved."),
        "filed_by": _("Filed by %(who)s for %(side)s: %(grounds)s"), "waiting": _("Waits for: %(body)s"),
        "upheld": _("Upheld"), "amended": _("Amended"), "reversed": _("Reversed"), "reason": _("Reason"), "nobody": _("none"),
        "undecided": _("Still without a result: table(s) %(tables)s"), "not_yours": _("Decided by: %(body)s"),
        "error": _("Could not save: %(detail)s"), "offline": _("Connection lost: retrying"),
        "winner": _("Winner: %(who)s"), "extra": _("+%(n)s min"),
        "retrying": _("No answer from the server yet: sending the same request again (attempt %(n)s)…"),
        "unsure": _("Not confirmed as saved: %(detail)s. Try again: it will not be applied twice."),
        "result_stands": _("Decide so, the result standing"), "byes": _("Bye: %(n)s"),
        "sep": punctuation.list_separator(get_language()),
    }


@login_required
def desk(request, event_slug, round_id):
    """The chief's desk of one round: every table, the pending approvals and appeals, close / reopen."""
    event, rnd = _desk_round(request, event_slug, round_id)
    data = board.desk_data(rnd, request.user)
    rounds = Round.objects.filter(stage__event=event).select_related("stage").order_by("stage__order", "number")
    return render(request, "tournament/desk/desk.html", {
        "event": event, "round": rnd, "desk": data, "rights": _rights(request.user, event), "rounds": rounds,
        "labels": {**_labels(), **confirm_labels()}, "offences": offence_menu(event.profile) if event.profile_id else [],
        "floor": floor.desk_floor(rnd) if access.may(request.user, access.REFEREE_TABLES, event=event) else [],
    })


@login_required
def desk_state(request, event_slug, round_id):
    """The desk's JSON, polled every few seconds."""
    event, rnd = _desk_round(request, event_slug, round_id)
    return JsonResponse({**board.desk_data(rnd, request.user), "rights": _rights(request.user, event)})


@login_required
def arbitration(request, event_slug):
    """The appeals of the event for the bodies that decide them (arbitration group, organising committee,
    chief referees), those the user's body decides first."""
    event = get_object_or_404(Event.objects.select_related("profile"), slug=event_slug)
    if not appeal_route.bodies_of(request.user, event):
        raise PermissionDenied(_("The arbitration page is for the bodies that decide appeals."))
    return render(request, "tournament/desk/arbitration.html", {
        "event": event, "data": board.arbitration_data(event, request.user),
    })


@require_POST
def uplink(request, match_id):
    """A table's phone reports how many entries its offline queue still holds: ``{"pending": n}`` → 204."""
    match = get_object_or_404(Match.objects.select_related("round__stage__event"), pk=match_id)
    if not access.may(request.user, access.RECORD, match=match):
        return JsonResponse({"field": None, "detail": _("You may not record at this table.")}, status=403)
    try:
        pending = json.loads(request.body or b"{}").get("pending")
    except (ValueError, AttributeError):
        pending = None
    if not isinstance(pending, int) or isinstance(pending, bool) or not 0 <= pending <= 10_000:
        return JsonResponse({"field": "pending", "detail": _("Send the number of entries waiting.")}, status=400)
    uplinks.record(match.pk, pending)
    return HttpResponse(status=204)


# A floor referee's page ("my tables"): their tables in the current round(s) with the pairs, the hands
# recorded, the time left, the hands waiting for a confirmation and the open disputes, the newest activity
# first. The referee themselves, the chief referees and the organisers (``?referee=``) may read it.
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


# --- the sides' slips where the players record (tournament.selfscore): new codes printed at once --------------

def _slips_round(request, event_slug, round_id):
    event = get_object_or_404(Event, slug=event_slug)
    if not codes.may_issue(request.user, event):
        raise PermissionDenied(_("Only a chief referee or an organiser may issue the sides' codes."))
    return get_object_or_404(Round.objects.select_related("stage__event"), pk=round_id, stage__event=event)


def _refused(field, message, status=400):
    return JsonResponse({"code": "invalid", "field": field, "detail": str(message)}, status=status)


def _form_refused(form):
    field, errors = next(iter(form.errors.items()))
    return _refused(field, errors[0])


def _slips_pdf(request, rnd, issued, name):
    response = HttpResponse(slips.render(rnd, slips.slips_of(issued, request.build_absolute_uri("/"))),
                            content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"   # the codes are shown this once
    return response


@login_required
@require_POST
def round_slips(request, event_slug, round_id):
    """New codes for both sides of the round's open tables (or the tables typed), printed at once."""
    rnd = _slips_round(request, event_slug, round_id)
    form = RoundSlipsForm(request.POST)
    if not form.is_valid():
        return _form_refused(form)
    try:
        issued = codes.issue_round_codes(rnd, request.user, tables=form.cleaned_data["tables"] or None)
    except UserError as error:
        return _refused(error.field, error, error.status)
    return _slips_pdf(request, rnd, issued, f"slips-round-{rnd.pk}.pdf")


@login_required
@require_POST
def reissue_slip(request, event_slug, round_id):
    """A side's new code (its old code dies) and the new slip."""
    rnd = _slips_round(request, event_slug, round_id)
    form = ReissueSlipForm(request.POST)
    if not form.is_valid():
        return _form_refused(form)
    table, side = form.cleaned_data["table"], form.cleaned_data["side"]
    match = Match.objects.filter(round=rnd, table=table).first()
    if match is None:
        return _refused("table", _("No such table in this round."))
    try:
        code = codes.issue_code(match, side, request.user)
    except UserError as error:
        return _refused(error.field, error, error.status)
    return _slips_pdf(request, rnd, [codes.Issued(match.pk, match.table, side, code)],
                      f"slip-table-{match.table}-{side}.pdf")
