"""Clock safety: which clock actions the chief's page asks to confirm, and the refusal to start a round's
clock while another round of the same event runs (unless the event allows parallel rounds, e.g. several
halls: ``EventClockSettings.parallel_rounds``).

    running_elsewhere(rnd) -> list[Round]         the event's other rounds whose clock runs now
    check_parallel(rnd)                           ConflictError when starting ``rnd`` is refused
    confirmation(rnd, action, minutes) -> str     the question the page asks first ("" when none)
"""
from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from common import punctuation
from common.errors import ConflictError, gettext_noop
from tournament.engines import clock as clocks
from tournament.models import ClockEvent, ClockFiring, EventClockSettings, Round

BIG_CHANGE_MINUTES = 5          # a change of the time by more than this asks for confirmation


def running_elsewhere(rnd) -> list:
    """The other rounds of ``rnd``'s event whose clock has started and not reached its end."""
    event_id = rnd.stage.event_id
    started = set(ClockEvent.objects.filter(kind=clocks.START, round__stage__event_id=event_id)
                  .exclude(round_id=rnd.pk).values_list("round_id", flat=True))
    ended = set(ClockFiring.objects.filter(kind=ClockFiring.Kind.END, round_id__in=started)
                .values_list("round_id", flat=True))
    return list(Round.objects.filter(pk__in=started - ended).order_by("stage__order", "number"))


def parallel_allowed(event_id) -> bool:
    return EventClockSettings.objects.filter(event_id=event_id, parallel_rounds=True).exists()


def _names(rounds):
    return punctuation.list_separator(get_language()).join(str(r) for r in rounds)


def check_parallel(rnd):
    """Refuse to start ``rnd``'s clock while another round of the event runs (parallel rounds not allowed)."""
    others = running_elsewhere(rnd)
    if others and not parallel_allowed(rnd.stage.event_id):
        raise ConflictError(gettext_noop("Another round's clock is running in this event (%(rounds)s). Let it "
                                         "end first, or allow parallel rounds in the clock settings."),
                            field="action", rounds=[str(r) for r in others])


def confirmation(rnd, action, minutes=None) -> str:
    """The question the chief's clock page asks before ``action`` ("" when it needs none)."""
    if action == "start":
        others = running_elsewhere(rnd)
        if others:
            return _("Another round's clock is running (%(rounds)s). Start this round's clock as well?") % {
                "rounds": _names(others)}
        return _("Start the clock of %(round)s? Every table's time starts now.") % {"round": rnd}
    if action in ("add", "table_extra"):
        try:
            value = int(minutes)
        except (TypeError, ValueError):
            return ""
        if abs(value) > BIG_CHANGE_MINUTES:
            if action == "add":
                return _("Change the whole hall's time by %(n)s minutes?") % {"n": value}
            return _("Change this table's time by %(n)s minutes?") % {"n": value}
    return ""


def set_parallel_rounds(event, allowed: bool):
    """The organiser's choice: may the event's rounds run at the same time (several halls)?"""
    row, _created = EventClockSettings.objects.get_or_create(event=event)
    if row.parallel_rounds != bool(allowed):
        row.parallel_rounds = bool(allowed)
        row.save(update_fields=["parallel_rounds"])
    return row
