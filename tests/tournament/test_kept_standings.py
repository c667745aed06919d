"""The kept group standings (``group_standings.keep_groups``, one row per group written by the result service) equal a
full recomputation from the matches after any sequence of results, corrections, voided rulings and amended
appeals (issue 31 item 1), and a Match written outside the result service drops its group's row."""
import io

import pytest
from django.contrib.auth.models import Group as Role
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db.models import Max
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import UserError
from rulings import appeals
from rulings import services as rulings
from scoring import services as scoring
from scoring.models import Hand
from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.competition import draws, group_standings, stages
from tournament.models import Event, GroupStanding, Match, Stage

ACTIONS = st.lists(st.tuples(st.sampled_from(["hand", "correct", "late", "void", "amend"]),
                             st.integers(0, 5), st.sampled_from([0, 40, 80, 120]), st.sampled_from(["NS", "EW"])),
                   min_size=1, max_size=12)


def _user(name, role):
    user, _ = User.objects.get_or_create(username=name)
    user.groups.add(Role.objects.get(name=role))
    return user


def _event():
    """union-games (a 15 minutes' late arrival forfeits, 二.14; the arbitration group decides appeals, 二.5):
    one round-robin group of 4 pairs, 6 matches."""
    event = make_event(4, 4, profile="union-games", fmt=Event.Format.ROUND_ROBIN)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="kept")
    return event, list(Match.objects.filter(round__stage=stage).order_by("round__number", "table", "pk"))


def _fresh(match):
    return Match.objects.get(pk=match.pk)


def _act(action, match, points, side, users):
    referee, chief, arbiter = users
    match = _fresh(match)
    hands = Hand.objects.filter(match=match).aggregate(n=Max("number"))["n"] or 0
    if action == "hand":
        scoring.record_hand(match, referee, number=hands + 1, trump="S", defender_points=points,
                            declarer="N" if hands == 0 else None)
    elif action == "correct" and hands:
        scoring.correct_last_hand(match, chief, number=hands, trump="S", defender_points=points,
                                  declarer="N" if hands == 1 else None)
    elif action == "late":
        rulings.record_ruling(match, chief, "late", side, minutes=15)
    elif action == "void":
        rulings.void_last_ruling(match, chief, reason="记错")
    elif action == "amend":
        last = rulings.last_live_ruling(match)
        if last is not None:
            appeal = appeals.file_appeal(last, chief, last.side, "不服")
            appeals.decide_appeal(appeal, arbiter, instance=1, outcome="amended", reason="改判",
                                  amendment={"minutes": 10})


@pytest.mark.django_db
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(ACTIONS)
def test_kept_standings_equal_a_full_recomputation_after_any_corrections(actions):
    users = (_user("kept-referee", roles.TABLE_REFEREE), _user("kept-chief", roles.CHIEF_REFEREE),
             _user("kept-arbiter", roles.ARBITRATION))
    event, matches = _event()
    for match in matches:
        match.referees.add(users[0])
    event = Event.objects.select_related("profile").get(pk=event.pk)
    for action, index, points, side in actions:
        try:
            _act(action, matches[index], points, side, users)
        except UserError:
            continue   # refused by the rules (a finished match's hand, nothing to void, ...): nothing changed
        assert group_standings.check_event(event) == [], (action, index)
    assert group_standings.check_event(event) == []
    assert GroupStanding.objects.filter(group__stage__event=event).exists()   # the pages read a kept row


def test_a_match_saved_outside_the_result_service_drops_its_groups_row(db):
    event, matches = _event()
    event = Event.objects.select_related("profile").get(pk=event.pk)
    group_standings.event_standings(event)                       # ranked and kept by the first reader
    assert GroupStanding.objects.filter(group_id=matches[0].group_id).exists()
    match = matches[0]
    match.status, match.winner_id, match.ns_level, match.ew_level = Match.Status.FINISHED, match.ns_id, "A", "5"
    match.save()
    assert not GroupStanding.objects.filter(group_id=match.group_id).exists()
    table = group_standings.event_standings(event)[0].groups[0]
    assert table.played == 1 and table.rows[0].entry.pair_id == match.ns_id
    assert group_standings.check_event(event) == []


def test_verify_standings_names_a_kept_row_that_a_recomputation_contradicts(db):
    event, matches = _event()
    event = Event.objects.select_related("profile").get(pk=event.pk)
    group_standings.event_standings(event)
    out = io.StringIO()
    call_command("verify_standings", event.slug, stdout=out)
    assert "0 groups" in out.getvalue()
    row = GroupStanding.objects.get(group_id=matches[0].group_id)
    row.data = {**row.data, "played": 3}                  # a kept row no recomputation gives
    row.save()
    with pytest.raises(SystemExit):
        call_command("verify_standings", event.slug, stdout=out)
    assert "1 groups whose kept standings differ" in out.getvalue()


def test_a_reader_uses_the_row_the_result_service_kept(db, django_assert_max_num_queries):
    event, matches = _event()
    event = Event.objects.select_related("profile").get(pk=event.pk)
    group_standings.keep_groups(event, [matches[0].group_id])
    with django_assert_max_num_queries(5):               # stages, groups with their rows, entries, draws: no match
        group_standings.event_standings(Event.objects.select_related("profile").get(pk=event.pk))
