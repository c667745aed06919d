"""Clock pages: the big-screen hall display (public for published events), the chief referee's
clock page with the overview of every table, and the organiser's clock settings. Thin views over
tournament.clocks.services."""
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _l

from common.errors import UserError
from common.numbers import whole
from common.qr import qr_svg
from tournament import access
from tournament.access import visible_events
from tournament.clocks import display, safety, services
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
    confirm = None
    if request.method == "POST":
        question = "" if request.POST.get("confirmed") == "1" else safety.confirmation(
            rnd, request.POST.get("action", ""), request.POST.get("minutes") or None)
        if not question:
            _post_action(request, rnd)
            return redirect(request.path)
        confirm = {"question": question, "fields": [(k, request.POST.get(k, "")) for k in
                                                    ("action", "minutes", "match", "note") if k in request.POST]}
    data = display.live_clock(display.build_display_data(rnd.pk))
    matches = Match.objects.filter(round=rnd, ns__isnull=False, ew__isnull=False).order_by("table", "id")
    return render(request, "tournament/clock/chief.html", {
        "event": event, "round": rnd, "clock": data, "tables": data["tables"], "matches": matches,
        "confirm": confirm,
    })


def _post_action(request, rnd):
    """Run the posted action and say what happened (or why not) as a message."""
    match_id = request.POST.get("match", "")
    try:
        services.apply_action(rnd, request.user, request.POST.get("action", ""), request.POST.get("minutes") or None,
                              whole(match_id), request.POST.get("note", "")[:200])
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Clock updated."))


# --------------------------------------------------------------------------------------------
# The round whose clock runs now (for the public schedule)
# --------------------------------------------------------------------------------------------
# --------------------------------------------------------------------------------------------
# The organiser's clock settings: length and announcement rule per event or per round
# --------------------------------------------------------------------------------------------
INHERIT = [("", _l("Inherit")), ("true", _l("Yes")), ("false", _l("No"))]
# The fields the service's errors name, mapped to the form's fields.
ERROR_FIELDS = {"match_seconds": "match_minutes", "announce_before_seconds": "announce_minutes_before_end"}


def _label(name):
    return capfirst(EventClockSettings._meta.get_field(name).verbose_name)


def _tristate(name):
    return forms.TypedChoiceField(label=_label(name), choices=INHERIT, required=False, empty_value=None,
                                  coerce=lambda value: value == "true")


class ClockSettingsForm(forms.Form):
    """The five overrides of the profile's timing; an empty field inherits (from the profile, and for a
    round also from the event). Cross-field rules are checked by the service, not here."""

    match_minutes = forms.IntegerField(label=_label("match_minutes"), required=False, min_value=1, max_value=600)
    announce_enabled = _tristate("announce_enabled")
    announce_minutes_before_end = forms.IntegerField(label=_label("announce_minutes_before_end"), required=False,
                                                     min_value=0, max_value=600)
    hands_after = forms.IntegerField(label=_label("hands_after"), required=False, min_value=0, max_value=20)
    hand_in_play_counts = _tristate("hand_in_play_counts")

    @classmethod
    def initial_from(cls, row):
        """Initial values from a stored settings row (None: nothing stored yet)."""
        if row is None:
            return {}
        values = row.overrides()
        for name in ("announce_enabled", "hand_in_play_counts"):
            values[name] = "" if values[name] is None else ("true" if values[name] else "false")
        return values

    def add_service_error(self, exc):
        """Show the service's UserError next to the field it names (else above the form)."""
        field = ERROR_FIELDS.get(exc.field, exc.field)
        self.add_error(field if field in self.fields else None, str(exc))


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
        safety.set_parallel_rounds(event, request.POST["parallel_rounds"] == "true")
        messages.success(request, _("Clock settings saved."))
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
        "event": event, "round": rnd, "form": form, "rules": _rule_rows(event),
        "parallel_rounds": safety.parallel_allowed(event.pk),
    })
