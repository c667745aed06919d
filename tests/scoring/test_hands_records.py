"""Hands as records: append-only, one original per number, races, derived levels = a fresh replay, rulings hook."""
import random
import threading

import pytest
from django.db import IntegrityError, connection, transaction

from common.errors import ConflictError
from infra.appendonly import AppendOnlyError
from infra.db import lock_row
from scoring import profile_store as profile_store_
from scoring import services
from scoring.engine import LastTrick, MatchState
from scoring.engine.lines import chinese_lines
from scoring.models import Hand
from scoring.profiles import load_profile
from tests.scoring.test_hands_support import hand_body, match, post_hand, referee  # noqa: F401
from tournament import access
from tournament.competition import results
from tournament.models import Match
from tournament.records.adjustments import hand_adjustments, match_replay, match_state


def record(match, user, number, points, **extra):
    return services.record_hand(match, user, number=number, trump="S", defender_points=points, **extra).hand


# --- append-only and constraints ------------------------------------------------------------------

@pytest.mark.django_db
def test_hands_cannot_be_changed_or_deleted(match, referee):
    hand = record(match, referee, 1, 45, declarer="N")
    hand.defender_points = 100
    with pytest.raises(AppendOnlyError):
        hand.save()
    with pytest.raises(AppendOnlyError):
        Hand.objects.filter(pk=hand.pk).update(defender_points=100)
    with pytest.raises(AppendOnlyError):
        hand.delete()


@pytest.mark.django_db
def test_database_refuses_updates_on_postgresql(match, referee):
    if connection.vendor != "postgresql":
        pytest.skip("the append-only trigger exists on PostgreSQL only")
    hand = record(match, referee, 1, 45, declarer="N")
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE scoring_hand SET defender_points = 100 WHERE id = %s", [hand.pk])


@pytest.mark.django_db
def test_one_original_per_number_and_one_successor_per_version(match, referee):
    hand = record(match, referee, 1, 45, declarer="N")
    fields = {f.name: getattr(hand, f.name) for f in Hand._meta.concrete_fields if f.name not in ("id",)}
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(**{**fields, "version": 2})                  # a second original of hand 1
    services.correct_last_hand(match, referee, number=1, trump="S", defender_points=30, declarer="N")
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(**{**fields, "version": 3, "supersedes": hand})  # hand 1 v1 superseded twice


# --- races ----------------------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_two_referees_submitting_the_same_number_store_exactly_one(referee, make_user):
    """Two connections post hand 1 at the same moment: one 201, one 409, one row (PostgreSQL and SQLite)."""
    from django.test import Client

    from demo.hands import scratch_match

    other = make_user("table_referee")
    match = scratch_match(referees=[referee, other])
    barrier = threading.Barrier(2)
    answers = []

    def submit(user, points):
        client = Client()
        client.force_login(user)
        try:
            barrier.wait(timeout=10)
            answers.append(post_hand(client, match, hand_body(1, points, declarer="N")).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(user, points)) for user, points in ((referee, 45), (other, 30))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers) == [201, 409]
    assert Hand.objects.filter(match=match).count() == 1
    stored = Hand.objects.get(match=match)
    match.refresh_from_db()
    assert match.ns_level == stored.ns_level            # the Match follows the hand that was stored


# --- derived values ---------------------------------------------------------------------------------

RANDOM_INPUTS = [(points, bottom, by, shape)
                 for points in range(0, 205, 15) for bottom in (0, 10, 25)
                 for by, shape in (("declarers", "single"), ("defenders", "single"), ("defenders", "pair"))]


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["shenzhen-community", "two-deck-standard", "company-league"])
def test_derived_levels_equal_a_fresh_engine_replay(slug, referee):
    from demo.hands import scratch_match

    match = scratch_match(slug, referees=[referee])
    rng = random.Random(slug)
    state = MatchState.new(load_profile(slug))
    number = 0
    while state.winner is None and number < 25:
        number += 1
        points, bottom, by, shape = rng.choice(RANDOM_INPUTS)
        last = {"by": by, "shape": shape}
        declarer = "E" if number == 1 else None
        record(match, referee, number, points, bottom_points=bottom, last_trick=last, declarer=declarer)
        state = state.play(defender_points=points, bottom_points=bottom, declarer=declarer,
                           last_trick=LastTrick(by, shape))
        match.refresh_from_db()
        assert (match.ns_level, match.ew_level) == (state.levels["NS"], state.levels["EW"])
        hand = Hand.objects.get(match=match, number=number)
        assert hand.explanation == state.hands[-1].items   # a row stores the explanation's items
        assert (hand.next_declarer or None) == state.declarer
    replayed = match_state(match)
    assert (replayed.levels, replayed.declarer, replayed.winner) == (state.levels, state.declarer, state.winner)
    assert [h.explanation for h in replayed.hands] == [h.explanation for h in state.hands]
    assert match.status == (Match.Status.FINISHED if state.winner else Match.Status.PLAYING)


