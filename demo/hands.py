"""Demo data for scoring: a few realistic hands at some of the demo event's tables.

``seed_hands(event)`` is meant to be called by ``demo.event.seed_demo()`` after the matches
exist; ``scratch_match()`` builds a stand-alone practice table (for tests, the bench, trying the page).
"""
import datetime as dt
import itertools

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from scoring.profile_store import latest_profile
from scoring.services import record_hand
from tournament.models import Event, Match, Pair, Player, Round, Stage, Unit

# A plausible opening of a match: (trump, defender points, bottom points, last trick).
DEMO_HANDS = [
    ("H", 45, 10, {"by": "declarers", "shape": "single"}),
    ("S", 85, 5, {"by": "declarers", "shape": "pair"}),
    ("D", 60, 15, {"by": "defenders", "shape": "pair", "trump": True}),
    ("C", 30, 0, {"by": "declarers", "shape": "single"}),
    ("NT", 100, 10, {"by": "defenders", "shape": "single", "trump": True}),
    ("H", 70, 20, {"by": "declarers", "shape": "tractor", "pairs": 2}),
]
FIRST_DECLARERS = ["N", "E", "S", "W"]


def _recorder():
    """The user the demo records hands as: a chief referee (the demo's ``chief`` if present)."""
    User = get_user_model()
    chiefs = User.objects.filter(Q(event_roles__role="chief_referee") | Q(groups__name="chief_referee")).distinct(
    ).order_by("username")  # per event, or site-wide in tests
    return chiefs.filter(username="chief").first() or chiefs.first() or User.objects.filter(is_superuser=True).first()


@transaction.atomic
def seed_hands(event, *, tables=4, user=None):
    """Record a few hands at the first ``tables`` open matches of ``event`` whose two entries are known.

    Idempotent: a match that already has hands (or is over) is left alone, so a second run records
    nothing. Returns the number of hands recorded. Goes through
    :func:`scoring.services.record_hand`, so levels and the match status are derived.
    """
    user = user or _recorder()
    if user is None:
        return 0
    over = [Match.Status.FINISHED, Match.Status.WALKOVER, Match.Status.FORFEIT, Match.Status.BYE]
    matches = (Match.objects.filter(round__stage__event=event, ns__isnull=False, ew__isnull=False)
               .exclude(status__in=over).order_by("round__stage__order", "round__number", "table", "pk")[:tables])
    recorded = 0
    for index, match in enumerate(matches):
        if match.is_over or match.hands.exists():
            continue
        count = 2 + index % (len(DEMO_HANDS) - 1)
        for number, (trump, points, bottom, last) in enumerate(itertools.islice(DEMO_HANDS, count), start=1):
            record_hand(match, user, number=number, trump=trump, defender_points=points, bottom_points=bottom,
                        last_trick=last, declarer=FIRST_DECLARERS[index % 4] if number == 1 else None)
            recorded += 1
    return recorded


@transaction.atomic
def scratch_match(profile_slug="shenzhen-community", *, referees=(), published=True, name="练习赛"):
    """A stand-alone match (own event, stage, round and two pairs) under the latest version of a profile."""
    serial = Event.objects.filter(slug__startswith="scratch-").count() + 1
    while Event.objects.filter(slug=f"scratch-{serial}").exists():
        serial += 1
    day = dt.date(2026, 12, 5)
    profile = latest_profile(profile_slug)
    event = Event.objects.create(slug=f"scratch-{serial}", name=f"{name} {serial}", start_date=day, end_date=day,
                                 profile=profile, published=published)
    unit = Unit.objects.create(event=event, name="练习单位")
    players = [Player.objects.create(event=event, unit=unit, name=n, gender="M") for n in ("甲", "乙", "丙", "丁")]
    ns = Pair.objects.create(event=event, unit=unit, name="南北队", player1=players[0], player2=players[1])
    ew = Pair.objects.create(event=event, unit=unit, name="东西队", player1=players[2], player2=players[3])
    stage = Stage.objects.create(event=event, order=1, kind=Stage.Kind.ROUND_ROBIN, name="练习")
    round_ = Round.objects.create(stage=stage, number=1)
    match = Match.objects.create(round=round_, table=1, ns=ns, ew=ew, profile=profile)
    match.referees.set(referees)
    return match
