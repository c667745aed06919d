"""Shared builders for the floor referees' tests (no tests here): a round of many tables built in bulk, and
referees of the event with their units."""
from django.contrib.auth import get_user_model

from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.models import EventRole, Match, Pair, Player, RefereeUnit, Round, Stage


def floor_event(tables: int, *, units: int = 8, rounds: int = 1):
    """An event whose one stage has ``rounds`` rounds of ``tables`` tables each (the same pairs every round);
    table t's pairs are of units ``2(t-1) % units`` and ``(2t-1) % units``. Returns (event, stage, rounds)."""
    event = make_event(0, units)
    unit_list = list(event.units.order_by("pk"))
    players = Player.objects.bulk_create([
        Player(event=event, unit=unit_list[(i // 2) % units], name=f"选手{i}", gender="M" if i % 2 else "F")
        for i in range(tables * 4)])
    pairs = Pair.objects.bulk_create([
        Pair(event=event, unit=unit_list[i % units], player1=players[2 * i], player2=players[2 * i + 1],
             name=f"第{i + 1}对") for i in range(tables * 2)])
    stage = Stage.objects.create(event=event, order=1, kind=Stage.Kind.ROUND_ROBIN, name="小组赛")
    made = [Round.objects.create(stage=stage, number=n + 1) for n in range(rounds)]
    Match.objects.bulk_create([Match(round=rnd, table=t + 1, ns=pairs[2 * t], ew=pairs[2 * t + 1],
                                     profile=event.profile) for rnd in made for t in range(tables)])
    return event, stage, made


def floor_referees(event, count: int, *, prefix: str = "floor"):
    """``count`` table referees of ``event``; referee i belongs to the event's unit ``i % units``."""
    users = get_user_model().objects.bulk_create([
        get_user_model()(username=f"{prefix}{i}", first_name=f"{i}号", last_name="裁判") for i in range(count)])
    users = list(get_user_model().objects.filter(username__startswith=prefix).order_by("pk"))
    EventRole.objects.bulk_create([EventRole(event=event, user=u, role=roles.TABLE_REFEREE) for u in users])
    unit_list = list(event.units.order_by("pk"))
    RefereeUnit.objects.bulk_create([RefereeUnit(event=event, user=u, unit=unit_list[i % len(unit_list)])
                                     for i, u in enumerate(users)])
    return users
