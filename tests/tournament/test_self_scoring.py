"""Players record, opponents confirm, a floor referee decides (tournament.selfscore), through the services:
the codes (another table, another round, after the match, re-issued, wrong ones slowed), a side never confirming
its own entry, only confirmed hands counting, the round's close refused while a hand waits, disputes decided,
corrections by both sides, a 造反 and a redeal."""
from __future__ import annotations

import pytest
from django.utils import translation

from common.errors import ConflictError, ForbiddenError, UserError
from common.names import display_name
from scoring.models import Hand
from scoring.replay_check import check_match
from tests.conftest import refused
from tests.tournament.selfscore_support import ADDRESS, FIRST, PLAYED, make_match, make_table
from tournament.competition import rounds, stages
from tournament.events import services as events
from tournament.models import EntryStep, Event, Match, Round
from tournament.selfscore import codes, modes, players, waiting
from tournament.selfscore import services as selfscore

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_counters")]


@pytest.fixture
def table(make_user):
    return make_table(make_user)


def enter(t, side="NS", number=1, inputs=None, kind="new"):
    return selfscore.enter_hand(t.match, t.code(side), address=ADDRESS, number=number, kind=kind,
                                inputs=dict(inputs or (FIRST if number == 1 else PLAYED)))


def confirm(t, entry, side="EW"):
    return selfscore.confirm_entry(entry, t.code(side), address=ADDRESS)


def fresh(match):
    return Match.objects.get(pk=match.pk)


def levels(match):
    match.refresh_from_db()
    return match.ns_level, match.ew_level, match.status


def test_a_hand_counts_once_the_other_side_confirms_it(table):
    before = levels(table.match)
    entry = enter(table)
    assert waiting.open_entry(table.match).pk == entry.pk
    assert levels(table.match) == before and not Hand.objects.filter(match=table.match).exists()
    settled = confirm(table, entry)
    hand = Hand.objects.get(match=table.match)
    assert settled.step.hand == hand and players.is_players(hand.recorded_by)
    assert levels(table.match) != before
    assert waiting.open_entry(table.match) is None and waiting.state_of(entry) == "confirmed"
    assert check_match(fresh(table.match)) == []


def test_the_players_account_is_named_in_the_pages_language(table):
    """Its stored name is Chinese; an English page names it in English (the history once read
    "选手录入（对方确认） · 00:15:41" there)."""
    confirm(table, enter(table))
    recorder = Hand.objects.get(match=table.match).recorded_by
    with translation.override("en"):
        assert display_name(recorder) == "Players (entered and confirmed)"
    with translation.override("zh-hans"):
        assert display_name(recorder) == "选手录入（对方确认）"


def test_a_side_cannot_confirm_its_own_entry(table):
    entry = enter(table, "NS")
    with refused("code") as caught:
        confirm(table, entry, side="NS")
    assert isinstance(caught.value, ForbiddenError)
    assert waiting.state_of(entry) == "waiting"


def test_the_next_hand_waits_for_the_previous_confirmation(table):
    enter(table, "NS")
    with refused("number") as caught:
        enter(table, "EW", number=2)
    assert isinstance(caught.value, ConflictError)


def test_a_code_is_refused_at_another_table_in_another_round_and_after_the_match(table, make_user):
    other = make_table(make_user, rnd=table.match.round, table=2, chief=table.chief)
    with refused("code"):
        selfscore.enter_hand(other.match, table.ns, address=ADDRESS, number=1, inputs=FIRST)
    next_round = Round.objects.create(stage=table.match.round.stage, number=2)
    later = make_match(next_round, table=1)   # the same table number, the next round
    codes.issue_code(later, "NS", table.chief)
    with refused("code"):
        selfscore.enter_hand(later, table.ns, address=ADDRESS, number=1, inputs=FIRST)
    Match.objects.filter(pk=table.match.pk).update(status=Match.Status.FORFEIT)
    with refused("code") as caught:
        enter(table)
    assert isinstance(caught.value, ConflictError)   # the match is over: the right code is worthless


