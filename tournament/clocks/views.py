"""Clock pages: the big-screen hall display (public for published events), the chief referee's
clock page with the overview of every table, the organiser's clock settings, and the small JSON the live
public pages poll (the display's tables). Thin views over tournament.clocks.services and display."""
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import conditional_page

from common.errors import UserError
from common.numbers import whole
from common.qr import qr_svg
from infra.etags import hall_read_headers
from tournament import access
from tournament.access import visible_events
from tournament.clocks import display, safety, services
from tournament.clocks.forms import ClockActionForm, ClockSettingsForm, ParallelRoundsForm
from tournament.competition import live
from tournament.models import Event, EventClockSettings, Match, Round, RoundClock
from tournament.permissions import organiser_event


def _round_of(event, round_id):
    return get_object_or_404(Round.objects.select_related("stage__event__profile"), pk=round_id,
                             stage__event=event)


def hall_display(request, slug, round_id):
    """The hall's big screen: countdown, announcement banner, the tables still playing."""
    event = get_object_or_404(visible_events(request.user), slug=slug)
    rnd = _round_of(event, round_id)
    address = request.build_absolute_uri(event.get_absolute_url())
    return render(request, "tournament/clock/display.html", {
        "event": event, "round": rnd, "event_address": address,
        "event_qr": mark_safe(qr_svg(address, label=event.name)),  # our own SVG; the label is escaped
    })


@login_required
def chief_clock(request, event_slug, round_id):
    """The chief referee's clock: start, pause, resume, add minutes, extra time for a table; overview."""
    event = get_object_or_404(Event, slug=event_slug)
    if not access.may(request.user, access.RUN_CLOCK, event=event):
        raise PermissionDenied(_("Only the chief referee can run the clock."))
    rnd = _round_of(event, round_id)
    confirm, form = None, ClockActionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        question = "" if d["confirmed"] else safety.confirmation(rnd, d["action"], d["minutes"])
        if not question and _post_action(request, rnd, form):
            return redirect(request.path)
        if question:
            confirm = {"question": question, "fields": form.echoed()}
    errors = form.errors if form.is_bound else {}
    if errors.keys() - {"minutes", "match"}:  # a refused action: said above the page, as before
        for message in (m for field_errors in errors.values() for m in field_errors):
            messages.error(request, message)
        return redirect(request.path)
    data = display.live_clock(display.build_display_data(rnd.pk))
    matches = (Match.objects.filter(round=rnd, ns__isnull=False, ew__isnull=False)   # the tables: a bye is none
               .exclude(status=Match.Status.BYE).order_by("table", "id"))
    return render(request, "tournament/clock/chief.html", {
        "event": event, "round": rnd, "clock": data, "tables": data["tables"], "matches": matches,
        "confirm": confirm, "form": form, "refused": form.cleaned_data.get("action") if errors else "",
    }, status=400 if errors else 200)


def _post_action(request, rnd, form) -> bool:
    """Run the form's action and say so; False with the refusal on the form."""
    d = form.cleaned_data
    try:
        services.apply_action(rnd, request.user, d["action"], d["minutes"], d["match"], d["note"])
    except UserError as exc:
        form.add_service_error(exc)
        return False
    messages.success(request, _("Clock updated."))
    return True


# --------------------------------------------------------------------------------------------
# The round whose clock runs now (for the public schedule)
# --------------------------------------------------------------------------------------------
# --------------------------------------------------------------------------------------------
# The organiser's clock settings: length and announcement rule per event or per round
# --------------------------------------------------------------------------------------------
def _rule_row(rnd, overridden):
    """One round's effective rule for the settings page (or the reason it has none)."""
    row = {"round": rnd, "overridden": rnd.pk in overridden}
    try:
        rule = services.clock_rule(rnd)
    except UserError as exc:
        return {**row, "error": str(exc)}
    return {**row, "minutes": rule.match_seconds // 60, "announces": rule.announces,
            "announce_minutes": (rule.announce_before_seconds or 0) // 60, "hands_after": rule.hands_after,
            "hand_in_play_counts": rule.hand_in_play_counts}


def _rule_rows(event):
    """Every round of the event with its effective rule and whether it has overrides of its own."""
    overridden = {rc.round_id for rc in RoundClock.objects.filter(round__stage__event=event)
                  if any(value is not None for value in rc.overrides().values())}
    rounds = Round.objects.filter(stage__event=event).select_related("stage__event__profile").order_by(
        "stage__order", "number")
    return [_rule_row(rnd, overridden) for rnd in rounds]


@login_required
def clock_settings(request, slug):
    """The organiser's override of clock length and announcement rule, for the event or (?round=<id>)
    for one round. Saved through tournament.clocks.services.set_clock_settings."""
    event = organiser_event(request, slug)
    round_id = request.GET.get("round", "")
    rnd = _round_of(event, round_id) if whole(round_id) is not None else None
    target = rnd or event
    if request.method == "POST" and "parallel_rounds" in request.POST and rnd is None:
        parallel = ParallelRoundsForm(request.POST)
        if parallel.is_valid():
            safety.set_parallel_rounds(event, parallel.cleaned_data["parallel_rounds"])
            messages.success(request, _("Clock settings saved."))
        else:
            messages.error(request, parallel.errors["parallel_rounds"][0])
        return redirect(request.get_full_path())
    if request.method == "POST":
        form = ClockSettingsForm(request.POST)
        if form.is_valid():
            try:
                services.set_clock_settings(target, request.user, **form.cleaned_data)
            except UserError as exc:
                form.add_service_error(exc)
            else:
                messages.success(request, _("Clock settings saved."))
                return redirect(request.get_full_path())
    else:
        row = (RoundClock if rnd else EventClockSettings).objects.filter(
            **({"round": rnd} if rnd else {"event": event})).first()
        form = ClockSettingsForm(initial=ClockSettingsForm.initial_from(row))
    return render(request, "tournament/clock/settings.html", {
        "event": event, "tab": "clock", "round": rnd, "form": form, "rules": _rule_rows(event),
        "parallel_rounds": safety.parallel_allowed(event.pk),
    })


@conditional_page
def public_live(request, slug):
    """The live tables of the rounds ``?rounds=1,2`` of the event (levels, hands, states) as JSON; with
    ``&tables=5,9`` those tables only (the ones the page shows).

    A published event's answer comes from the shared display cache (no query on a warm cache); an
    unpublished event's only to the people who may see it. The answer carries an ETag (a hash of its
    body): a poll while nothing changed is a 304 without a body, which the browser's fetch() answers from its
    copy. A published event's answer to a visitor may be kept a second by any cache (``hall_read_headers``).
    """
    data = display.live_tables(slug, live.parse_round_ids(request.GET.get("rounds")),
                               live.parse_match_ids(request.GET.get("tables")))
    if not data["published"] and not visible_events(request.user).filter(slug=slug).exists():
        raise Http404
    return hall_read_headers(request, JsonResponse(data), public=data["published"])
