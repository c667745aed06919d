"""Two more demo events: a community event run as 5 Swiss rounds into a top-8 knock-out (slug
``demo-swiss``), and a union sports meet whose units are ranked (团体总分, slug ``demo-union``).

Called by :func:`demo.event.seed_demo`; idempotent (events, stages, rounds, draws and results already
there are kept). Results go through the scoring service (hands recorded by the chief referee, as in
:mod:`demo.competition`), so levels, winners, Swiss standings and the bracket follow as at a real table.
"""
from __future__ import annotations

import datetime as dt
import random

from demo.accounts import ensure_event_roles
from demo.competition import chief_recorder, play_matches
from scoring.profile_store import latest_profile
from tournament.competition import draws, stages, swiss_rounds
from tournament.models import Draw, Event, Match, Pair, Player, Stage, Unit

SWISS_SLUG = "demo-swiss"
UNION_SLUG = "demo-union"
SWISS_ROUNDS = 5
SWISS_UNITS = ["园岭街道", "华富街道", "香蜜湖街道", "莲花街道", "沙头街道", "梅林街道"]
UNION_UNITS = ["市总工会", "供电局", "自来水公司", "地铁集团"]
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
GIVEN_M = ["伟", "强", "磊", "军", "洋", "勇", "杰", "涛", "明", "超"]
GIVEN_F = ["芳", "娜", "敏", "静", "丽", "艳", "娟", "霞", "玲", "婷"]


def _names(offset: int, given):
    index = offset
    while True:
        yield SURNAMES[index % len(SURNAMES)] + given[(index // len(SURNAMES)) % len(given)]
        index += 7


def _event(slug: str, name: str, profile: str, fmt: str, venue: str) -> Event:
    day = dt.date(2026, 12, 6)
    event, _created = Event.objects.get_or_create(slug=slug, defaults={
        "name": name, "start_date": day, "end_date": day, "venue": venue, "profile": latest_profile(profile),
        "format": fmt, "published": True})
    ensure_event_roles(event)  # the demo accounts hold their roles in this event too
    return event


def _pairs(event: Event, units: list[str], per_unit: int, *, women_pair: bool, reserve: bool) -> None:
    if event.pairs.exists():
        return
    men, women = _names(len(event.slug), GIVEN_M), _names(len(event.slug) + 3, GIVEN_F)
    for unit_name in units:
        unit = Unit.objects.create(event=event, name=unit_name)
        for i in range(per_unit + (1 if reserve else 0)):
            both_women = women_pair and i == 0
            p1 = Player.objects.create(event=event, unit=unit, name=next(women if both_women else men),
                                       gender="F" if both_women else "M")
            p2 = Player.objects.create(event=event, unit=unit, name=next(women), gender="F")
            is_reserve = reserve and i == per_unit
            label = "替补" if is_reserve else ("女队" if both_women else f"{i + 1}队")
            Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=f"{unit_name}{label}",
                                reserve=is_reserve)


def seed_swiss_event() -> Event:
    """A 24-pair community event: 5 Swiss rounds played, then the top 8 in a knock-out (quarter-finals played)."""
    event = _event(SWISS_SLUG, "2026年福田区社区升级公开赛（瑞士制演示）", "shenzhen-community",
                   Event.Format.ELIMINATION, "福田区文化馆")
    _pairs(event, SWISS_UNITS, 4, women_pair=False, reserve=False)
    user = chief_recorder()
    rng = random.Random("demo-swiss-results")
    swiss = event.stages.filter(kind=Stage.Kind.SWISS).first() or swiss_rounds.create_swiss_stage(
        event, rounds=SWISS_ROUNDS)
    knockout = event.stages.filter(kind=Stage.Kind.ELIMINATION).first() or stages.create_stage(
        event, Stage.Kind.ELIMINATION, name="八强淘汰赛", source=swiss,
        settings={"qualifiers_per_group": 8, "places_played": 4})
    if user is None:
        return event
    for number in range(1, SWISS_ROUNDS + 1):
        if not swiss.rounds.filter(number=number).exists():
            swiss_rounds.pair_next_round(swiss, seed=f"demo-swiss-R{number}", user=user)
        play_matches(Match.objects.filter(round__stage=swiss, round__number=number).order_by("table"), user, rng)
    if draws.active_draw(knockout, Draw.Kind.BRACKET) is None:
        draws.draw_bracket(knockout, seed="demo-swiss-bracket", user=user)
    play_matches(Match.objects.filter(round__stage=knockout, round__number=1).order_by("table"), user, rng)
    return event


def seed_union_event() -> Event:
    """A union meet: 4 units of 3 pairs (one women's pair) and a reserve, a knock-out placing all 8
    quarter-finalists, played to the end: the unit standings are final."""
    event = _event(UNION_SLUG, "2026年市直机关职工运动会拖拉机比赛（团体演示）", "union-games",
                   Event.Format.ELIMINATION, "市职工文体中心")
    _pairs(event, UNION_UNITS, 3, women_pair=True, reserve=True)
    if not (event.profile.data or {}).get("unit_standings") and not event.unit_scoring:
        event.unit_scoring = {"points": [9, 7, 6, 5, 4, 3, 2, 1]}  # a profile stored before the section existed
        event.save(update_fields=["unit_scoring"])
    user = chief_recorder()
    knockout = event.stages.first() or stages.create_stage(event, Stage.Kind.ELIMINATION,
                                                           settings={"places_played": 8})
    if user is None:
        return event
    if draws.active_draw(knockout, Draw.Kind.BRACKET) is None:
        draws.draw_bracket(knockout, seed="demo-union-bracket", user=user)
    rng = random.Random("demo-union-results")
    while play_matches(Match.objects.filter(round__stage=knockout, status=Match.Status.SCHEDULED)
                .order_by("round__number", "table"), user, rng):
        pass
    return event
