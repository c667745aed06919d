"""Issue 28 items 9 and 10: the hands after shenzhen's announcement (000 第十五条 "自宣布之时起手中正在打（已开始
出牌）的这副牌不算，之后各桌必须打满三副牌").

9. A redeal (第五条: nobody declared trump, 重洗重抓) is no hand played: by default it is not one of the three
   (the organiser choice redeal_after_announcement, other reading: it counts).
10. "Was the first lead made?" is asked at the announcement, and the answer given then (while that hand is
   still in play) is taken: a table still dealing plays three hands, not four.
"""
import pytest

from scoring.services import record_hand
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, tables_of  # noqa: F401
from tournament.clocks import display, leads
from tournament.clocks import services as cs
from tournament.engines import clock as clocks
from tournament.events import rule_choices
from tournament.models import Match

SZ = "shenzhen-community"


def _table(make_user, chief, reading=None):
    """A shenzhen table whose clock started, hand 1 played, hand 2 not yet led."""
    rnd = make_round(SZ, tables=1)
    if reading is not None:
        Match.objects.filter(round=rnd).update(status=Match.Status.SCHEDULED)
        rule_choices.set_choices(rnd.stage.event, make_user("organiser"), {"redeal_after_announcement": reading})
        rnd.refresh_from_db()
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    record_hand(table, chief, number=1, trump="S", defender_points=80, declarer="N")
    return rnd, table


def _hand(table, chief, number, **fields):
    table.refresh_from_db()
    return record_hand(table, chief, number=number, **({"trump": "S", "defender_points": 60} | fields))


def _announce(rnd, frozen_now):
    frozen_now.advance(minutes=60)
    cs.fire_due(rnd.pk)


def test_pure_a_redeal_moves_the_last_hand_on_only_when_it_does_not_count():
    """第十五条 之后各桌必须打满三副牌: hand 2 not led (counted) → 2, 3, 4; a redeal at 3 → the 5th is the last."""
    kinds = ["hand", "hand", "redeal"]
    assert clocks.last_hand_in_force(4, 2, kinds, redeals_count=False) == 5
    assert clocks.last_hand_in_force(4, 2, kinds, redeals_count=True) == 4
    assert clocks.last_hand_in_force(5, 2, ["hand", "redeal"], redeals_count=False, in_play_counted=False) == 5


@pytest.mark.django_db
def test_a_redeal_after_the_announcement_is_not_one_of_the_three_by_default(make_user, frozen_now, chief):
    """000 第十五条 "之后各桌必须打满三副牌" with 第五条 "重洗重抓": three hands with a score follow the
    announcement, a redeal among them is dealt again and does not count."""
    rnd, table = _table(make_user, chief)
    assert not table.profile.data.get("choices") and table.profile.data["timing"]["announce"]["redeals_count"] is False
    leads.report_lead(table, chief, hand_number=2, made=False)          # still dealing: hand 2 is the first
    _announce(rnd, frozen_now)
    assert cs.hands_left(table) == 3
    _hand(table, chief, 2, outcome="redeal")
    table.refresh_from_db()
    assert cs.hands_left(table) == 3                                      # still three hands with a score
    for number in (3, 4):
        _hand(table, chief, number)
        table.refresh_from_db()
        assert not table.is_over
    _hand(table, chief, 5)
    table.refresh_from_db()
    assert table.is_over and cs.hands_left(table) == 0
    row = next(r for r in display.round_overview(rnd) if r["match_id"] == table.pk)
    assert (row["last_hand"], row["hands_left"]) == (5, 0)


@pytest.mark.django_db
def test_the_other_reading_counts_a_redeal_among_the_three(make_user, frozen_now, chief):
    """The organiser's other reading of 第十五条: the redealt hand is one of the three."""
    rnd, table = _table(make_user, chief, reading="counted")
    assert table.profile.data["choices"] == {"redeal_after_announcement": "counted"}
    leads.report_lead(table, chief, hand_number=2, made=False)
    _announce(rnd, frozen_now)
    _hand(table, chief, 2, outcome="redeal")
    _hand(table, chief, 3)
    _hand(table, chief, 4)
    table.refresh_from_db()
    assert table.is_over and cs.hands_left(table) == 0


# --- item 10: the answer given at the announcement ---------------------------------------------------------

@pytest.mark.django_db
def test_the_answer_given_after_the_announcement_is_taken(make_user, frozen_now, chief):
    """000 第十五条 "自宣布之时起手中正在打（已开始出牌）的这副牌不算，之后各桌必须打满三副牌": nobody had
    answered when the announcement came (taken as led: hands 2 to 5); the table page asks, the referee answers
    "not led yet" → hand 2 is the first of the three, the match ends after hand 4."""
    rnd, table = _table(make_user, chief)
    assert leads.lead_status(table)["asked"] is False                   # nothing asked before the announcement
    _announce(rnd, frozen_now)
    status = leads.lead_status(table)
    assert status == {"hand_number": 2, "made": True, "reported": False, "asked": True,
                      "over": False}
    assert cs.hands_left(table) == 4
    frozen_now.advance(seconds=20)
    leads.report_lead(table, chief, hand_number=2, made=False)           # the answer given then
    table.refresh_from_db()
    assert cs.hands_left(table) == 3
    row = next(r for r in display.round_overview(rnd) if r["match_id"] == table.pk)
    assert (row["last_hand"], row["hands_left"]) == (4, 3)
    for number in (2, 3):
        _hand(table, chief, number)
        table.refresh_from_db()
        assert not table.is_over
    assert leads.lead_status(table)["asked"] is False                    # hand 3 recorded: nothing to ask
    _hand(table, chief, 4)
    table.refresh_from_db()
    assert table.is_over and cs.hands_left(table) == 0


@pytest.mark.django_db
def test_an_answer_changed_at_the_announcement_to_led_adds_the_hand_back(make_user, frozen_now, chief):
    """第十五条 已开始出牌: "not led" before the announcement, corrected to "led" when it is asked → 2 to 5."""
    rnd, table = _table(make_user, chief)
    leads.report_lead(table, chief, hand_number=2, made=False)
    _announce(rnd, frozen_now)
    assert cs.hands_left(table) == 3
    leads.report_lead(table, chief, hand_number=2, made=True)
    table.refresh_from_db()
    assert cs.hands_left(table) == 4


@pytest.mark.django_db
def test_where_the_rule_counts_the_hand_in_play_nothing_is_asked(make_user, frozen_now, chief):
    """002 三 read as "the hand in play is the one more" (one_more_hand: hand_in_play): no question."""
    rnd = make_round("two-deck-standard", tables=1)
    Match.objects.filter(round=rnd).update(status=Match.Status.SCHEDULED)
    rule_choices.set_choices(rnd.stage.event, make_user("organiser"), {"one_more_hand": "hand_in_play"})
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    record_hand(table, chief, number=1, trump="S", defender_points=80, declarer="N")
    frozen_now.advance(minutes=50)
    cs.fire_due(rnd.pk)
    assert leads.lead_status(table)["asked"] is False and cs.hands_left(table) == 1
    leads.report_lead(table, chief, hand_number=2, made=True)
    assert cs.hands_left(table) == 1
