"""Demo rulings for a newcomer: a warning, a point penalty and a voided ruling on played matches.

Idempotent: each demo ruling carries a fixed idempotency key, so running it again adds nothing.
"""
from django.contrib.auth import get_user_model
from django.db import transaction

from rulings import services
from rulings.models import RulingVoid
from tournament.models import Match

DEMO_RULINGS = [  # (key suffix, code, side, inputs, void it?)
    ("warning", "delay", "NS", {}, False),
    ("points", "failed_throw", "EW", {"cards": 2, "role": "defenders"}, False),
    ("voided", "out_of_turn", "NS", {}, True),
]


def _played_matches(event):
    matches = Match.objects.filter(round__stage__event=event, ns__isnull=False, ew__isnull=False)
    played = matches.filter(hands__isnull=False).distinct().order_by("round__number", "table")
    return list(played[:2]) or list(matches.order_by("round__number", "table")[:1])


@transaction.atomic
def seed_rulings(event):
    """Add the demo rulings to the event's first played matches; returns the rulings created or found."""
    User = get_user_model()
    chief = User.objects.filter(username="chief").first() or User.objects.filter(is_superuser=True).first()
    if chief is None:
        return []
    seeded = []
    for match in _played_matches(event):
        referee = match.referees.first() or chief
        for suffix, code, side, inputs, void in DEMO_RULINGS:
            ruling = services.record_ruling(match, referee, code, side, note="演示数据",
                                            idempotency_key=f"demo-{match.pk}-{suffix}", **inputs)
            if void and not RulingVoid.objects.filter(ruling=ruling).exists():
                services.void_ruling(ruling, referee, "演示：记错桌号")
            seeded.append(ruling)
    return seeded
