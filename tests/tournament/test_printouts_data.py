"""Fixtures for the printout tests: the demo event with groups played, a bracket and recorded hands.

Built through the real services (stages, scoring) so the printouts see what an event really holds.
Other printout test modules import the fixtures from here.
"""
import datetime as dt
from pathlib import Path

import pytest
from django.contrib.auth.models import Group as AuthGroup

from tournament import roles
from tournament.models import Match, Pair, Round, Stage

ROUND_START = dt.datetime(2026, 12, 5, 1, 0, tzinfo=dt.timezone.utc)  # 09:00 in Shanghai


def build_event_content(event, chief):
    """Groups A–D played in round 1 (hands recorded at table 1), and an 8-entry bracket with one result."""
    from scoring.services import record_hand
    from tournament.competition.stages import build_bracket_matches, build_round_robin, create_stage

    pairs = list(Pair.objects.filter(event=event).order_by("pk").values_list("pk", flat=True))
    groups_stage = create_stage(event, Stage.Kind.ROUND_ROBIN, name="小组赛")
    build_round_robin(groups_stage, [pairs[i::4] for i in range(4)])
    Round.objects.filter(stage=groups_stage).update(scheduled_start=ROUND_START)
    knockout = create_stage(event, Stage.Kind.ELIMINATION, name="淘汰赛", source=groups_stage)
    first_round = [(pairs[0], pairs[7]), (pairs[3], pairs[4]), (pairs[2], pairs[5]), (pairs[1], pairs[6])]
    build_bracket_matches(knockout, first_round, 4)
    for key, (a, b) in zip(("R1-M1", "R1-M2", "R1-M3", "R1-M4"), first_round):
        Match.objects.filter(round__stage=knockout, bracket_key=key).update(ns_id=a, ew_id=b, status="scheduled")
    first, *others = Match.objects.filter(round__stage=groups_stage, round__number=1).order_by("table")
    for match in others[:2]:  # two results typed in as the clock would close them, without signals
        Match.objects.filter(pk=match.pk).update(status="finished", winner_id=match.ns_id, ns_level="A",
                                                 ew_level="9")
    for number, points in enumerate((30, 85, 20), start=1):
        record_hand(first, chief, number=number, trump="S", defender_points=points,
                    declarer="N" if number == 1 else None)
    from rulings.services import record_ruling

    record_ruling(others[2], chief, "late", "NS", minutes=3, hand_number=1, note="迟到3分钟")
    return groups_stage, knockout


@pytest.fixture
def chief(make_user):
    return make_user(roles.CHIEF_REFEREE)


@pytest.fixture
def event(db, chief):
    """The demo event with content for every printout that has a data source."""
    from demo.event import ensure_accounts, ensure_event

    ensure_accounts()
    demo = ensure_event()  # the demo's entries, without its competition
    build_event_content(demo, chief)
    return demo


@pytest.fixture
def finished_event(db):
    """The demo competition played to the end through the real services: groups, knock-out, placements.

    Hands go through ``scoring.services.record_hand`` (``play_to_win``), and the bracket moves on by
    ``tournament.competition.knockout`` as each match finishes, so the final ranking is the real one.
    """
    import random

    from demo.competition import chief_recorder, play_to_win, seed_competition
    from demo.event import ensure_accounts, ensure_event

    ensure_accounts()
    demo = ensure_event()
    seed_competition(demo)
    user, rng = chief_recorder(), random.Random("printout-awards")
    knockout = Match.objects.filter(round__stage__event=demo, round__stage__kind=Stage.Kind.ELIMINATION)
    for _attempt in range(8):  # one pass per knock-out round
        waiting = [m for m in knockout.order_by("round__number", "table") if not m.is_over and m.ns_id and m.ew_id]
        if not waiting:
            break
        for match in waiting:
            play_to_win(match, user, "NS" if match.ns_id < match.ew_id else "EW", rng)
    return demo


@pytest.fixture
def first_round(event):
    return Round.objects.get(stage__event=event, stage__order=1, number=1)


@pytest.fixture
def played_match(first_round):
    return first_round.matches.filter(hands__isnull=False).distinct().get()


def test_fixture_builds_groups_bracket_and_hands(event, played_match):
    assert AuthGroup.objects.filter(name=roles.ORGANISER).exists()
    assert Match.objects.filter(round__stage__event=event, group__isnull=False).count() >= 8
    assert Match.objects.filter(round__stage__event=event).exclude(bracket_key="").count() >= 7
    assert played_match.hands.count() == 3
    assert Match.objects.filter(round__stage__event=event, rulings__isnull=False).exists()


# --- plain data for large printouts (tests and bench/bench_printouts.py) --------------------------

def synthetic_bracket(entries):
    """A knock-out of ``entries`` (a power of two) as plain bracket data, first round played."""
    from tournament.printouts import bracket as b
    from tournament.printouts.layout import Heading

    heading = Heading(event="2026年深圳市社区居民扑克牌升级大赛", stage="淘汰赛", date="2026-12-05")
    matches, rounds, size = [], 0, entries // 2
    while size >= 1:
        rounds += 1
        for i in range(size):
            if rounds == 1:
                a = b.Side(name=f"[{2 * i + 1}] 参赛队{2 * i + 1}", unit=f"单位{i % 9}", level="A", won=True)
                side_b = b.Side(name=f"参赛队{2 * i + 2}", unit=f"单位{(i + 4) % 9}", level="9")
            else:
                a = b.Side(name=f"R{rounds - 1}-M{2 * i + 1} 胜者", known=False)
                side_b = b.Side(name=f"R{rounds - 1}-M{2 * i + 2} 胜者", known=False)
            matches.append(b.BracketMatch(key=f"R{rounds}-M{i + 1}", round_no=rounds, index=i, a=a, b=side_b,
                                          note=f"R{rounds}-M{i + 1}"))
        size //= 2
    section = b.Section(prefix="", title="主对阵", first_round_matches=entries // 2, rounds=rounds,
                        matches=tuple(matches))
    stage = b.BracketStage(heading=heading, title="淘汰赛", draw_seed="5eed", sections=(section,))
    return b.BracketData(heading=heading, stages=(stage,))


def synthetic_scoresheets(count):
    """``count`` score sheets as plain data, each with a few recorded hands."""
    from tournament.printouts import scoresheets as s
    from tournament.printouts.layout import Heading

    heading = Heading(event="2026年深圳市社区居民扑克牌升级大赛", stage="小组赛", round="第1轮", date="2026-12-05")
    hands = tuple(s.HandRow(number=n, declarer="北", trump="黑桃", level="2", defender_points="30", bottom="",
                            ns_after="3", ew_after="2") for n in range(1, 6))
    sheets = tuple(
        s.ScoreSheet(match_id=i, heading=heading, table=str(i), position="A", start="2026-12-05 09:00",
                     ns=s.SheetSide("南北", f"参赛队{2 * i}", "莲花社区", (("北", "王伟"), ("南", "李芳"))),
                     ew=s.SheetSide("东西", f"参赛队{2 * i + 1}", "福田社区", (("东", "张强"), ("西", "刘敏"))),
                     hands=hands, console_url=s.console_url(i))
        for i in range(1, count + 1))
    return s.ScoreSheetsData(heading=heading, sheets=sheets)