@pytest.mark.django_db
def test_profile_comes_from_the_frozen_version_not_the_file(match, referee):
    """The match replays with its RuleProfile row's data, even when the file has changed since."""
    from scoring.models import RuleProfile

    data = match.profile.data
    changed = {**data, "scoring": {**data["scoring"], "declarers": {
        "bands": [{"lo": 0, "hi": 75, "levels": 1}], "beyond": {"every": 20}}}}
    frozen = RuleProfile.objects.create(slug="custom", version=1, name="自定义", data=changed)
    Match.objects.filter(pk=match.pk).update(profile=frozen)
    match.refresh_from_db()
    record(match, referee, 1, 0, declarer="N")       # 0 points is +4 under the file, +1 here
    match.refresh_from_db()
    assert match.ns_level == "3"
    assert profile_store_.engine_profile(frozen) is profile_store_.engine_profile(frozen)   # cached


# --- the rulings hook -------------------------------------------------------------------------------

def settle(match):
    """What the rulings layer does after a ruling changes: replay the match and settle its result."""
    with transaction.atomic():
        locked = lock_row(Match.objects.select_related("ns", "ew", "profile"), match.pk)
        replayed = match_replay(locked)
        results.settle(locked, replay=replayed)
        return replayed.state


@pytest.fixture
def rulings_hook(monkeypatch):
    """Replace the rulings layer's ``adjustments_for`` with one returning what the test puts in ``table``."""
    from tournament.records import adjustments, snapshots

    table = {}
    # the replay's one hook: the writers (through the match's record) and the readers call it there
    monkeypatch.setattr(adjustments, "adjustments_for", lambda match, entries=None: lambda hands=None: table)
    # these rulings are no rows: a kept state cannot know them, so every write replays
    monkeypatch.setattr(snapshots, "kept", lambda match: None)
    return table


@pytest.mark.django_db
def test_no_rulings_means_no_adjustments(match, referee):
    record(match, referee, 1, 45, declarer="N")
    assert hand_adjustments(match) == {}


@pytest.mark.django_db
def test_penalty_points_from_rulings_are_applied_and_stored(match, referee, rulings_hook):
    rulings_hook[1] = {"penalty_points": 40, "award": None}
    hand = record(match, referee, 1, 45, declarer="N")          # 45 + 40 = 85: the defenders take over
    assert hand.penalty_points == 40 and hand.final_points == 85 and hand.declarer_keeps is False
    assert "罚分+40" in chinese_lines(hand.explanation)[0]
    rulings_hook.clear()                                         # the ruling is voided later
    state = settle(match)
    match.refresh_from_db()
    assert state.hands[0].declarer_keeps is True and (match.ns_level, match.ew_level) == ("4", "2")


@pytest.mark.django_db
def test_award_replaces_a_hand_and_counts_in_the_numbering(match, referee, rulings_hook):
    record(match, referee, 1, 45, declarer="N")                 # NS 4, S declares next
    rulings_hook[2] = {"award": {"stage": "change", "gainer": "defenders", "levels": 1, "reason": "判罚"}}
    assert match_replay(match).next_number == 3
    state = match_state(match)
    # shenzhen: an award at level 2 applies in full (issue 45 item 3, 000 writes its exceptions for A and J only:
    # the default reading award_at_two "full"; "hold" kept the old stop on the must-play 2)
    assert state.levels == {"NS": "4", "EW": "3"} and state.declarer == "E"
    assert state.hands[1].kind == "award"
    with pytest.raises(services.HandConflict):
        record(match, referee, 2, 45)
    hand = record(match, referee, 3, 45)
    assert hand.declarer_seat == state.declarer


@pytest.mark.django_db
def test_forfeit_from_rulings_ends_the_match(match, referee, rulings_hook):
    record(match, referee, 1, 45, declarer="N")
    rulings_hook[2] = {"forfeit": {"winner": "EW", "reason": "判负"}}
    state = settle(match)
    match.refresh_from_db()
    assert state.winner == "EW" and match.winner == match.ew and match.status == Match.Status.FINISHED
    with pytest.raises(services.HandConflict):
        record(match, referee, 3, 45)


# --- permissions ------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_table_referee_of_a_published_round_may_no_longer_record_but_a_chief_may(match, referee, make_user):
    from infra import clock
    from tournament import roles

    chief = make_user(roles.CHIEF_REFEREE)
    record(match, referee, 1, 45, declarer="N")
    match.round.results_published_at = clock.now()
    match.round.save(update_fields=["results_published_at"])
    match.refresh_from_db()
    assert not access.may(referee, access.RECORD, match=match) and access.may(chief, access.RECORD, match=match)
    with pytest.raises(ConflictError, match="本轮已结束"):   # her own table: the real reason, a 409 (issue 27 item 4)
        record(match, referee, 2, 45)
    assert record(match, chief, 2, 45).number == 2
