"""Pages of the units' own registration: the unit's registration page behind its private link (no
account), and the organiser's links page (window, links, cards, review, approval) with the list of units not
yet submitted. Thin: the logic is in :mod:`tournament.entries.registration` and its links'
:mod:`tournament.entries.registration_links`.

A link's page answers 404 for a key it does not know (or a revoked one) and counts the miss like a failed
login (``infra.auth.record_failure``, per address); past ``LOGIN_FAILURE_LIMIT`` misses a wrong key from that
address answers 429 (with ``Retry-After``) for ``LOGIN_LOCKOUT_SECONDS``; misses go on counting meanwhile,
and each ``LOGIN_FAILURE_LIMIT`` more lock the address again for the whole period. A right key is always served: the units behind one address (a company's NAT) must not lose
their own pages to whoever guessed from it. Guessing stays hopeless: a key is 192 random
bits, and a guesser is told nothing but "wrong" and "slow down".
"""
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import ConflictError, UserError
from common.qr import qr_svg
from infra import auth
from tournament.entries import registration as reg
from tournament.entries import registration_links
from tournament.entries.forms import ActionForm, CardForm, DraftForm, LinkActionForm, LinkForm, WindowForm
from tournament.entries.registration_card import registration_card_pdf, registration_cards_pdf
from tournament.entries.services import entries_locked_reason, team_rule
from tournament.form_fields import apply_user_error
from tournament.models import UnitEntryVersion
from tournament.permissions import organiser_required

#: The lockout's "login name" for link misses (a NUL: no account can have it).
LINK_NAME = "\x00registration-link"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _link_or_404(request, key):
    link = registration_links.find_link(key)
    if link is not None:   # the right key, whatever this address guessed before
        return link, None
    address = auth.client_address(request)
    was_locked = auth.locked(LINK_NAME, address)
    auth.record_failure(LINK_NAME, address)
    if was_locked:
        refused = render(request, "tournament/entries/register_locked.html", status=429)
        refused["Retry-After"] = str(settings.LOGIN_LOCKOUT_SECONDS)
        return None, refused
    raise Http404


def link_url(request, key: str) -> str:
    return request.build_absolute_uri(reverse("unit_register", args=[key]))


