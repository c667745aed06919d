"""Draw services: seeds recorded, same seed same draw, append-only redo, refusal after play, bad input."""
from collections import Counter

import pytest

from tests.tournament.test_draws_support import event16, finish, make_event  # noqa: F401
from tournament.competition import draws, stages
from tournament.competition.stages import CompetitionError
from tournament.engines import pairings
from tournament.models import Draw, Group, Match, Stage


def group_stage(event, **settings):
    return stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings=settings)


def groups_of(stage):
    return [list(g.memberships.values_list("pair_id", flat=True)) for g in stage.groups.order_by("order")]


def test_seed_is_recorded_and_random_by_default(event16):
    stage = group_stage(event16)
    draw = draws.draw_groups(stage)
    assert len(draw.seed) == 16 and int(draw.seed, 16) >= 0
    assert draws.new_seed() != draws.new_seed()
    assert draw.result["groups"] == groups_of(stage)


def test_same_seed_same_draw_and_anyone_can_rerun_it(event16):
    stage = group_stage(event16, n_groups=4)
    first = draws.draw_groups(stage, seed="公开种子-1")
    second = draws.draw_groups(stage, seed="公开种子-1")
    assert first.result == second.result
    p = second.params
    units = {int(k): v for k, v in p["units"].items()}
    rerun = pairings.draw_groups(p["entries"], p["n_groups"], second.seed, units.__getitem__, seeded=p["seeded"])
    assert rerun == second.result["groups"]
    assert draws.draw_groups(stage, seed="another").result != first.result


def test_redo_is_a_new_draw_superseding_the_old_which_stays(event16):
    stage = group_stage(event16)
    old = draws.draw_groups(stage, seed="a")
    new = draws.draw_groups(stage, seed="b")
    assert new.supersedes == old and Draw.objects.filter(stage=stage).count() == 2
    assert draws.active_draw(stage, Draw.Kind.GROUPS) == new
    assert [d.pk for d in draws.draw_history(stage)] == [new.pk, old.pk]
    assert Group.objects.filter(stage=stage).count() == 4  # rebuilt, not doubled
    assert Match.objects.filter(round__stage=stage).count() == 4 * 6


def test_units_spread_and_seeds_snake_ordered(db):
    event = make_event(16, 4, seeds=8)
    stage = group_stage(event, n_groups=4)
    draws.draw_groups(stage, seed=11)
    by_seed = {p.pk: p.seed for p in event.pairs.all()}
    unit = {p.pk: p.unit_id for p in event.pairs.all()}
    groups = groups_of(stage)
    for g in groups:
        assert len(g) == 4 and len({unit[p] for p in g}) == 4  # one pair of each unit per group
    seeds_in = [sorted(by_seed[p] for p in g if by_seed[p]) for g in groups]
    assert seeds_in == [[1, 8], [2, 7], [3, 6], [4, 5]]  # snake: A B C D D C B A


def test_draw_after_play_began_is_refused_and_nothing_changes(event16):
    stage = group_stage(event16)
    draw = draws.draw_groups(stage, seed="x")
    before = groups_of(stage)
    finish(Match.objects.filter(round__stage=stage, status="scheduled").first())
    for kind in ("groups", "seats", "tables"):
        with pytest.raises(CompetitionError, match="已有比赛开始"):
            draws.do_draw(stage, kind, seed="y")
    assert draws.active_draw(stage, "groups") == draw and groups_of(stage) == before
    assert not draws.redraw_allowed(stage)


def test_a_match_in_play_also_blocks_the_redraw(event16):
    stage = group_stage(event16)
    draws.draw_groups(stage, seed="x")
    Match.objects.filter(round__stage=stage, status="scheduled").filter(pk__in=Match.objects.filter(
        round__stage=stage).values("pk")[:1]).update(status="playing")
    with pytest.raises(CompetitionError):
        draws.draw_groups(stage, seed="z")


def test_more_groups_than_entries_is_refused_with_nothing_saved(db):
    event = make_event(3, 3)
    stage = group_stage(event)
    with pytest.raises(CompetitionError, match="分组数 4 多于参赛对数 3"):
        draws.draw_groups(stage, n_groups=4)
    assert not Draw.objects.exists() and not Group.objects.exists()


def test_duplicate_entries_are_refused(event16):
    stage = group_stage(event16)
    ids = list(event16.pairs.values_list("pk", flat=True))
    with pytest.raises(CompetitionError, match="重复"):
        draws.draw_groups(stage, entries=ids[:5] + [ids[0]], n_groups=2)
    assert not Draw.objects.exists()


