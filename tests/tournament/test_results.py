"""The one owner of a match's result (tournament.competition.results): every source settles through it, and
a result changed after the fact re-derives the bracket, or is refused while the next match is under way."""
import pytest

from common.errors import ConflictError
from infra import clock
from rulings import services as rulings
from rulings.engine import phrases
from scoring.services import correct_last_hand, record_hand
from tests.tournament.test_draws_support import finish, make_event
from tournament import roles
from tournament.clocks import services as clock_services
from tournament.competition import draws, results, stages
from tournament.models import Event, HandAllowance, Match, Stage
from tournament.records.hands import current_hands


def row(stage, key):
    return Match.objects.select_related("ns", "ew", "round").get(round__stage=stage, bracket_key=key)


@pytest.fixture
def knockout(db):
    """Four pairs, single elimination (two semi-finals, a final and the match for third place)."""
    event = make_event(4, 4, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    draws.draw_bracket(stage, seed="results")
    return stage


def one_hand_left(match):
    """The clock's record that the table's time is up after hand 1 (as tournament.clocks fixes it)."""
    HandAllowance.objects.create(match=match, reason=HandAllowance.Reason.TIME_UP, hand_in_play=1, last_hand=1,
                                 fired_at=clock.now())


def hand(match, user, points, correct=False):
    write = correct_last_hand if correct else record_hand
    return write(match, user, number=1, trump="S", defender_points=points, declarer="N")


def test_a_correction_that_flips_the_winner_moves_the_next_match_entrant(knockout, make_user):
    """Recorded hand 1 ends the semi-final at time-up (NS ahead); its correction gives EW the stage and
    the lead: the final and the match for third place swap the two semi-finalists."""
    chief = make_user(roles.CHIEF_REFEREE)
    semi = row(knockout, "R1-M1")
    one_hand_left(semi)
    hand(semi, chief, 0)                      # declarers NS sweep: NS ahead when time is up
    semi = row(knockout, "R1-M1")
    assert semi.status == Match.Status.FINISHED and semi.winner_id == semi.ns_id
    final, third = row(knockout, "R2-M1"), row(knockout, "P3-R1-M1")
    assert semi.ns_id in (final.ns_id, final.ew_id) and semi.ew_id in (third.ns_id, third.ew_id)

    hand(semi, chief, 160, correct=True)      # corrected: the defenders EW take the stage and go up
    semi = row(knockout, "R1-M1")
    assert semi.status == Match.Status.FINISHED and semi.winner_id == semi.ew_id
    final, third = row(knockout, "R2-M1"), row(knockout, "P3-R1-M1")
    assert semi.ew_id in (final.ns_id, final.ew_id) and semi.ns_id not in (final.ns_id, final.ew_id)
    assert semi.ns_id in (third.ns_id, third.ew_id) and semi.ew_id not in (third.ns_id, third.ew_id)


def test_a_correction_is_refused_once_the_next_match_has_begun(knockout, make_user):
    chief = make_user(roles.CHIEF_REFEREE)
    semi = row(knockout, "R1-M1")
    one_hand_left(semi)
    hand(semi, chief, 0)
    finish(row(knockout, "R1-M2"))
    final = row(knockout, "R2-M1")
    record_hand(final, chief, number=1, trump="H", defender_points=40, declarer="E")   # the final is under way

    with pytest.raises(ConflictError, match="决赛 第2轮第1场（第1桌）已经开始") as refused:
        hand(semi, chief, 160, correct=True)
    assert refused.value.status == 409 and refused.value.field == "winner"
    assert f"（第{final.table}桌）已经开始" in str(refused.value)
    semi = row(knockout, "R1-M1")
    assert semi.winner_id == semi.ns_id                                   # nothing half-saved
    assert [(h.number, h.version, h.defender_points) for h in current_hands(semi)] == [(1, 1, 0)]
    assert {row(knockout, "R2-M1").ns_id, row(knockout, "R2-M1").ew_id} >= {semi.ns_id}


def test_the_former_writers_all_settle_through_the_one_service(knockout, make_user, monkeypatch, frozen_now):
    """Hands, rulings and the clock each hand the match to results.settle; none writes the result itself."""
    calls = []
    real = results.settle

    def spy(match, **kwargs):
        calls.append(match.pk)
        return real(match, **kwargs)

    monkeypatch.setattr(results, "settle", spy)
    chief = make_user(roles.CHIEF_REFEREE)
    semi, other = row(knockout, "R1-M1"), row(knockout, "R1-M2")

    record_hand(semi, chief, number=1, trump="S", defender_points=40, declarer="N")
    assert calls == [semi.pk]

    rulings.record_ruling(semi, chief, "cheating", "EW")   # 000 第十六条（四）: 判负, decided by the chief
    assert calls == [semi.pk, semi.pk]
    semi = row(knockout, "R1-M1")
    assert semi.status == Match.Status.FORFEIT and semi.winner_id == semi.ns_id

    clock_services.set_clock_settings(other.round, chief, announce_enabled=False)   # time-up ends the tables
    clock_services.start_clock(other.round, chief)
    frozen_now.advance(minutes=24 * 60)
    calls.clear()
    clock_services.fire_due(other.round_id)
    assert other.pk in calls
    other = row(knockout, "R1-M2")
    assert other.status == Match.Status.FINISHED and other.result_note


def test_decide_orders_forfeit_then_top_then_the_last_allowed_hand(db):
    """The verdict: a forfeit first, then a side past the top, then the last allowed hand's level rule."""

    class State:
        def __init__(self, winner=None, count=0, at_time=None):
            self.winner, self.hand_count, self._at_time = winner, count, at_time

        def winner_at_time(self):
            return self._at_time

    time_up = HandAllowance(reason=HandAllowance.Reason.TIME_UP, last_hand=3, hand_in_play=4)
    announced = HandAllowance(reason=HandAllowance.Reason.ANNOUNCE, last_hand=3, hand_in_play=1)
    assert results.decide(State("NS", 5), (None, "迟到超过规定时间，判负"), time_up) == results.Verdict(
        True, None, results.FORFEIT, "迟到超过规定时间，判负")
    assert results.decide(State("EW", 2), None, time_up) == results.Verdict(True, "EW", results.TOP)
    assert results.decide(State(None, 3, "NS"), None, time_up)[:3] == (True, "NS", results.TIME)
    assert results.decide(State(None, 3, None), None, announced)[:3] == (True, None, results.HANDS)
    assert results.decide(State(None, 2, "NS"), None, time_up) == results.Verdict(False)
    assert results.decide(State(None, 9, "NS"), None, None) == results.Verdict(False)
