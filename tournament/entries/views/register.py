"""Pages of issue 32: the unit's registration page behind its private link (no account), and the organiser's
links page (window, links, cards, review, approval) with the list of units not yet submitted. Thin: the
logic is in :mod:`tournament.entries.registration`.

A link's page answers 404 for a key it does not know (or a revoked one) and counts the miss like a failed
login (``infra.auth.record_failure``, per address); past ``LOGIN_FAILURE_LIMIT`` misses every link page
answers 429 to that address for ``LOGIN_LOCKOUT_SECONDS``.
"""
from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import ConflictError, UserError
from common.qr import qr_svg
from infra import auth
from tournament.entries import registration as reg
from tournament.entries.registration_card import registration_card_pdf
from tournament.entries.services import entries_locked_reason, team_rule
from tournament.models import UnitEntryVersion, UnitLink
from tournament.permissions import organiser_required

#: The lockout's "login name" for link misses (a NUL: no account can have it).
LINK_NAME = "\x00registration-link"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _link_or_404(request, key):
    address = auth.client_address(request)
    if auth.locked(LINK_NAME, address):
        return None, render(request, "tournament/entries/register_locked.html", status=429)
    link = reg.find_link(key)
    if link is None:
        auth.record_failure(LINK_NAME, address)
        raise Http404
    return link, None


def link_url(request, key: str) -> str:
    return request.build_absolute_uri(reverse("unit_register", args=[key]))


def unit_register(request, key):
    """The unit's own page: its pairs as a form (read-only after the deadline), the rules, its history."""
    link, refused = _link_or_404(request, key)
    if refused:
        return refused
    problems, rows = [], None
    if request.method == "POST":
        rows = reg.rows_from(request.POST, link)
        submit = request.POST.get("action") == "submit"
        try:
            reg.save(link, rows, submit=submit)
        except UserError as exc:
            if isinstance(exc, ConflictError):   # closed meanwhile: the page says so, the stored draft stays
                rows = None
            else:
                problems = reg.check(link, rows) or [reg.Problem(None, exc.field or "", str(exc))]
        else:
            messages.success(request, _("Submitted: the organiser will review your entries.") if submit
                             else _("Saved. Submit when the entries are complete."))
            return redirect("unit_register", key)
    history = reg.versions(link)
    rows = rows or reg.draft(link, history)
    by_row = {}
    for problem in problems:
        by_row.setdefault(problem.row, []).append(problem.message)
    return render(request, "tournament/entries/register.html", {
        "link": link, "event": link.event, "key": key, "rule": team_rule(link.event),
        "window": reg.window(link.event), "closed": reg.closed_reason(link),
        "rows": [{"index": i, "row": r, "problems": by_row.get(i, [])} for i, r in enumerate(rows)],
        "unit_problems": by_row.get(None, []), "status": _(reg.STATUS_LABELS[reg.status(history)]),
        "history": list(reversed(history)),
        "refused": history[-1] if history and history[-1].action == UnitEntryVersion.Action.REFUSED else None,
    })


@require_POST
def unit_check(request, key):
    """The draft's problems as JSON (the page asks as the holder types)."""
    link, refused = _link_or_404(request, key)
    if refused:
        return refused
    problems = reg.check(link, reg.rows_from(request.POST, link))
    return JsonResponse({"problems": [{"row": p.row, "field": p.field, "message": p.message} for p in problems]})


