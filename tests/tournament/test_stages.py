"""Stages that chain: round robins, knock-outs with the profile's placement options, group → knock-out."""
from collections import Counter

import pytest

from tests.tournament.test_draws_support import finish, make_event, play_stage
from tournament.competition import draws, stages
from tournament.competition.stages import CompetitionError
from tournament.engines import brackets
from tournament.models import Event, Match, Stage


def matches(stage, **filters):
    return list(Match.objects.filter(round__stage=stage, **filters).order_by("round__number", "table", "pk"))


def test_round_robin_odd_count_gets_byes_and_everyone_plays_once_per_round(db):
    event = make_event(5, 5)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed=1)
    assert stage.rounds.count() == 5
    met = Counter()
    for rnd in stage.rounds.all():
        seen = [pid for m in rnd.matches.all() for pid in (m.ns_id, m.ew_id) if pid]
        assert sorted(seen) == sorted(event.pairs.values_list("pk", flat=True))
        byes = rnd.matches.filter(status=Match.Status.BYE)
        assert byes.count() == 1 and byes.get().table is None and byes.get().winner_id is None
        for m in rnd.matches.exclude(ew=None):
            met[frozenset((m.ns_id, m.ew_id))] += 1
    assert len(met) == 10 and set(met.values()) == {1}


def test_round_robin_tables_run_through_the_groups_and_use_the_frozen_profile(db):
    event = make_event(16, 4)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"first_table": 11})
    draws.draw_groups(stage, seed=2)
    for rnd in stage.rounds.all():
        assert sorted(rnd.matches.values_list("table", flat=True)) == list(range(11, 19))
    assert set(Match.objects.values_list("profile_id", flat=True)) == {event.profile_id}
    assert [m.group.name for m in matches(stage)[:2]] == ["A", "A"]


