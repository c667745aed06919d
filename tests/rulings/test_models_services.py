"""Services: replay (repeat counts, escalation, voids), approvals, choices, effects on the match."""
import pytest

from common.errors import ForbiddenError, UserError
from rulings import services
from rulings.models import Ruling
from tournament.models import Match
from tournament.records import adjustments as adjustments_
from tournament.records import ledger as ledger_


def states(match):
    return [(e.ruling.code, e.state, sorted(e.sanction.kinds) if e.sanction else None)
            for e in ledger_.match_entries(match)]


def test_second_warning_becomes_a_violation_and_third_violation_proposes_a_match_loss(table):
    match, users = table
    ref = users["referee"]
    first = services.record_ruling(match, ref, "delay", "NS")
    second = services.record_ruling(match, ref, "noise", "NS")
    assert first.sanction["kinds"] == ["warning"]
    assert second.sanction["kinds"] == ["violation"] and "warning_to_violation" in second.sanction["escalated"]
    services.record_ruling(match, ref, "delay", "EW")  # the other side's count is separate
    third = services.record_ruling(match, ref, "peeking", "NS")
    fourth = services.record_ruling(match, ref, "misconduct", "NS", choice="violation")
    assert third.sanction["kinds"] == ["violation"]
    assert fourth.sanction["needs_approval"] and "match_forfeit" in fourth.sanction["kinds"]
    assert ledger_.match_entries(match)[-1].state == ledger_.PENDING


def test_voiding_an_earlier_warning_recomputes_the_later_sanctions(table):
    match, users = table
    first = services.record_ruling(match, users["referee"], "delay", "NS")
    services.record_ruling(match, users["referee"], "delay", "NS")
    assert states(match)[1][2] == ["violation"]
    services.void_ruling(first, users["referee"], "记错桌")
    assert states(match) == [("delay", "void", None), ("delay", "in_force", ["warning"])]


def test_void_last_voids_the_latest_live_ruling(table):
    match, users = table
    services.record_ruling(match, users["referee"], "delay", "NS")
    second = services.record_ruling(match, users["referee"], "delay", "EW")
    assert services.void_last_ruling(match, users["referee"]).ruling == second
    services.void_last_ruling(match, users["referee"])
    with pytest.raises(services.RulingError):
        services.void_last_ruling(match, users["referee"])


def test_the_same_idempotency_key_stores_one_ruling(table):
    match, users = table
    one = services.record_ruling(match, users["referee"], "delay", "NS", idempotency_key="k1")
    two = services.record_ruling(match, users["referee"], "delay", "NS", idempotency_key="k1")
    assert one.pk == two.pk and Ruling.objects.filter(match=match).count() == 1


def test_preview_stores_nothing_and_matches_the_record(table):
    match, users = table
    services.record_ruling(match, users["referee"], "delay", "NS")
    shown = services.preview(match, "delay", "NS")
    assert Ruling.objects.count() == 1
    stored = services.record_ruling(match, users["referee"], "delay", "NS")
    assert shown.explanation == stored.sanction["explanation"]


@pytest.mark.parametrize("inputs, field", [
    ({"code": "teleport", "side": "NS"}, "code"),
    ({"code": "late", "side": "NS"}, "minutes"),
    ({"code": "failed_throw", "side": "NS"}, "cards"),
    ({"code": "card_count", "side": "NS"}, "role"),
    ({"code": "delay", "side": "XX"}, "side"),
    ({"code": "delay", "side": "NS", "choice": "death"}, "choice"),
])
def test_bad_input_names_the_field(table, inputs, field):
    match, users = table
    with pytest.raises(services.RulingError) as caught:
        services.record_ruling(match, users["referee"], **inputs)
    assert caught.value.field == field
    assert Ruling.objects.count() == 0


def test_points_are_signed_by_the_offenders_role(table):
    match, users = table
    services.record_ruling(match, users["referee"], "failed_throw", "NS", cards=2, role="declarers")
    from scoring.services import record_hand

    record_hand(match, users["chief"], number=1, trump="S", defender_points=40, declarer="N")
    services.record_ruling(match, users["referee"], "failed_throw", "EW", cards=1, role="defenders",
                           hand_number=2)  # the hand now in play
    adjustments = adjustments_.hand_adjustments(match)
    assert adjustments[1]["penalty_points"] == 20 and adjustments[1]["points_against"] == {"NS": 20, "EW": 0}
    assert adjustments[2]["penalty_points"] == -10


def test_void_and_unknown_role_leave_the_points_out(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "failed_throw", "NS", cards=2)
    assert ruling.offender_role == ""  # no declarer yet: the role is read from hand 1 once recorded
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == 0
    services.void_ruling(ruling, users["referee"])
    assert adjustments_.hand_adjustments(match) == {}


def test_wrong_bury_by_the_declarers_becomes_an_award_for_the_scoring_engine(table):
    match, users = table
    with pytest.raises(services.RulingError) as caught:  # no hand recorded yet: who declares?
        services.record_ruling(match, users["referee"], "wrong_bury", "NS", role="declarers")
    assert caught.value.field == "declarer"
    services.record_ruling(match, users["referee"], "wrong_bury", "NS", role="declarers", declarer="N")
    award = adjustments_.hand_adjustments(match)[1]["award"]
    assert award["stage"] == "change" and award["gainer"] == "EW" and award["levels"] == 5
    assert (award["next_declarer"], award["first_declarer"]) == ("next", "N")  # as MatchState.award takes them
    assert adjustments_.table_state(match).declarer == "W"  # 下家 of N