def test_a_reissued_code_kills_the_old_one(table):
    old = table.ns
    new = codes.issue_code(table.match, "NS", table.chief)
    assert new != old or True   # a new draw may repeat the digits; the old row is dead all the same
    if new != old:
        with refused("code"):
            selfscore.enter_hand(table.match, old, address=ADDRESS, number=1, inputs=FIRST)
    entry = selfscore.enter_hand(table.match, new, address=ADDRESS, number=1, inputs=FIRST)
    assert entry.side == "NS"


def test_only_the_desk_issues_codes_and_only_the_hash_is_kept(table):
    with pytest.raises(ForbiddenError):
        codes.issue_code(table.match, "NS", table.referee)
    stored = set(table.match.side_codes.values_list("digest", flat=True))
    assert table.ns not in stored and codes.digest(table.match.pk, "NS", table.ns) in stored


def test_wrong_codes_are_slowed_but_never_the_right_one(table, settings):
    settings.SELF_SCORING_WRONG_CODES = 3
    wrong = "00000000" if table.ns != "00000000" and table.ew != "00000000" else "11111111"
    for _ in range(3):
        with pytest.raises(codes.WrongCode):
            selfscore.enter_hand(table.match, wrong, address="10.9.9.9", number=1, inputs=FIRST)
    with pytest.raises(codes.CodesThrottled) as caught:
        selfscore.enter_hand(table.match, wrong, address="10.9.9.9", number=1, inputs=FIRST)
    assert caught.value.status == 429 and caught.value.wait > 0
    entry = selfscore.enter_hand(table.match, table.ns, address="10.9.9.9", number=1, inputs=FIRST)
    assert confirm(table, entry).written.hand.number == 1


def test_wrong_codes_are_counted_per_address_across_tables(table, make_user, settings):
    settings.SELF_SCORING_WRONG_CODES = 2
    other = make_table(make_user, rnd=table.match.round, table=2, chief=table.chief)
    for t in (table, other):
        with pytest.raises(codes.WrongCode):
            selfscore.enter_hand(t.match, "12345678" if "12345678" not in (t.ns, t.ew) else "87654321",
                                 address="10.8.8.8", number=1, inputs=FIRST)
    with pytest.raises(codes.CodesThrottled):
        selfscore.enter_hand(other.match, "99999999" if "99999999" not in (other.ns, other.ew) else "99999998",
                             address="10.8.8.8", number=1, inputs=FIRST)


def test_an_unconfirmed_hand_moves_no_level_standing_or_result(table):
    for number in range(1, 4):
        confirm(table, enter(table, "NS" if number % 2 else "EW", number), side="EW" if number % 2 else "NS")
    match = Match.objects.get(pk=table.match.pk)
    stored = (match.ns_level, match.ew_level, match.status, match.winner_id)   # what standings and brackets read
    hands = Hand.objects.filter(match=match).count()
    enter(table, "NS", 4, {"trump": "S", "defender_points": 0})   # a sweep that would move the levels a lot
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level, match.status, match.winner_id) == stored
    assert Hand.objects.filter(match=match).count() == hands


def test_a_round_with_a_waiting_hand_or_an_open_dispute_cannot_close(table):
    entry = enter(table)
    with refused("round") as caught:
        rounds.close_round(table.match.round, table.chief)
    assert "1" in str(caught.value)
    selfscore.dispute_entry(entry, table.ew, address=ADDRESS, note="分数不对")
    with refused("round"):
        rounds.close_round(table.match.round, table.chief)
    selfscore.decide_entry(entry, table.referee, action="reject", note="重新录入")
    assert waiting.open_tables(table.match.round) == []