@pytest.mark.parametrize("profile, expected, n_matches", [
    ("shenzhen-community", brackets.PLACE_QUARTER_FINALISTS, 12),  # all eight quarter-finalists placed
    ("company-league", brackets.THIRD_PLACE_MATCH, 8),  # rank_all_of 3: a third-place match
    ("union-games", brackets.JOINT_THIRD, 7),  # two joint thirds, no third-place match
    ("company-league-2008", brackets.JOINT_THIRD, 7),
])
def test_knockout_places_come_from_the_profile(db, profile, expected, n_matches):
    event = make_event(8, 8, profile=profile, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    assert stages.places_played(stage) == expected
    draws.draw_bracket(stage, seed=3)
    assert len(matches(stage)) == n_matches
    assert bool(matches(stage, bracket_key="P3-R1-M1")) == (expected >= 4)


def test_organiser_overrides_the_placement_options(db):
    event = make_event(8, 8, profile="union-games", fmt=Event.Format.ELIMINATION)
    third = stages.create_stage(event, Stage.Kind.ELIMINATION, settings={"third_place_match": True})
    assert stages.places_played(third) == 4
    event2 = make_event(8, 8, profile="company-league", fmt=Event.Format.ELIMINATION)
    joint = stages.create_stage(event2, Stage.Kind.ELIMINATION, settings={"third_place_match": False})
    assert stages.places_played(joint) == 2
    full = stages.create_stage(event2, Stage.Kind.ELIMINATION, settings={"places_played": 8})
    assert stages.places_played(full) == 8


@pytest.mark.parametrize("bad, field", [
    ({"places_played": 3}, "places_played"), ({"n_groups": 0}, "n_groups"),
    ({"qualifiers_per_group": "two"}, "qualifiers_per_group"), ({"third_place_match": "yes"}, "third_place_match"),
])
def test_bad_stage_settings_name_the_field(db, bad, field):
    event = make_event(4, 2)
    with pytest.raises(CompetitionError) as refused:
        stages.create_stage(event, Stage.Kind.ELIMINATION, settings=bad)
    assert refused.value.field == field and field not in str(refused.value)
    assert not Stage.objects.exists()


def test_byes_go_to_the_top_seeds_and_resolve_at_once(db):
    event = make_event(6, 6, seeds=6, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    draws.draw_bracket(stage, seed=4)
    seed_of = {p.pk: p.seed for p in event.pairs.all()}
    byes = matches(stage, status=Match.Status.BYE)
    assert sorted(seed_of[m.winner_id] for m in byes) == [1, 2]
    assert all(m.table is None and m.ew_id is None for m in byes)
    semis = matches(stage, bracket_key__startswith="R2")
    assert sorted(seed_of[pid] for m in semis for pid in (m.ns_id, m.ew_id) if pid) == [1, 2]
    assert all(m.status == Match.Status.PENDING for m in semis)  # still waiting for the other side


def test_seeds_one_and_two_meet_only_in_the_final(db):
    event = make_event(8, 8, seeds=8, fmt=Event.Format.ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    draws.draw_bracket(stage, seed=5)
    play_stage(stage, pick=lambda m: min(m.ns_id, m.ew_id, key=lambda p: event.pairs.get(pk=p).seed))
    final = matches(stage, bracket_key="R3-M1")[0]
    assert {event.pairs.get(pk=p).seed for p in (final.ns_id, final.ew_id)} == {1, 2}


@pytest.mark.parametrize("fmt, kinds", [
    (Event.Format.ROUND_ROBIN, ["round_robin"]),
    (Event.Format.ELIMINATION, ["elimination"]),
    (Event.Format.GROUPS_ELIMINATION, ["round_robin", "elimination"]),
    (Event.Format.GROUPS_ROUND_ROBIN, ["round_robin", "round_robin"]),
])
def test_stages_from_the_event_format(db, fmt, kinds):
    event = make_event(8, 4, fmt=fmt)
    created = stages.create_stages_from_format(event)
    assert [s.kind for s in created] == kinds
    assert all(s.source_id == created[0].pk for s in created[1:])
    assert stages.create_stages_from_format(event) == created  # idempotent


def test_groups_then_knockout_cross_seeds_the_qualifiers(db):
    event = make_event(16, 4, seeds=4)
    groups, ko = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g")
    draw = draws.draw_bracket(ko, seed="k")
    assert draw.result["first_round"] == [["A1", "B2"], ["C1", "D2"], ["B1", "A2"], ["D1", "C2"]]
    first = matches(ko, round__number=1)
    assert [(m.ns_source, m.ew_source, m.status) for m in first][0] == ("A1", "B2", "pending")
    play_stage(groups)
    table = {g.name: list(g.memberships.values_list("pair_id", flat=True)) for g in groups.groups.all()}
    first = matches(ko, round__number=1)
    assert all(m.status == Match.Status.SCHEDULED for m in first)
    from tournament.competition.group_standings import stage_standings

    ranks = {g.name: [r.entry.pair_id for r in g.rows] for g in stage_standings(groups).groups}
    assert (first[0].ns_id, first[0].ew_id) == (ranks["A"][0], ranks["B"][1])
    assert (first[2].ns_id, first[2].ew_id) == (ranks["B"][0], ranks["A"][1])
    assert set(table) == {"A", "B", "C", "D"}


def test_a_group_fills_its_places_as_soon_as_it_is_complete(db):
    event = make_event(8, 4)
    groups, ko = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g", n_groups=2)
    draws.draw_bracket(ko, seed="k")
    for m in matches(groups, group__name="A", status="scheduled"):
        finish(m)
    first = matches(ko, round__number=1)
    assert first[0].ns_id is not None and first[0].ew_id is None  # A1 known, B2 not yet
    assert first[0].status == Match.Status.PENDING


def test_second_round_robin_of_qualifiers_needs_the_groups_finished(db):
    event = make_event(8, 4, profile="company-league", fmt=Event.Format.GROUPS_ROUND_ROBIN)
    groups, final = stages.create_stages_from_format(event)
    draws.draw_groups(groups, seed="g", n_groups=2)
    with pytest.raises(CompetitionError, match="尚未全部结束"):
        draws.draw_groups(final, seed="f")
    play_stage(groups)
    draws.draw_groups(final, seed="f")
    assert final.groups.count() == 1 and final.groups.get().memberships.count() == 4
    assert final.rounds.count() == 3


def test_knockout_source_must_be_drawn_first(db):
    event = make_event(8, 4)
    groups, ko = stages.create_stages_from_format(event)
    with pytest.raises(CompetitionError, match="请先完成"):
        draws.draw_bracket(ko)