def unit_register(request, key):
    """The unit's own page: its pairs as a form (read-only after the deadline), the rules, its history."""
    link, refused = _link_or_404(request, key)
    if refused:
        return refused
    problems, rows = [], None
    if request.method == "POST":
        form = DraftForm(request.POST, link=link)
        if form.is_valid():
            rows, submit = form.rows(), form.cleaned_data["action"] == "submit"
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
        else:
            problems = [reg.Problem(None, "", _form_problem(form))]
    history = reg.versions(link)
    rows = rows or reg.draft(link, history)
    by_row = {}
    for problem in problems:
        by_row.setdefault(problem.row, []).append(problem.message)
    return render(request, "tournament/entries/register.html", {
        "link": link, "event": link.event, "key": key, "rule": team_rule(link.event),
        "window": registration_links.window(link.event), "closed": registration_links.closed_reason(link),
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
    form = DraftForm(request.POST, link=link)
    problems = reg.check(link, form.rows()) if form.is_valid() else [reg.Problem(None, "", _form_problem(form))]
    return JsonResponse({"problems": [{"row": p.row, "field": p.field, "message": p.message} for p in problems]})


def _form_problem(form) -> str:
    """The first thing the draft's form refused (a text no field may hold, such as a NUL character)."""
    return str(next(iter(form.errors.values()))[0])


# --------------------------------------------------------------------------- the organiser
@organiser_required
def links_page(request, event):
    """The registration window, the links (make, new key and card, revoke, reopen) and each unit's review:
    approve or send back. Each of its forms reads through a Django Form (:mod:`tournament.entries.forms`);
    a refusal is shown next to its field (the window's time, the new link's unit or phone, a unit's reason
    for sending back) and saves nothing."""
    window_form, link_form, action_form, created = WindowForm(), LinkForm(), None, None
    action = ActionForm.sent(request, ("window", "create", "dismiss", *LinkActionForm.ACTIONS))
    if action == "dismiss":
        _forget_links(request, event)
        return redirect("entries_links", event.slug)
    if action == "window":
        window_form = WindowForm(request.POST)
        if window_form.is_valid():
            chosen = window_form.cleaned_data
            registration_links.set_window(event, chosen["closes_at"], chosen["asks_phone"])
            messages.success(request, _("Registration window saved."))
            return redirect("entries_links", event.slug)
    elif action == "create":
        link_form = LinkForm(request.POST)
        created = _create(request, event, link_form) if link_form.is_valid() else None
        if created:
            link_form = LinkForm()
    elif action is not None:
        action_form = LinkActionForm(request.POST, event=event)
        if action_form.is_valid():
            if action == "reissue":
                created = _reissue(request, action_form)
            elif _link_action(request, action, action_form):
                return redirect("entries_links", event.slug)
    window = registration_links.window(event)
    made = _visit_links(request, event)
    return render(request, "tournament/entries/links.html", {
        "event": event, "locked": entries_locked_reason(event), "rows": reg.review(event), "created": created,
        "earlier": [m for m in made if not created or m["link"].pk != created["link"].pk], "made": made,
        "window": window, "rule": team_rule(event), "window_form": window_form, "link_form": link_form,
        "action_form": action_form, "note_max": reg.NOTE_MAX,
        "action_link": action_form.cleaned_data.get("link") if action_form else None,
        "closes_value": (window_form["closes_at"].value() if window_form.is_bound else
                         timezone.localtime(window.closes_at).strftime("%Y-%m-%dT%H:%M") if window.closes_at else ""),
        "asks_phone": window_form.cleaned_data.get("asks_phone") if window_form.is_bound else window.asks_phone,
    })


def _created(request, link, key, **extra) -> dict:
    """A link just made (or given a new key), remembered for the rest of the organiser's visit."""
    _remember(request, link, key, bool(extra.get("reissued")))
    return _shown(request, link, key, **extra)


def _shown(request, link, key, **extra) -> dict:
    url = link_url(request, key)
    return {"link": link, "key": key, "url": url, "qr": qr_svg(url, label=link.unit.name), **extra}


# The links made in this visit (a page showing only the last one would lose the others' keys): a link's key
# is kept only as a digest, so the keys made are kept in the organiser's session, one list per event, until the
# organiser dismisses them or logs out (the session ends). A key that no longer opens its link (revoked, or replaced by
# a new one) drops out of the list.
VISIT_LINKS = "registration_links_made"


def _remember(request, link, key, reissued=False):
    made = request.session.get(VISIT_LINKS, {})
    kept = [m for m in made.get(str(link.event_id), []) if m["link"] != link.pk]
    made[str(link.event_id)] = [*kept, {"link": link.pk, "key": key, "reissued": reissued}]
    request.session[VISIT_LINKS] = made


def _visit_links(request, event) -> list[dict]:
    """The links made for ``event`` in this visit that still open their page, oldest first, as the page shows
    them; the ones that no longer do are forgotten."""
    made = request.session.get(VISIT_LINKS, {})
    mine = made.get(str(event.pk), [])
    shown = []
    for item in mine:
        link = registration_links.find_link(item["key"])
        if link is not None and link.event_id == event.pk and link.pk == item["link"]:
            shown.append(_shown(request, link, item["key"], reissued=item.get("reissued", False)))
    if len(shown) != len(mine):
        made[str(event.pk)] = [m for m in mine if any(s["key"] == m["key"] for s in shown)]
        request.session[VISIT_LINKS] = made
    return shown


def _forget_links(request, event):
    made = request.session.get(VISIT_LINKS, {})
    if made.pop(str(event.pk), None) is not None:
        request.session[VISIT_LINKS] = made


def _create(request, event, form):
    """A new link from a valid LinkForm (shown once), or None with the service's refusal on its field."""
    d = form.cleaned_data
    try:
        link, key = registration_links.create_link(event, d["unit"], individual=d["individual"], phone=d["phone"],
                                                   by=request.user)
    except UserError as exc:
        apply_user_error(form, exc)
        return None
    return _created(request, link, key)


def _reissue(request, form):
    """The link's new key and card (shown once), or None with the refusal in the unit's row."""
    try:
        link, key = registration_links.reissue(form.cleaned_data["link"])
    except UserError as exc:
        _refused(form, "reissue", exc)
        return None
    return _created(request, link, key, reissued=True)


def _link_action(request, action, form) -> bool:
    """Do ``action`` to the form's link and say so (True); on a refusal the form holds it, next to the
    reason for a reason, else with the unit's row (False)."""
    link = form.cleaned_data["link"]
    try:
        if action == "revoke":
            registration_links.revoke(link)
            messages.success(request, _("The link of “%(unit)s” was revoked.") % {"unit": link.unit.name})
        elif action == "reopen":
            registration_links.reopen(link)
            messages.success(request, _("“%(unit)s” may change its entries again.") % {"unit": link.unit.name})
        elif action == "approve":
            pairs = reg.approve(link, request.user)
            messages.success(request, _("Entries of “%(unit)s” approved: %(count)s pairs.") % {
                "unit": link.unit.name, "count": len(pairs)})
        elif action == "refuse":
            reg.refuse(link, request.user, form.cleaned_data["note"])
            messages.success(request, _("The entries of “%(unit)s” were sent back to the unit.") % {
                "unit": link.unit.name})
        else:
            reg.mark_seen(link)
    except UserError as exc:
        _refused(form, action, exc)
        return False
    return True


def _refused(form, action, error):
    """A service's refusal of a link action: next to the reason when it is the reason's, else in the row."""
    unit = form.cleaned_data["link"].unit.name
    if error.field == "note":
        form.add_error("note", str(error))
    elif action == "approve":
        form.add_error(None, _("%(unit)s: not approved, nothing was changed: %(problem)s") % {
            "unit": unit, "problem": error})
    else:
        form.add_error(None, _("%(unit)s: %(problem)s") % {"unit": unit, "problem": error})


@organiser_required
@require_POST
def link_card(request, event):
    """The card of a link just made (or just given a new key): the key comes with the request (it is not kept)
    and must be the event's. To print a card later the organiser has the key replaced (``reissue``)."""
    form = CardForm(request.POST)
    key = form.cleaned_data["key"] if form.is_valid() else ""
    link = registration_links.find_link(key)
    if link is None or link.event_id != event.pk:
        raise Http404
    closes = registration_links.window(event).closes_at
    pdf = registration_card_pdf(event_name=event.name, unit=link.unit.name, url=link_url(request, key),
                                closes=timezone.localtime(closes).strftime("%Y-%m-%d %H:%M") if closes else "")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{event.slug}-registration-{link.pk}.pdf"'
    return response


@organiser_required
@require_POST
def link_cards(request, event):
    """One PDF with the card of every link made in this visit (a page each), read from the session: the keys
    never travel in the request."""
    made = _visit_links(request, event)
    if not made:
        messages.error(request, _("No new link in this visit: make the links first, or use “New link and card”."))
        return redirect("entries_links", event.slug)
    closes = registration_links.window(event).closes_at
    pdf = registration_cards_pdf(event_name=event.name, cards=[(m["link"].unit.name, m["url"]) for m in made],
                                 closes=timezone.localtime(closes).strftime("%Y-%m-%d %H:%M") if closes else "")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{event.slug}-registration-cards.pdf"'
    return response


@organiser_required
def not_submitted(request, event):
    """The units that have not submitted (or changed since), with their contact's phone; and as .xlsx."""
    if request.GET.get("format") == "xlsx":
        response = HttpResponse(reg.not_submitted_sheet(event), content_type=XLSX)
        response["Content-Disposition"] = f'attachment; filename="{event.slug}-not-submitted.xlsx"'
        return response
    return render(request, "tournament/entries/links_missing.html", {
        "event": event, "locked": entries_locked_reason(event), "rows": reg.not_submitted(event),
        "any_links": reg.has_links(event)})
