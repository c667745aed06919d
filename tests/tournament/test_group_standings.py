"""Standings from the DB: profile points and tie-breaks, forfeits, crosstables, final ranking, awards."""
import pytest

from tests.tournament.test_draws_support import finish, make_event, play_stage
from tournament.competition import draws, group_standings, placings, stages
from tournament.models import Event, Match, Stage


def rr_event(n=4, profile="company-league", **kw):
    event = make_event(n, n, profile=profile, fmt=Event.Format.ROUND_ROBIN, **kw)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="rr")
    return event, stage


def results_by_pair(stage, outcome):
    """Finish every match: ``outcome(ns_name, ew_name)`` -> (winner side, winner level, loser level)."""
    for m in Match.objects.filter(round__stage=stage, status="scheduled").select_related("ns", "ew"):
        side, win, lose = outcome(m.ns.name, m.ew.name)
        finish(m, winner=side, win_level=win, lose_level=lose)


def test_points_then_net_levels_and_the_note_says_which_decided(db):
    event, stage = rr_event(3)
    # 01 beats 02 (A:2), 02 beats 03 (A:10), 03 beats 01 (A:K): each 3 points, net levels differ.
    wins = {frozenset(("第01对", "第02对")): ("第01对", "2"), frozenset(("第02对", "第03对")): ("第02对", "10"),
            frozenset(("第03对", "第01对")): ("第03对", "K")}

    def outcome(a, b):
        winner, lose = wins[frozenset((a, b))]
        return ("ns" if winner == a else "ew"), "A", lose
    results_by_pair(stage, outcome)
    table = group_standings.stage_standings(stage).groups[0]
    assert [r.entry.name for r in table.rows] == ["第01对", "第03对", "第02对"]
    assert {r.points for r in table.rows} == {3}
    assert [r.net_levels for r in table.rows] == [(14 - 2) + (13 - 14), (14 - 13) + (10 - 14), (2 - 14) + (14 - 10)]
    assert all(r.tie_note == "积分相同，由净胜级数决定" for r in table.rows)
    assert table.order_labels == ("积分", "净胜级数", "总级数", "抽签") and table.complete


def test_a_tie_to_the_end_is_drawn_by_lot_with_the_recorded_seed(db):
    event, stage = rr_event(3)
    order = {"第01对": "第02对", "第02对": "第03对", "第03对": "第01对"}
    results_by_pair(stage, lambda a, b: ("ns" if order[a] == b else "ew", "A", "5"))
    table = group_standings.stage_standings(stage).groups[0]
    assert all(r.decided_by == "lot" for r in table.rows[:2])
    assert "rr:A" in table.rows[0].tie_note and any("抽签" in n for n in table.notes)
    again = group_standings.stage_standings(stage).groups[0]
    assert [r.entry.pair_id for r in again.rows] == [r.entry.pair_id for r in table.rows]


def test_shared_place_profile_leaves_the_tie_shared(db):
    event, stage = rr_event(3, profile="company-league-2008")
    order = {"第01对": "第02对", "第02对": "第03对", "第03对": "第01对"}
    results_by_pair(stage, lambda a, b: ("ns" if order[a] == b else "ew", "A", "5"))
    rows = group_standings.stage_standings(stage).groups[0].rows
    assert [r.rank for r in rows] == [1, 1, 1] and all(r.shared for r in rows)
    assert rows[0].tie_note == "积分等均相同，并列"


def test_walkover_counts_as_a_win_with_the_largest_margin_in_the_group(db):
    event, stage = rr_event(4)
    ms = list(Match.objects.filter(round__stage=stage, status="scheduled").order_by("round__number", "table"))
    finish(ms[0], winner="ns", win_level="A", lose_level="3")  # margin 11: the largest
    finish(ms[1], winner="ns", win_level="A", lose_level="10")
    wo = ms[2]
    wo.status, wo.winner_id = Match.Status.WALKOVER, wo.ew_id
    wo.save()
    table = group_standings.stage_standings(stage).groups[0]
    row = next(r for r in table.rows if r.entry.pair_id == wo.ew_id)
    other = next(m for m in ms[:2] if wo.ew_id in (m.ns_id, m.ew_id))
    other.refresh_from_db()
    own, opp = (other.ns_level, other.ew_level) if other.ns_id == wo.ew_id else (other.ew_level, other.ns_level)
    value = {"A": 14, "3": 3, "10": 10}
    assert row.points == 3 + (3 if other.winner_id == wo.ew_id else 0)
    assert row.net_levels == 11 + value[own] - value[opp]  # the walkover counts as A:3
    assert row.total_levels == 14 + value[own]
    cross = dict(zip([e.pair_id for e in table.entries], table.cross))
    col = [e.pair_id for e in table.entries].index(wo.ns_id)
    assert cross[wo.ew_id][col] == "胜（对方弃权）"