def test_a_first_hand_level_award_before_anyone_declares(make_match, make_user):
    match = make_match("two-deck-standard")
    services.record_ruling(match, make_user("chief_referee"), "late", "NS", minutes=17)
    award = adjustments_.hand_adjustments(match)[1]["award"]
    assert (award["stage"], award["gainer"], award["levels"], award["next_declarer"]) == ("keep", "EW", 1, None)


def test_a_match_forfeit_ends_the_match_only_once_approved(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "cheating", "EW")
    assert ruling.sanction["needs_approval"]
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and adjustments_.hand_adjustments(match) == {}
    services.approve(ruling, users["chief"], approved=True)
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FORFEIT, match.ns)
    assert adjustments_.hand_adjustments(match)[1]["forfeit"]["winner"] == "NS"


def test_a_lateness_forfeit_applies_without_approval(table):
    """000 第十七条（一）: 迟到超过5分钟，算该方弃权，其对手获胜 — automatic, nothing to approve."""
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "late", "EW", minutes=6)
    assert not ruling.sanction["needs_approval"]
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FORFEIT, match.ns)


def test_an_automatic_forfeit_is_voided_by_a_chief_only_and_the_match_reopens(table):
    """000 第十七条（一） applies at once; the chief referee can still void it (a wrong time, a wrong table)."""
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "late", "EW", minutes=5, seconds=30)
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FORFEIT, match.ns)
    with pytest.raises(ForbiddenError):
        services.void_ruling(ruling, users["referee"], "看错表")
    services.void_ruling(ruling, users["chief"], "看错表")
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.SCHEDULED, None)


def test_both_sides_late_both_forfeit_and_nobody_wins(table):
    """000 第十七条（一）: each side more than 5 minutes late forfeits; both forfeit, nobody wins."""
    match, users = table
    for side in ("NS", "EW"):
        services.record_ruling(match, users["referee"], "late", side, minutes=7)
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FORFEIT, None)


def test_the_proposer_cannot_approve_and_a_decision_is_taken_once(table, make_user):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "cheating", "NS")     # a table referee proposes
    with pytest.raises(ForbiddenError):
        services.approve(ruling, users["referee"])
    services.approve(ruling, users["chief2"], approved=False, note="证据不足")
    assert ledger_.match_entries(match)[0].state == ledger_.REJECTED
    with pytest.raises(services.RulingError):
        services.approve(ruling, make_user("chief_referee"), approved=True)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


def test_nothing_to_approve_for_a_warning(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "delay", "NS")
    with pytest.raises(services.RulingError):
        services.approve(ruling, users["chief"])


def test_the_other_side_chooses_and_the_choice_is_applied(make_match, make_user):
    match = make_match("two-deck-standard")
    referee = make_user("table_referee")
    ruling = services.record_ruling(match, referee, "hidden_card", "NS", role="defenders")
    assert ruling.sanction["pending_choice"] and set(ruling.sanction["options"]) == {"step_down", "40"}
    assert ledger_.match_entries(match)[0].state == ledger_.PENDING
    assert adjustments_.hand_adjustments(match) == {}
    with pytest.raises(services.RulingError):
        services.record_choice(ruling, referee, "NS", "40")  # the offender does not choose
    with pytest.raises(services.RulingError):
        services.record_choice(ruling, referee, "EW", "nonsense")
    services.record_choice(ruling, referee, "EW", "40")
    entry = ledger_.match_entries(match)[0]
    assert entry.state == ledger_.IN_FORCE and entry.sanction.points == 40
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == -40
    with pytest.raises(services.RulingError):
        services.record_choice(ruling, referee, "EW", "step_down")


def test_late_first_hand_points_go_to_hand_one(make_match, make_user):
    match = make_match("two-deck-standard")
    ruling = services.record_ruling(match, make_user("chief_referee"), "late", "EW", minutes=8, hand_number=3)
    assert ruling.hand_number == 1 and ruling.sanction["points"] == 20


def test_assigning_a_referee_never_to_a_table_of_their_own_unit(table):
    from tournament.competition.referees import assign_referee, set_referee_unit

    match, users = table
    assign_referee(match, users["other_referee"])
    assert match.referees.filter(pk=users["other_referee"].pk).exists()
    set_referee_unit(match.round.stage.event, users["chief"], match.ns.unit)
    with pytest.raises(UserError) as caught:
        assign_referee(match, users["chief"])
    assert caught.value.field == "referee"
    with pytest.raises(UserError) as caught:
        assign_referee(match, users["arbiter"])      # not a referee
    assert caught.value.field == "referee"


def test_demo_rulings_are_idempotent(table, make_user):
    from demo.rulings import seed_rulings

    match, users = table
    make_user("chief_referee", username="chief")
    event = match.round.stage.event
    first = seed_rulings(event)
    again = seed_rulings(event)
    assert [r.pk for r in first] == [r.pk for r in again] and len(first) == 3
    assert [e.state for e in ledger_.match_entries(match)] == ["in_force", "in_force", "void"]
