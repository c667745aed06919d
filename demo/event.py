"""Demo data for a newcomer: the demo event (slug ``demo``) and one account per role.

Idempotent: running it again changes nothing that is already there.
"""
import datetime as dt
import itertools

from django.contrib.auth import get_user_model
from django.db import transaction

from demo.accounts import DEMO_ACCOUNTS, ensure_accounts, ensure_event_roles  # noqa: F401  (re-exported)
from demo.clock import seed_clock
from demo.competition import seed_competition
from demo.hands import seed_hands
from demo.rulings import seed_rulings
from demo.swiss import seed_swiss_event, seed_union_event
from scoring.profile_store import latest_profile
from tournament.competition.referees import assign_referee
from tournament.models import Event, Match, Pair, Player, Unit

DEMO_SLUG = "demo"  # the demo events' slugs: DEMO_SLUGS in demo.remove
DEMO_UNITS = ["莲花社区", "福田社区", "南山社区", "罗湖社区"]
DEMO_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾"
DEMO_GIVEN = ["伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳"]

# user name, password, role in the demo event, display name (how pages and printouts name the person)
def ensure_event():
    """The demo event: shenzhen-community rules, 16 pairs from 4 units, published."""
    today = dt.date(2026, 12, 5)
    event, _ = Event.objects.get_or_create(
        slug=DEMO_SLUG,
        defaults={
            "name": "2026年深圳市社区居民扑克牌升级大赛（演示）",
            "start_date": today,
            "end_date": today,
            "venue": "深圳市民中心",
            "organising_body": "深圳市社区居民扑克牌升级大赛组委会",
            "profile": latest_profile("shenzhen-community"),
            "format": Event.Format.GROUPS_ELIMINATION,
            "published": True,
        },
    )
    if not event.pairs.exists():
        names = iter(f"{s}{g}" for s in DEMO_SURNAMES for g in DEMO_GIVEN)
        number = 0
        for unit_name in DEMO_UNITS:
            unit = Unit.objects.create(event=event, name=unit_name)
            for i in range(4):
                number += 1
                p1 = Player.objects.create(event=event, unit=unit, name=next(names), gender="M")
                p2 = Player.objects.create(event=event, unit=unit, name=next(names), gender="F" if i == 0 else "M")
                Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2,
                                    name=f"{unit_name}{i + 1}队", seed=number if number <= 4 else None)
    ensure_event_roles(event)  # the demo accounts' roles are this event's
    return event


def assign_demo_referees(event):
    """Give each open table of the demo a table referee (referee1..4 in turn), once."""

    referees = list(get_user_model().objects.filter(username__startswith="referee", staff_account__demo=True)
                    .order_by("username"))
    open_matches = event_matches(event).filter(referees__isnull=True, ns__isnull=False, ew__isnull=False).exclude(
        status__in=[Match.Status.FINISHED, Match.Status.WALKOVER, Match.Status.FORFEIT, Match.Status.BYE])
    for referee, match in zip(itertools.cycle(referees), open_matches):
        assign_referee(match, referee)


def event_matches(event):
    return Match.objects.filter(round__stage__event=event).order_by("round__stage__order", "round__number", "table")


@transaction.atomic
def seed_demo(*, more_events=False):
    """Everything a fresh ``make run`` shows; returns (event, accounts).

    ``more_events`` (the ``seed_demo`` command sets it) adds the Swiss community event and the union
    meet with its unit standings (:mod:`demo.swiss`), which take most of the time.

    Accounts and the event with its entries first; then the competition (groups drawn and played, the
    knock-out drawn with its first round played), referees at the open tables, a few hands in play
    a few rulings, and the open round's clock running.
    """

    accounts = ensure_accounts()
    event = ensure_event()
    seed_competition(event)
    assign_demo_referees(event)
    seed_hands(event)
    seed_rulings(event)
    seed_clock(event)
    if more_events:
        seed_swiss_event()
        seed_union_event()
    return event, accounts
