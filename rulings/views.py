"""Pages: the table referee's console and the penalty logs (thin: data comes from services/presenters)."""
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation
from django.utils.translation import gettext as _

from infra import clock
from rulings import presenters, public_log
from rulings.asking import confirm_labels
from rulings.exports import penalty_log_workbook
from rulings.presenters import entries_data, match_info, offence_menu
from tournament import access, pagecache
from tournament.desk.lifecycle import match_lifecycle
from tournament.models import Event, Match
from tournament.records.closing import MATCH_OVER, closed_round_text, ended_for
from tournament.records.ledger import match_entries


def _match(match_id):
    return get_object_or_404(Match.objects.select_related("profile", "round__stage__event", "ns", "ew"),
                             pk=match_id)


def _labels():
    """The console script's words, in the active language (``%(name)s`` filled in by the script)."""
    return {
        "retrying": _("%(reason)s: trying again (attempt %(n)s)…"),
        "server_busy": _("The server cannot answer right now"), "network_down": _("Network interrupted"),
        "error_code": _("Error %(status)s"),
        "unsure": _("Not confirmed as saved: %(detail)s. Try again: it will not be stored twice."),
        "choose_side": _("Choose the offending side"), "enter_minutes": _("Enter the minutes"),
        "enter_cards": _("Enter the number of cards"),
        "choose_role": _("Choose whether the offenders are on stage or off stage"),
        "previewing": _("Working out the sanction…"), "preview": _("Sanction: %(explanation)s"),
        "preview_approval": _("Sanction: %(explanation)s (needs the chief referee's approval)"),
        "no_preview": _("No preview available"), "preview_offline": _("Network unavailable: no preview"),
        "saving": _("Saving…"), "saved": _("Saved"), "saved_as": _("Saved: %(explanation)s"),
        "not_saved": _("Not saved: %(detail)s"),
        "confirm_offline":
            _("Not saved: the network is unavailable. Press Confirm again: it will not be stored twice."),
        "offline": _("Not saved: the network is unavailable. Try again: it will not be stored twice."),
        "hand": _("Hand %(n)s"), "pending": _("Pending: %(explanation)s (proposed by %(who)s)"),
        "chooses": _("%(side)s chooses: %(option)s"), "approve": _("Approve"), "reject": _("Reject"),
        "awaiting_approval": _("(waiting for the chief referee's approval)"),
        "list_offline": _("Network unavailable: the list was not updated"),
        "void": _("Void the last ruling"), "void_armed": _("Press again to void the last ruling"),
        "voiding": _("Voiding…"), "voided": _("Saved: voided"), "not_voided": _("Not voided: %(detail)s"),
        "void_offline": _("Not voided: the network is unavailable. Try again: it will not be voided twice."),
        "log_in": _("Log in again"),
    }


@login_required
def console(request, match_id):
    """The mobile console of one table: levels, offence buttons, preview, this match's rulings.

    The table's referee keeps it once her round is closed: read only (no offence buttons), with the reason,
    and the appeal form open until the appeal deadline (a chief referee records at every table)."""
    match = _match(match_id)
    may_record = access.may(request.user, access.RECORD, match=match)
    may_appeal = access.may(request.user, access.FILE_APPEAL, match=match)
    if not may_record and not may_appeal:
        raise PermissionDenied(_("Only this table's referee this round or a chief referee may use its console."))
    entries = match_entries(match)
    ended = may_record and ended_for(request.user, match)   # once the match ended, a new ruling is the chief's
    offences = offence_menu(match.profile) if may_record else []
    data = {
        "match": match_info(match),
        "offences": [o for o in offences if not ended_for(request.user, match, o["code"])] if ended else offences,
        "rulings": entries_data(match, entries, request.user),
        "chief": access.may(request.user, access.APPROVE, match=match),
        "read_only": not may_record,
    }
    life = match_lifecycle(match, request.user)
    closed = None if may_record else closed_round_text(match)
    deadline = life["appeal_deadline"]
    return render(request, "rulings/console.html", {
        "match": match, "console": data, "entries": entries, "labels": {**_labels(), **confirm_labels()}, "life": life,
        "may_record": may_record, "ended_reason": _(MATCH_OVER) if ended else "",
        "closed_reason": _(closed[0]) % closed[1] if closed else "",
        "may_appeal": may_appeal and (deadline is None or clock.now() <= deadline)})


def _readable(request, event):
    if not access.may(request.user, access.VIEW, event=event):
        raise Http404(_("This event has not been published yet."))


def match_log_page(request, match_id):
    """The match's penalty log: staff always, the public once the event is published."""
    match = _match(match_id)
    _readable(request, match.round.stage.event)
    rows = public_log.log_rows(entries_data(match, match_entries(match), request.user), request.user)
    return render(request, "rulings/match_log.html", {"match": match, "rows": rows})


@pagecache.public_page
def event_log_page(request, slug):
    """The event's penalty log, table by table, one page of rulings at a time."""
    event = get_object_or_404(Event, slug=slug)
    _readable(request, event)
    pagecache.seen(request, event)
    page, rulings = presenters.event_log_page(event, request.GET.get("page"), viewer=request.user)
    rows = public_log.log_rows(rulings, request.user)
    return render(request, "rulings/event_log.html", {"event": event, "rows": rows, "page": page})


def event_log_xlsx(request, slug):
    """The event's penalty log as .xlsx (the page's columns; the referees' own words as the presenter lets
    the reader see them: for the event's staff only)."""
    event = get_object_or_404(Event, slug=slug)
    _readable(request, event)
    with translation.override("zh-hans"):
        content = penalty_log_workbook(event, request.user)
    response = HttpResponse(content, content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-penalties.xlsx"'
    return response