def test_crosstable_shows_levels_from_each_side(db):
    event, stage = rr_event(2)
    m = finish(Match.objects.get(round__stage=stage, status="scheduled"), winner="ns", win_level="A", lose_level="7")
    table = group_standings.stage_standings(stage).groups[0]
    i, j = [e.pair_id for e in table.entries].index(m.ns_id), [e.pair_id for e in table.entries].index(m.ew_id)
    assert table.cross[i][j] == "胜 A:7" and table.cross[j][i] == "负 7:A" and table.cross[i][i] == "—"


def test_unplayed_matches_do_not_count(db):
    event, stage = rr_event(4)
    table = group_standings.stage_standings(stage).groups[0]
    assert not table.complete and table.played == 0 and all(r.points == 0 for r in table.rows)
    assert placings.final_ranking(event) == ([], False)


def test_a_corrected_result_updates_the_standings(db):
    event, stage = rr_event(2)
    m = finish(Match.objects.get(round__stage=stage, status="scheduled"), winner="ns")
    assert group_standings.stage_standings(stage).groups[0].rows[0].entry.pair_id == m.ns_id
    finish(m, winner="ew")
    assert group_standings.stage_standings(stage).groups[0].rows[0].entry.pair_id == m.ew_id


def test_final_ranking_knockout_first_then_group_places(db):
    event = make_event(16, 4, seeds=4)
    groups, ko = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    draws.draw_bracket(ko, seed="k")
    play_stage(groups)
    places, complete = placings.final_ranking(event)
    assert not complete and places == []
    play_stage(ko)
    places, complete = placings.final_ranking(event)
    assert complete and [p.place for p in places] == list(range(1, 9)) + [9] * 4 + [13] * 4
    assert places[0].how == "决赛" and places[8].shared and "组第3名" in places[8].how


def test_union_games_awards_two_joint_thirds_and_four_merit_awards(db):
    event = make_event(8, 8, profile="union-games", fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    draws.draw_bracket(stage, seed="u")
    play_stage(stage)
    places, _ = placings.final_ranking(event)
    assert [p.place for p in places] == [1, 2, 3, 3, 5, 5, 5, 5]
    awards = {a.title: a.places for a in placings.award_list(event)}
    titles = [str(t) for t in ("Champion", "Runner-up", "Third place", "Merit award")]
    from django.utils.translation import gettext as _
    assert [len(awards[_(t)]) for t in titles] == [1, 1, 2, 4]


def test_company_league_awards_one_third_place(db):
    event, stage = rr_event(4)
    play_stage(stage)
    awards = placings.award_list(event)
    assert [len(a.places) for a in awards] == [1, 1, 1]


def build(n_groups, size):
    event = make_event(n_groups * size, 4, profile="company-league", fmt=Event.Format.ROUND_ROBIN)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": n_groups})
    draws.draw_groups(stage, seed="q")
    for i, m in enumerate(Match.objects.filter(round__stage=stage, status="scheduled")):
        m.status, m.winner_id, m.ns_level, m.ew_level = "finished", m.ns_id, "A", ["2", "5", "9"][i % 3]
        Match.objects.filter(pk=m.pk).update(status=m.status, winner=m.winner_id, ns_level="A", ew_level=m.ew_level)
    return Event.objects.get(pk=event.pk)


@pytest.mark.parametrize("n_groups, size", [(1, 4), (8, 8)])
def test_query_count_stays_constant_whatever_the_size(db, django_assert_max_num_queries, n_groups, size):
    event = build(n_groups, size)
    with django_assert_max_num_queries(8):   # no kept row yet: the matches read, ranked, and the rows stored
        first = group_standings.event_standings(event)
    with django_assert_max_num_queries(5):   # the kept rows: one per group, whatever its results
        result = group_standings.event_standings(event)
    assert len(result[0].groups) == n_groups and result[0].complete and result == first