# --------------------------------------------------------------------------- the organiser
@organiser_required
def links_page(request, event):
    """The registration window, the links (make, new key and card, revoke, reopen) and each unit's review:
    approve or send back."""
    created, error = None, None
    action = request.POST.get("action") if request.method == "POST" else None
    if action == "reissue":
        link = get_object_or_404(UnitLink.objects.select_related("unit", "event__profile"), event=event,
                                 pk=request.POST.get("link") or 0, revoked_at__isnull=True)
        try:
            link, key = reg.reissue(link)
        except UserError as exc:
            error = exc
        else:
            url = link_url(request, key)
            created = {"link": link, "key": key, "url": url, "qr": qr_svg(url, label=link.unit.name),
                       "reissued": True}
    elif action == "create":
        try:
            link, key = reg.create_link(event, request.POST.get("unit", ""),
                                        individual=request.POST.get("individual") == "on",
                                        phone=request.POST.get("phone", ""), by=request.user)
        except UserError as exc:
            error = exc
        else:
            url = link_url(request, key)
            created = {"link": link, "key": key, "url": url, "qr": qr_svg(url, label=link.unit.name)}
    elif action == "window":
        closes = parse_datetime(request.POST.get("closes_at", "") or "")
        if closes is not None and timezone.is_naive(closes):
            closes = timezone.make_aware(closes)
        reg.set_window(event, closes, request.POST.get("asks_phone") == "on")
        messages.success(request, _("Registration window saved."))
        return redirect("entries_links", event.slug)
    elif action in ("revoke", "reopen", "approve", "refuse", "seen"):
        return _link_action(request, event, action)
    window = reg.window(event)
    return render(request, "tournament/entries/links.html", {
        "event": event, "locked": entries_locked_reason(event), "rows": reg.review(event), "created": created,
        "error": error, "window": window, "rule": team_rule(event),
        "closes_value": timezone.localtime(window.closes_at).strftime("%Y-%m-%dT%H:%M") if window.closes_at else "",
    })


def _link_action(request, event, action):
    link = get_object_or_404(UnitLink.objects.select_related("unit", "event__profile"), event=event,
                             pk=request.POST.get("link") or 0, revoked_at__isnull=True)
    try:
        if action == "revoke":
            reg.revoke(link)
            messages.success(request, _("The link of “%(unit)s” was revoked.") % {"unit": link.unit.name})
        elif action == "reopen":
            reg.reopen(link)
            messages.success(request, _("“%(unit)s” may change its entries again.") % {"unit": link.unit.name})
        elif action == "approve":
            pairs = reg.approve(link, request.user)
            messages.success(request, _("Entries of “%(unit)s” approved: %(count)s pairs.") % {
                "unit": link.unit.name, "count": len(pairs)})
        elif action == "refuse":
            reg.refuse(link, request.user, request.POST.get("note", ""))
            messages.success(request, _("The entries of “%(unit)s” were sent back to the unit.") % {
                "unit": link.unit.name})
        else:
            reg.mark_seen(link)
    except UserError as exc:
        if action == "approve":
            messages.error(request, _("%(unit)s: not approved, nothing was changed: %(problem)s") % {
                "unit": link.unit.name, "problem": exc})
        else:
            messages.error(request, _("%(unit)s: %(problem)s") % {"unit": link.unit.name, "problem": exc})
    return redirect("entries_links", event.slug)


@organiser_required
@require_POST
def link_card(request, event):
    """The card of a link just made (or just given a new key): the key comes with the request (it is not kept)
    and must be the event's. To print a card later the organiser has the key replaced (``reissue``)."""
    key = request.POST.get("key", "")
    link = reg.find_link(key)
    if link is None or link.event_id != event.pk:
        raise Http404
    closes = reg.window(event).closes_at
    pdf = registration_card_pdf(event_name=event.name, unit=link.unit.name, url=link_url(request, key),
                                closes=timezone.localtime(closes).strftime("%Y-%m-%d %H:%M") if closes else "")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{event.slug}-registration-{link.pk}.pdf"'
    return response


@organiser_required
def not_submitted(request, event):
    """The units that have not submitted (or changed since), with their contact's phone; and as .xlsx."""
    if request.GET.get("format") == "xlsx":
        response = HttpResponse(reg.not_submitted_sheet(event), content_type=XLSX)
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-not-submitted.xlsx"'
        return response
    return render(request, "tournament/entries/links_missing.html", {
        "event": event, "locked": entries_locked_reason(event), "rows": reg.not_submitted(event)})