def test_the_refusal_lists_the_tables_as_its_language_writes_a_list(table, make_user):
    enter(table)
    enter(make_table(make_user, rnd=table.match.round, table=2, chief=table.chief))
    with refused("round") as caught:
        rounds.close_round(table.match.round, table.chief)
    with translation.override("zh-hans"):
        assert "第1、2桌" in str(caught.value).replace(" ", "")
    with translation.override("en"):
        assert "table(s) 1, 2 have" in str(caught.value) and "、" not in str(caught.value)


def test_a_dispute_stops_the_table_and_the_floor_referee_decides(table, make_user):
    entry = enter(table)
    selfscore.dispute_entry(entry, table.ew, address=ADDRESS)
    with refused("entry"):
        confirm(table, entry)
    with refused("number"):
        enter(table, "EW", 2)
    stranger = make_user()
    with pytest.raises(UserError):
        selfscore.decide_entry(entry, stranger, action="confirm")
    settled = selfscore.decide_entry(entry, table.referee, action="record",
                                     inputs={"trump": "S", "defender_points": 85, "declarer": "N"})
    hand = Hand.objects.get(match=table.match)
    assert hand.defender_points == 85 and hand.recorded_by == table.referee and settled.step.by == table.referee
    assert waiting.state_of(entry) == "decided"
    assert check_match(fresh(table.match)) == []


def test_at_time_up_the_referee_confirms_what_waits(table):
    entry = enter(table)
    selfscore.decide_entry(entry, table.referee, action="confirm")
    assert Hand.objects.get(match=table.match).defender_points == FIRST["defender_points"]


def test_a_correction_needs_both_sides(table):
    confirm(table, enter(table))
    correction = enter(table, "EW", 1, {"trump": "S", "defender_points": 120, "declarer": "N"}, kind="correction")
    assert Hand.objects.get(match=table.match, superseded_by__isnull=True).defender_points == 40
    with refused("code"):
        confirm(table, correction, side="EW")
    confirm(table, correction, side="NS")
    current = Hand.objects.get(match=table.match, superseded_by__isnull=True)
    assert current.defender_points == 120 and current.version == 2
    assert check_match(fresh(table.match)) == []


def test_a_rebellion_and_a_redeal_are_entered_and_confirmed(make_user):
    t = make_table(make_user, profile="company-league")   # 004 二.7: 造反
    confirm(t, enter(t, "NS", 1, {"trump": "S", "defender_points": 30, "declarer": "E"}))
    confirm(t, enter(t, "EW", 2, {"trump": "S", "defender_points": 160}), side="NS")
    confirm(t, enter(t, "NS", 3, {"trump": "S", "defender_points": 0}))
    confirm(t, enter(t, "EW", 4, {"outcome": "rebel", "called_by": "W", "declarer": "E"}), side="NS")
    rebellion = Hand.objects.get(match=t.match, number=4)
    assert (rebellion.outcome, rebellion.called_by, rebellion.bid_winner) == ("rebel", "W", "E")
    assert check_match(fresh(t.match)) == []
    s = make_table(make_user)   # shenzhen 第五条: nobody declared trump, redealt
    confirm(s, enter(s))
    confirm(s, enter(s, "EW", 2, {"outcome": "redeal"}), side="NS")
    assert Hand.objects.get(match=s.match, number=2).outcome == "redeal"
    assert check_match(fresh(s.match)) == []


def test_the_entering_side_may_withdraw_before_the_answer(table):
    entry = enter(table)
    with refused("code"):
        selfscore.withdraw_entry(entry, table.ew, address=ADDRESS)
    selfscore.withdraw_entry(entry, table.ns, address=ADDRESS)
    assert waiting.open_entry(table.match) is None
    enter(table)


def test_where_the_referee_records_the_players_cannot_enter(make_user):
    t = make_table(make_user, recorders=Event.Recorders.REFEREE)
    with refused("match"):
        enter(t)


