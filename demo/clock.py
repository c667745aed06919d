"""Demo data for the hall clocks: the demo's open round has its clock running, so a fresh
``make run`` shows a live countdown on the hall display.

``seed_clock(event)`` is meant to be called by ``demo.event.seed_demo()`` after the competition,
referees, hands and rulings are seeded.
"""
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from tournament import roles
from tournament.clocks import records
from tournament.clocks import services as clock_services
from tournament.models import ClockEvent, Round


def open_round(event):
    """The event's first round (stage order, number) with a table still playing: both entries known
    and not over. In the demo this is the knock-out round after the quarter-finals. None if none."""
    live = records.live_matches
    for rnd in Round.objects.filter(stage__event=event).select_related("stage__event__profile").order_by(
            "stage__order", "number"):
        if live(rnd.pk).exists():
            return rnd
    return None


def _chief():
    """The demo's chief referee (``chief``), or any chief referee."""
    chiefs = get_user_model().objects.filter(Q(event_roles__role=roles.CHIEF_REFEREE) | Q(
        groups__name=roles.CHIEF_REFEREE)).distinct().order_by("username")  # per event, or site-wide in tests
    return chiefs.filter(username="chief").first() or chiefs.first()


@transaction.atomic
def seed_clock(event):
    """Start the hall clock of the event's open round as the chief referee; returns the round whose
    clock was started, or None when nothing was done.

    Idempotent: a round whose clock has started already (or a demo without an open round, a chief
    referee or a clock rule) is left as it is.
    """
    rnd, chief = open_round(event), _chief()
    if rnd is None or chief is None or ClockEvent.objects.filter(round=rnd).exists():
        return None
    try:
        records.clock_rule(rnd)
    except ValueError:          # a profile without a time limit: nothing to count down
        return None
    clock_services.start_clock(rnd, chief)
    return rnd
