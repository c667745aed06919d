"""Rulings after review: voids reopen a decided match, hand numbers stay in play, decisions taken
above a table referee stay there, recusal covers whoever voided the ruling."""
import pytest

from common.errors import ForbiddenError
from rulings import appeals as appeals_
from rulings import services
from scoring.services import record_hand
from tournament.models import Match
from tournament.records.adjustments import match_replay


def test_voiding_the_ruling_that_decided_the_match_reopens_it(table):
    match, users = table
    chief = users["chief"]
    Match.objects.filter(pk=match.pk).update(ns_level="", ew_level="")
    # NS climb 2 → 6 → 10 → J (must-play) → A (must-play) and declare there; EW's 20-point penalty
    # keeps the defenders under 80 → NS pass A
    for number, points in enumerate([0, 0, 0, 0], start=1):
        record_hand(match, chief, number=number, trump="S", defender_points=points,
                    declarer="N" if number == 1 else None)
    match.refresh_from_db()
    assert match.winner is None and match.ns_level == "A"
    ruling = services.record_ruling(match, chief, "failed_throw", "EW", cards=2, role="defenders", hand_number=5)
    record_hand(match, chief, number=5, trump="S", defender_points=90)  # 90 − 20 = 70: NS keep and pass A
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == match.ns
    services.void_ruling(ruling, chief)
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.winner is None  # 90 is a take-over without it
    assert match_replay(match).next_number == 6


def test_a_ruling_cannot_be_recorded_for_a_hand_not_yet_in_play(table):
    match, users = table
    record_hand(match, users["chief"], number=1, trump="S", defender_points=40, declarer="N")
    with pytest.raises(services.RulingError) as caught:
        services.record_ruling(match, users["referee"], "exposed_card", "NS", hand_number=9)
    assert caught.value.field == "hand_number"
    services.record_ruling(match, users["referee"], "exposed_card", "NS", hand_number=2)  # the hand in play
    assert match_replay(match).next_number == 2


def test_a_table_referee_cannot_void_what_the_chief_referee_approved(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "cheating", "EW")
    services.approve(ruling, users["chief"])
    with pytest.raises(ForbiddenError):
        services.void_ruling(ruling, users["referee"])
    services.void_ruling(ruling, users["chief2"])
    match.refresh_from_db()
    assert match.status != Match.Status.FORFEIT


def test_a_table_referee_cannot_void_a_ruling_under_appeal(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "failed_throw", "NS", cards=1, role="defenders")
    appeals_.file_appeal(ruling, users["chief"], "NS")
    with pytest.raises(ForbiddenError):
        services.void_last_ruling(match, users["referee"])


def test_whoever_voided_a_ruling_is_involved_in_it(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "failed_throw", "NS", cards=1, role="defenders")
    assert not appeals_.involved_in(ruling, users["arbiter"])
    services.void_ruling(ruling, users["arbiter"])
    ruling.refresh_from_db()
    assert appeals_.involved_in(type(ruling).objects.get(pk=ruling.pk), users["arbiter"])