def test_entries_of_another_event_or_withdrawn_are_refused(event16):
    other = make_event(2, 1)
    stage = group_stage(event16)
    with pytest.raises(CompetitionError, match="不属于本赛事"):
        draws.draw_groups(stage, entries=list(other.pairs.values_list("pk", flat=True)), n_groups=1)
    pair = event16.pairs.first()
    pair.status = "withdrawn"
    pair.save()
    with pytest.raises(CompetitionError, match="退赛"):
        draws.draw_groups(stage, entries=[pair.pk, event16.pairs.last().pk], n_groups=1)


def test_a_bracket_needs_two_entries(db):
    event = make_event(1, 1, fmt="elimination")
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    with pytest.raises(CompetitionError, match="至少需要 2 个"):
        draws.draw_bracket(stage)
    assert not Draw.objects.exists() and not Match.objects.exists()


def test_wrong_draw_kind_for_the_stage(event16):
    rr = group_stage(event16)
    ko = stages.create_stage(event16, Stage.Kind.ELIMINATION)
    with pytest.raises(CompetitionError, match="淘汰赛"):
        draws.draw_groups(ko)
    with pytest.raises(CompetitionError, match="循环赛"):
        draws.draw_bracket(rr)
    with pytest.raises(CompetitionError, match="不支持"):
        draws.do_draw(rr, "pairs")


def test_bracket_separates_units_in_the_first_round(db):
    event = make_event(8, 4)  # two pairs per unit
    stage = stages.create_stage(event, Stage.Kind.ELIMINATION)
    draw = draws.draw_bracket(stage, seed="s")
    unit = dict(event.pairs.values_list("pk", "unit_id"))
    for a, b in draw.result["first_round"]:
        assert unit[a] != unit[b]
    order = draw.params["entries"]
    assert pairings.elimination_slots(order, unit.__getitem__) == [tuple(p) for p in draw.result["first_round"]]


def test_seats_draw_is_recorded_and_reproducible(event16):
    stage = group_stage(event16)
    draws.draw_groups(stage, seed="g")
    seats = draws.draw_seats(stage, seed="seats")
    given = [tuple(m[1:]) for m in seats.params["matches"]]
    assert [list(s) for s in pairings.draw_seats(given, "seats")] == [s[1:] for s in seats.result["seats"]]
    for match_id, ns, ew in seats.result["seats"]:
        m = Match.objects.get(pk=match_id)
        assert (m.ns_id, m.ew_id) == (ns, ew)
    assert any(a != s[1] for (a, _), s in zip(given, seats.result["seats"]))  # some pairs changed seats


def test_tables_draw_renumbers_each_round(event16):
    stage = group_stage(event16)
    draws.draw_groups(stage, seed="g")
    draw = draws.draw_tables(stage, seed="t")
    for rnd in stage.rounds.all():
        tables = list(rnd.matches.exclude(table=None).values_list("table", flat=True))
        assert sorted(tables) == list(range(1, 9))
        assert draw.result["tables"][str(rnd.number)] == pairings.draw_tables(
            [(m, 0) for m in draw.params["matches"][str(rnd.number)]], f"t:R{rnd.number}")


def test_organiser_seed_is_trimmed_and_limited(event16):
    stage = group_stage(event16)
    assert draws.draw_groups(stage, seed="  抽签2026  ").seed == "抽签2026"
    with pytest.raises(CompetitionError, match="最多 64"):
        draws.draw_groups(stage, seed="x" * 65)


def test_group_sizes_differ_by_at_most_one(db):
    event = make_event(10, 3)
    stage = group_stage(event)
    draws.draw_groups(stage, n_groups=3, seed=5)
    assert sorted(Counter(len(g) for g in groups_of(stage)).elements()) == [3, 3, 4]


def test_regrouping_keeps_a_drawn_knockout_valid(event16):
    groups = group_stage(event16, n_groups=4)
    draws.draw_groups(groups, seed="g1")
    knockout = stages.create_stage(event16, Stage.Kind.ELIMINATION, source=groups)
    draws.draw_bracket(knockout, seed="k1")
    draws.draw_groups(groups, seed="g2")  # the same four groups: A1..D2 still exist
    with pytest.raises(CompetitionError, match="4 个小组"):
        draws.draw_groups(groups, seed="g3", n_groups=2)
    assert draws.active_draw(groups, Draw.Kind.GROUPS).seed == "g2"


def test_a_regroup_retires_the_seats_and_tables_drawn_before_it(event16):
    stage = group_stage(event16, n_groups=4)
    draws.draw_groups(stage, seed="g1")
    seats = draws.draw_seats(stage, seed="s1")
    assert draws.active_draw(stage, Draw.Kind.SEATS) == seats
    draws.draw_groups(stage, seed="g2")
    assert draws.active_draw(stage, Draw.Kind.SEATS) is None
    again = draws.draw_seats(stage, seed="s2")
    assert draws.active_draw(stage, Draw.Kind.SEATS) == again
