"""The Swiss stage (issue 14, item 2): rounds paired from the standings, recorded as re-runnable draws,
byes as wins, no rematch while one can be avoided, refusal while a table is undecided, a knock-out of
the top N, and the stage's place in the final ranking."""
import pytest

from common.errors import ConflictError, UserError
from tests.tournament.test_draws_support import finish, make_event, play_stage
from tournament.competition import draws, placings, stages, swiss_rounds, swiss_standings
from tournament.engines import pairings
from tournament.engines import standings as pure
from tournament.models import Draw, Match, Round, Stage


def swiss(event, rounds=None):
    return swiss_rounds.create_swiss_stage(event, rounds=rounds)


def play_round(stage, number, pick=None):
    pick = pick or (lambda m: min(m.ns_id, m.ew_id))
    for m in Match.objects.filter(round__stage=stage, round__number=number, status=Match.Status.SCHEDULED):
        finish(m, winner=pick(m))


def pairs_of(stage, number):
    return [(m.ns_id, m.ew_id) for m in Match.objects.filter(round__stage=stage, round__number=number)
            .order_by("table", "pk")]


def test_suggested_rounds_from_the_field_size():
    # issue 14 item 2: "a suggested number from the field size": ceil(log2 n) + 1
    assert [swiss_standings.suggested_rounds(n) for n in (1, 2, 8, 9, 16, 200)] == [0, 2, 4, 5, 5, 9]


def test_buchholz_is_added_before_the_lot_when_the_profile_leaves_it_open():
    assert swiss_standings.swiss_order(("points", "net_levels", "lot")) == ("points", "net_levels", "buchholz", "lot")
    assert swiss_standings.swiss_order(("points", "buchholz", "lot")) == ("points", "buchholz", "lot")
    assert swiss_standings.swiss_order(("points",)) == ("points", "buchholz")


def test_buchholz_metric_sums_the_opponents_points_and_ignores_the_bye():
    results = [pure.MatchResult("a", "b", "a", "A", "5"), pure.MatchResult("c", "d", "c", "A", "5"),
               pure.MatchResult("a", "c", "c", "A", "5"), pure.MatchResult("d", pure.BYE, "d", "A", "2", True)]
    table = pure.compute_standings(["a", "b", "c", "d", pure.BYE], results, ladder=list("23456789") + ["10", "J", "Q", "K", "A"],
                                   order=("points", "buchholz", "lot"), lot_seed=1)
    values = {r.entry: r.values["buchholz"] for r in table.rows}
    assert values["a"] == 0 + 6 and values["c"] == 3 + 3 and values["d"] == 6  # d's bye counts nothing


def test_round_one_is_a_recorded_draw_that_reruns_to_the_same_pairing(db):
    event = make_event(9, 3)
    stage = swiss(event)
    draw = swiss_rounds.pair_next_round(stage, seed="瑞士-1")
    assert draw.kind == Draw.Kind.SWISS and draw.seed == "瑞士-1" and draw.params["round"] == 1
    assert swiss_rounds.replay_pairing(draw) == draw.result["pairs"]
    stage.refresh_from_db()
    assert stage.settings["rounds"] == 5  # 9 entries: ceil(log2 9) + 1, fixed at round 1
    matches = list(Match.objects.filter(round__stage=stage))
    assert len(matches) == 5 and sum(m.ew_id is None for m in matches) == 1
    bye = next(m for m in matches if m.ew_id is None)
    # issue 14 item 2: "a bye scores as a win"
    assert bye.status == Match.Status.BYE and bye.winner_id == bye.ns_id and bye.table is None
    ids = sorted(e for pair in draw.result["pairs"] for e in pair if e is not None)
    assert ids == sorted(event.pairs.values_list("pk", flat=True))


def test_next_round_refused_while_a_table_is_undecided_then_paired_from_the_standings(db):
    event = make_event(8, 4)
    stage = swiss(event, rounds=3)
    swiss_rounds.pair_next_round(stage, seed=1)
    first = Match.objects.filter(round__stage=stage, round__number=1).order_by("table")
    finish(first[0])
    with pytest.raises(ConflictError) as refused:
        swiss_rounds.pair_next_round(stage, seed=2)
    assert refused.value.field == "round" and "2, 3, 4" in str(refused.value)
    play_round(stage, 1)
    draw = swiss_rounds.pair_next_round(stage, seed=2)
    winners = set(Match.objects.filter(round__stage=stage, round__number=1).values_list("winner_id", flat=True))
    # winners meet winners: every round-2 table has two entries on the same score
    for a, b in pairs_of(stage, 2):
        assert (a in winners) == (b in winners)
    assert draw.params["scores"][str(next(iter(winners)))] == 3
    assert draw.result["rematches"] == [] and swiss_rounds.replay_pairing(draw) == draw.result["pairs"]
    played = {frozenset(p) for p in pairs_of(stage, 1)}
    assert not played & {frozenset(p) for p in pairs_of(stage, 2)}


