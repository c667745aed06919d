"""Issue 43 item 15: a lateness forfeit given at hand 2 (hand 1 played, hand 2 not begun) was listed under
第1副 on the table's page; it belongs to hand 2. A forfeit given during a hand played stays with that hand."""
from rulings import services as rulings
from scoring.presenters import state_payload
from tests.tournament.test_clock_fixtures import chief, make_round, play, tables_of  # noqa: F401
from tournament.models import Match


def hands_of(match, user):
    match = Match.objects.get(pk=match.pk)
    return [(hand["number"], hand["kind"]) for hand in state_payload(match, user)["hands"]]


def test_a_lateness_forfeit_before_hand_2_is_listed_under_hand_2(db, chief):  # noqa: F811
    (table,) = tables_of(make_round(tables=1))
    play(table, chief)
    rulings.record_ruling(table, chief, "late", "EW", minutes=40)   # 40 minutes late for hand 2: a forfeit
    assert hands_of(table, chief) == [(1, "hand"), (2, "forfeit")]


def test_a_forfeit_given_at_a_hand_played_stays_with_that_hand(db, chief):  # noqa: F811
    (table,) = tables_of(make_round(tables=1))
    play(table, chief)
    play(table, chief)
    rulings.record_ruling(table, chief, "late", "EW", minutes=40, hand_number=2)
    assert hands_of(table, chief) == [(1, "hand"), (2, "hand"), (2, "forfeit")]
