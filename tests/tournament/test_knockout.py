"""Results move the bracket on: winners and losers, walkovers for withdrawals, idempotence, referees."""
import pytest
from django.db import transaction

from tests.tournament.test_draws_support import finish, make_event, play_stage
from tournament import roles
from tournament.competition import draws, referees, results, stages
from tournament.competition.placings import final_ranking
from tournament.entries.pairs import withdraw_pair
from tournament.models import Event, Match, Stage


@pytest.fixture
def bracket8(db):
    event = make_event(8, 8, seeds=8, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)  # shenzhen: all eight placed
    draws.draw_bracket(stage, seed="b")
    return event, stage


def row(stage, key):
    return Match.objects.get(round__stage=stage, bracket_key=key)


def test_winner_and_loser_move_into_their_next_matches(bracket8):
    _, stage = bracket8
    qf1 = finish(row(stage, "R1-M1"), winner="ew")
    qf2 = finish(row(stage, "R1-M2"), winner="ns")
    semi, p5 = row(stage, "R2-M1"), row(stage, "P5-R1-M1")
    assert (semi.ns_id, semi.ew_id) == (qf1.ew_id, qf2.ns_id) and semi.status == Match.Status.SCHEDULED
    assert (p5.ns_id, p5.ew_id) == (qf1.ns_id, qf2.ew_id)
    assert (semi.ns_source, semi.ew_source) == ("W:R1-M1", "W:R1-M2")


def test_moving_on_is_idempotent(bracket8):
    _, stage = bracket8
    qf = finish(row(stage, "R1-M1"))
    before = list(Match.objects.values_list("pk", "ns", "ew", "status", "winner").order_by("pk"))
    results.move_on(qf)
    results.move_on(qf)
    assert list(Match.objects.values_list("pk", "ns", "ew", "status", "winner").order_by("pk")) == before


def test_every_quarter_finalist_gets_a_place(bracket8):
    event, stage = bracket8
    play_stage(stage)
    places, complete = final_ranking(event)
    assert complete and [p.place for p in places] == list(range(1, 9))
    seed = {p.pk: p.seed for p in event.pairs.all()}
    assert [seed[p.entry.pair_id] for p in places] == list(range(1, 9))  # lower id = better seed always won


def test_withdrawn_entry_gives_a_walkover_in_its_next_match(bracket8):
    event, stage = bracket8
    qf1 = finish(row(stage, "R1-M1"))
    qf2 = row(stage, "R1-M2")
    loser = qf2.ew
    withdraw_pair(loser)  # the result service gives the walkover
    qf2.refresh_from_db()
    assert qf2.status == Match.Status.WALKOVER and qf2.winner_id == qf2.ns_id
    semi = row(stage, "R2-M1")
    assert (semi.ns_id, semi.ew_id) == (qf1.winner_id, qf2.ns_id) and semi.status == Match.Status.SCHEDULED
    p5 = row(stage, "P5-R1-M1")
    assert p5.status == Match.Status.WALKOVER and p5.winner_id == qf1.ew_id  # the withdrawn pair's next match


def test_withdrawal_in_a_group_gives_walkovers_for_the_rest(db):
    event = make_event(4, 4)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed=1)
    played = finish(Match.objects.filter(round__stage=stage, status="scheduled").first())
    gone = played.ns
    withdraw_pair(gone)
    mine = Match.objects.filter(round__stage=stage, ns=gone) | Match.objects.filter(round__stage=stage, ew=gone)
    assert set(mine.values_list("status", flat=True)) == {"finished", "walkover"}
    assert all(m.winner_id != gone.pk for m in mine.filter(status="walkover"))
    assert results.entry_withdrawn(gone) == 0  # idempotent


def test_a_bye_in_a_later_round_resolves_when_both_feeders_are_empty(db):
    event = make_event(3, 3, seeds=3, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"places_played": 4})
    draws.draw_bracket(stage, seed=1)
    p3 = row(stage, "P3-R1-M1")  # loser of seed 1's bye is nobody
    assert p3.status == Match.Status.PENDING and p3.table is not None   # its table kept for it until then
    play_stage(stage)
    p3.refresh_from_db()
    assert p3.status == Match.Status.BYE and p3.winner_id is not None
    assert p3.table is None and not p3.hands.exists()   # a bye is no table (the simulator's seeds 304, 307)


def test_recording_hands_through_scoring_moves_the_bracket(db, make_user):
    import random

    from demo.competition import play_to_win
    from scoring.services import record_hand

    event = make_event(4, 4, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    draws.draw_bracket(stage, seed=2)
    chief = make_user(roles.CHIEF_REFEREE)
    semi = row(stage, "R1-M1")
    play_to_win(semi, chief, "NS", random.Random(0))
    semi.refresh_from_db()
    assert semi.status == Match.Status.FINISHED and record_hand
    final = row(stage, "R2-M1")
    assert semi.winner_id in (final.ns_id, final.ew_id)


def test_a_referee_of_a_unit_that_arrives_is_taken_off_the_table(bracket8, make_user):
    event, stage = bracket8
    qf1 = row(stage, "R1-M1")
    ref = make_user(roles.TABLE_REFEREE)
    referees.set_referee_unit(event, ref, qf1.ns.unit)
    semi = row(stage, "R2-M1")
    referees.assign_referee(semi, ref)  # allowed while the semi-final's entries are unknown
    finish(qf1, winner="ns")
    assert not row(stage, "R2-M1").referees.exists()


def test_referee_never_assigned_to_a_table_of_their_unit(bracket8, make_user):
    event, stage = bracket8
    qf1 = row(stage, "R1-M1")
    ref = make_user(roles.TABLE_REFEREE)
    referees.set_referee_unit(event, ref, qf1.ew.unit)
    with pytest.raises(stages.CompetitionError, match="同单位"):
        referees.assign_referee(qf1, ref)
    with pytest.raises(stages.CompetitionError), transaction.atomic():
        qf1.referees.add(ref)  # also through the relation directly
    with pytest.raises(stages.CompetitionError), transaction.atomic():
        ref.assigned_matches.add(qf1)
    assert not qf1.referees.exists()
    referees.assign_referee(row(stage, "R1-M2"), ref)
    with pytest.raises(stages.CompetitionError, match="请先撤下"):
        referees.set_referee_unit(event, ref, row(stage, "R1-M2").ns.unit)


def test_a_match_that_was_a_bye_and_is_played_after_all_gets_a_free_table(bracket8):
    """A match left a bye (no table) whose entrants are known after all (a result or a removal changed) is
    played at the round's next free table, never another match's."""
    _, stage = bracket8
    qf1 = row(stage, "R1-M1")
    Match.objects.filter(pk=qf1.pk).update(status=Match.Status.BYE, table=None, winner=None)   # as it was left
    results.advance_bracket(stage)
    qf1.refresh_from_db()
    tables = list(Match.objects.filter(round=qf1.round).exclude(pk=qf1.pk).values_list("table", flat=True))
    assert qf1.status == Match.Status.SCHEDULED and qf1.table is not None and qf1.table not in tables