def test_all_rounds_paired_is_refused_and_a_forced_rematch_is_reported(db):
    event = make_event(2, 2)
    stage = swiss(event, rounds=2)
    swiss_rounds.pair_next_round(stage, seed=1)
    play_round(stage, 1)
    second = swiss_rounds.pair_next_round(stage, seed=1)
    # issue 14 contract: "a forced rematch is allowed and reported by the stage to the organiser"
    assert len(second.result["rematches"]) == 1
    play_round(stage, 2)
    with pytest.raises(ConflictError):
        swiss_rounds.pair_next_round(stage)


def test_one_bye_per_entry_and_the_bye_counts_as_a_win(db):
    event = make_event(5, 5)
    stage = swiss(event, rounds=5)
    byes = []
    for number in range(1, 6):
        swiss_rounds.pair_next_round(stage, seed=number)
        byes.append(Match.objects.get(round__stage=stage, round__number=number, ew__isnull=True).ns_id)
        play_round(stage, number)
    assert len(set(byes)) == 5  # five rounds, five different entries had the bye
    table = swiss_standings.stage_standings(stage)
    assert table.complete and all(r.byes == 1 for r in table.rows)
    assert sum(r.points for r in table.rows) == 3 * (2 * 5 + 5)  # 10 tables + 5 byes, 3 points a win
    assert [r.rank for r in table.rows] == sorted(r.rank for r in table.rows)


def test_set_rounds_not_below_the_rounds_paired_and_not_for_other_stages(db):
    event = make_event(8, 4)
    stage = swiss(event, rounds=3)
    swiss_rounds.pair_next_round(stage, seed=1)
    with pytest.raises(UserError) as low:
        swiss_rounds.set_rounds(stage, 0)
    assert low.value.field == "rounds"
    assert swiss_rounds.set_rounds(stage, 4).settings["rounds"] == 4
    other = stages.create_stage(event, Stage.Kind.ROUND_ROBIN)
    with pytest.raises(UserError):
        swiss_rounds.pair_next_round(other)


def test_a_swiss_stage_feeds_a_top_n_knockout_and_the_final_ranking(db):
    event = make_event(12, 4)
    stage = swiss(event, rounds=4)
    knockout = stages.create_stage(event, Stage.Kind.ELIMINATION, source=stage,
                                   settings={"qualifiers_per_group": 4, "places_played": 4})
    swiss_rounds.pair_next_round(stage, seed="s1")
    play_round(stage, 1)
    with pytest.raises(ConflictError):  # the qualifiers are not known before the last round
        draws.draw_bracket(knockout, seed="k")
    for number in range(2, 5):
        swiss_rounds.pair_next_round(stage, seed=f"s{number}")
        play_round(stage, number)
    table = swiss_standings.stage_standings(stage)
    top4 = [r.entry.pair_id for r in table.rows[:4]]
    draw = draws.draw_bracket(knockout, seed="k")
    assert draw.params["entries"] == top4  # seeded by the Swiss ranking (1 v 4, 2 v 3, units kept apart)
    unit_of = dict(event.pairs.values_list("pk", "unit_id"))
    assert draw.result["first_round"] == [list(p) for p in pairings.elimination_slots(top4, unit_of.__getitem__)]
    places, complete = placings.final_ranking(event)
    assert not complete
    play_stage(knockout)
    places, complete = placings.final_ranking(event)
    assert complete and [p.place for p in places] == list(range(1, 13))
    assert {p.entry.pair_id for p in places[:4]} == set(top4)
    assert places[4].entry.pair_id == table.rows[4].entry.pair_id


def test_standings_after_each_round_count_only_those_rounds(db):
    event = make_event(8, 4)
    stage = swiss(event, rounds=3)
    for number in (1, 2):
        swiss_rounds.pair_next_round(stage, seed=number)
        play_round(stage, number)
    after1 = swiss_standings.stage_standings(stage, after_round=1)
    after2 = swiss_standings.stage_standings(stage)
    assert after1.after_round == 1 and max(r.played for r in after1.rows) == 1
    assert after2.after_round == 2 and max(r.played for r in after2.rows) == 2
    assert not after2.complete and Round.objects.filter(stage=stage).count() == 2