def test_where_only_the_players_record_a_referees_own_hand_is_refused(client, make_user):
    """Who records is the organiser's choice: where the players record (not "either"), the referee's hand
    (the API, the table page) is refused in Chinese and the table page offers no hand form, until an entry
    waits for the referee's decision; the decision itself records the hand."""
    from scoring import services as hands

    t = make_table(make_user)
    with pytest.raises(ForbiddenError, match="选手录入"):
        hands.record_hand(t.match, t.referee, number=1, **FIRST)
    client.force_login(t.referee)
    answer = client.post(f"/api/matches/{t.match.pk}/hands/", {"number": 1, **FIRST}, content_type="application/json")
    assert answer.status_code == 403 and "选手录入" in answer.json()["detail"]
    page = client.get(f"/tables/{t.match.pk}/").content.decode()
    assert 'id="hand-form"' not in page
    entry = enter(t)
    selfscore.dispute_entry(entry, t.ew, address=ADDRESS, note="点数不对")
    assert 'id="hand-form"' in client.get(f"/tables/{t.match.pk}/").content.decode()
    selfscore.decide_entry(entry, t.referee, action="record", inputs={**FIRST, "defender_points": 60})
    assert [h.defender_points for h in Hand.objects.filter(match=t.match)] == [60]


def test_a_referees_own_hand_makes_a_waiting_entry_lapse(make_user):
    from scoring import services as hands

    t = make_table(make_user, recorders=Event.Recorders.EITHER)
    entry = enter(t)
    hands.record_hand(t.match, t.referee, number=1, **FIRST)
    assert waiting.state_of(entry) == "lapsed" and waiting.open_tables(t.match.round) == []
    with refused("entry"):
        confirm(t, entry)


def test_the_players_account_records_nowhere_else(table, make_user):
    from tournament import access

    other = make_table(make_user, rnd=table.match.round, table=2, chief=table.chief)
    writer = players.writing_for(table.match)
    assert access.may(writer, access.RECORD, match=table.match)
    assert not access.may(writer, access.RECORD, match=other.match)
    assert not access.may(writer, access.DECIDE_RESULT, match=table.match)
    assert not access.may(players.account(), access.RECORD, match=table.match)


def test_who_records_is_the_events_setting_with_a_stage_override(table, make_user):
    from tournament.models import EventRole

    event = table.match.round.stage.event
    organiser = make_user()
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    assert modes.of_match(table.match) == "players"
    events.update_event(event, {"hand_recorders": "either"})
    assert modes.of_match(fresh_with_stage(table.match)) == "either"
    modes.set_stage_recorders(table.match.round.stage, "referee", organiser)   # drawn already: still allowed
    assert modes.of_match(fresh_with_stage(table.match)) == "referee"
    with refused("match"):
        enter(table)
    with pytest.raises(ForbiddenError):
        modes.set_stage_recorders(table.match.round.stage, "players", table.referee)
    with refused("recorders"):
        modes.set_stage_recorders(table.match.round.stage, "nobody", organiser)
    with refused("recorders"):
        stages.validate_settings("round_robin", {"recorders": "nobody"})
    assert stages.validate_settings("swiss", {"recorders": "players"}) == {"recorders": "players"}
    with refused("hand_recorders"):
        events.update_event(event, {"hand_recorders": "nobody"})
    modes.set_stage_recorders(table.match.round.stage, "", organiser)
    assert modes.of_match(fresh_with_stage(table.match)) == "either"


def fresh_with_stage(match):
    return Match.objects.select_related("round__stage__event").get(pk=match.pk)


def test_steps_are_append_only(table):
    from infra.appendonly import AppendOnlyError

    entry = enter(table)
    step = selfscore.dispute_entry(entry, table.ew, address=ADDRESS)
    with pytest.raises(AppendOnlyError):
        EntryStep.objects.filter(pk=step.pk).update(note="x")
    with pytest.raises(AppendOnlyError):
        entry.delete()
