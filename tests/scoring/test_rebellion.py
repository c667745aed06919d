"""004 二.7 (both versions): 进攻方一人手中不足15分（含15分）时，可造反。确认造反后，应重新起牌，由造反者洗牌并先起牌，
由上家切牌；双方抢庄，一方亮主后，可反主，但不能反庄.

A 造反 is an entry of its own in the hand record (``Hand.outcome`` "rebel": who called it, who won the new
bidding), replayed in order with the hands (``MatchState.rebel``); the rotation contract of ``play`` stays (an
out-of-turn declarer is refused). "应重新起牌": the deal is redone, so the abandoned deal is no hand: the entry
takes the number of the deal it precedes (the deal played after it is that hand), scores nothing and never
counts among the hands after an announcement. The issue's example: NS at 7 declaring, EW at 4, N due to declare
hand 4; West calls 造反 and East wins the new bidding: "hand 4 is played with EW on stage at 4, and the
abandoned deal is no hand (it scores nothing and does not count toward the hands left after an
announcement)"."""
import pytest
from rest_framework.test import APIClient

from common.errors import UserError
from scoring import services
from scoring.engine import MatchState
from scoring.models import Hand
from scoring.profiles import load_profile
from scoring.replay_check import check_event
from tests.conftest import SEEDS, login
from tournament import roles
from tournament.engines import clock as arithmetic

CLAUSE = "进攻方一人手中不足15分（含15分）时，可造反。确认造反后，应重新起牌，由造反者洗牌并先起牌，由上家切牌；双方抢庄，一方亮主后，可反主，但不能反庄"


def test_the_clause_is_quoted_from_the_original():
    original = next(SEEDS.glob("004_*.txt"), None)
    if original is None:
        pytest.skip("the seeds are not on this machine")
    assert original.read_text(encoding="utf-8").count(CLAUSE) == 2     # both versions of 004


@pytest.mark.parametrize("slug,allowed", [("company-league", True), ("company-league-2008", True),
                                          ("shenzhen-community", False), ("two-deck-standard", False),
                                          ("union-games", False)])
def test_which_rules_allow_it_is_the_profiles_data(slug, allowed):
    assert load_profile(slug).rebellion is allowed


def test_the_engine_gives_the_stage_to_the_new_bids_winner_at_their_own_level():
    """NS at 7 declaring, EW at 4, N due: EW call 造反 and East wins the new bidding."""
    state = MatchState.new(load_profile("company-league"), levels={"NS": "7", "EW": "4"}, declarer="N")
    after = state.rebel(caller_side="EW", winner_seat="E")
    assert after.declarer == "E" and after.levels == {"NS": "7", "EW": "4"}
    entry = after.hands[-1]
    assert entry.kind == "rebel" and entry.defender_points is None and entry.next_declarer == "E"
    assert after.hand_count == state.hand_count == 0              # 应重新起牌: the abandoned deal is no hand
    assert entry.declarer_seat == "N" and not entry.declarer_keeps
    played = after.play(defender_points=30)                 # EW declare at 4: +2
    assert played.levels == {"NS": "7", "EW": "6"} and played.hands[-1].declarer_seat == "E"
    with pytest.raises(UserError) as refused:                # the rotation contract of play stays
        state.play(defender_points=30, declarer="E")
    assert refused.value.field == "declarer"
    kept = state.rebel(caller_side="EW", winner_seat="S")     # the declarers won the bidding: their level
    assert kept.declarer == "S" and kept.hands[-1].declarer_keeps and kept.levels == {"NS": "7", "EW": "4"}


def test_the_engine_refuses_the_declarers_other_rules_and_the_first_hand():
    state = MatchState.new(load_profile("company-league"), levels={"NS": "7", "EW": "4"}, declarer="N")
    with pytest.raises(UserError) as refused:
        state.rebel(caller_side="NS", winner_seat="E")
    assert refused.value.field == "called_by"
    with pytest.raises(UserError) as refused:
        MatchState.new(load_profile("company-league")).rebel(caller_side="EW", winner_seat="E")
    assert refused.value.field == "declarer"
    other = MatchState.new(load_profile("shenzhen-community"), levels={"NS": "7", "EW": "4"}, declarer="N")
    with pytest.raises(UserError) as refused:
        other.rebel(caller_side="EW", winner_seat="E")
    assert refused.value.field == "outcome"


def test_a_rebellion_holds_no_number_after_an_announcement():
    """The abandoned deal is no hand: a 造反 moves the last hand nowhere (the deal after it is the same hand), and
    a redeal after it is numbered as the hand it is (redeals not counted: the last hand moves on for it)."""
    kinds = ["hand", "hand", "hand", "rebel", "hand"]
    assert arithmetic.last_hand_in_force(5, 3, kinds, redeals_count=True) == 5
    assert arithmetic.last_hand_in_force(5, 3, kinds, redeals_count=False) == 5
    assert arithmetic.last_hand_in_force(5, 3, ["hand", "redeal"], redeals_count=True) == 5
    # the redeal is hand 2 (before the announcement's hand 3), not the second entry after a 造反
    assert arithmetic.last_hand_in_force(5, 3, ["hand", "rebel", "redeal", "hand"], redeals_count=False) == 5
    assert arithmetic.last_hand_in_force(5, 3, ["hand", "hand", "rebel", "redeal"], redeals_count=False) == 6


@pytest.fixture
def company(db, make_user):
    from demo.hands import scratch_match

    referee = make_user(roles.TABLE_REFEREE)
    return scratch_match("company-league", referees=[referee]), referee


def _to_seven_four(match, referee):
    """NS at 7 declaring, EW at 4, N due to declare hand 4."""
    services.record_hand(match, referee, number=1, trump="S", defender_points=30, declarer="E")   # EW 2→4, W next
    services.record_hand(match, referee, number=2, trump="S", defender_points=160)               # NS 2→4, S next
    written = services.record_hand(match, referee, number=3, trump="S", defender_points=0)        # NS 4→7, N next
    assert written.replay.state.levels == {"NS": "7", "EW": "4"} and written.replay.state.declarer == "N"


def test_the_service_records_a_rebellion_and_the_next_hand_is_east_at_four(company):
    """The issue's example through the service: the 造反 is entered as hand 4's, and hand 4 is then played by
    East with EW on stage at 4 (应重新起牌；双方抢庄); ``verify_replay`` agrees."""
    match, referee = company
    _to_seven_four(match, referee)
    written = services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    hand = written.hand
    assert (hand.number, hand.outcome, hand.called_by, hand.bid_winner, hand.trump, hand.final_points) == \
        (4, "rebel", "W", "E", "", None)
    assert hand.declarer_seat == "N" and hand.next_declarer == "E"
    assert written.replay.state.declarer == "E" and written.replay.state.hands[-1].kind == "rebel"
    assert written.replay.next_number == 4 and written.replay.state.hand_count == 3   # no hand consumed
    with pytest.raises(UserError) as refused:                       # hand 5 is not next: hand 4 is
        services.record_hand(match, referee, number=5, trump="H", defender_points=30)
    assert refused.value.field == "number"
    with pytest.raises(UserError):                                 # the rotation names E now, not N
        services.record_hand(match, referee, number=4, trump="H", defender_points=30, declarer="N")
    played = services.record_hand(match, referee, number=4, trump="H", defender_points=30)
    assert played.hand.declarer_seat == "E" and played.hand.level_played == "4" and played.hand.number == 4
    assert played.replay.state.levels == {"NS": "7", "EW": "6"} and played.replay.next_number == 5
    assert [(h.number, h.outcome) for h in Hand.objects.filter(match=match).order_by("pk")] == \
        [(1, "played"), (2, "played"), (3, "played"), (4, "rebel"), (4, "played")]
    assert check_event(match.round.stage.event)[1] == []


def test_a_second_rebellion_of_the_same_deal_shares_its_number_too(company):
    """The new declarers' opponents may call it in the redone deal as well: still hand 4, in order."""
    match, referee = company
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    again = services.record_hand(match, referee, number=4, outcome="rebel", called_by="N", declarer="S")
    assert again.replay.state.declarer == "S" and again.replay.next_number == 4
    played = services.record_hand(match, referee, number=4, trump="H", defender_points=30)
    assert played.hand.declarer_seat == "S" and played.replay.state.levels == {"NS": "9", "EW": "4"}
    assert check_event(match.round.stage.event)[1] == []


def test_the_service_refuses_a_rebellion_by_the_declarers_and_under_other_rules(company, make_user):
    from demo.hands import scratch_match

    match, referee = company
    _to_seven_four(match, referee)
    with pytest.raises(UserError) as refused:
        services.record_hand(match, referee, number=4, outcome="rebel", called_by="S", declarer="E")
    assert refused.value.field == "called_by" and Hand.objects.filter(match=match).count() == 3
    other = scratch_match("shenzhen-community", referees=[referee])
    services.record_hand(other, referee, number=1, trump="S", defender_points=45, declarer="N")
    with pytest.raises(UserError) as refused:
        services.record_hand(other, referee, number=2, outcome="rebel", called_by="E", declarer="E")
    assert refused.value.field == "outcome"


def test_a_rebellion_can_be_corrected_like_the_last_hand(company):
    match, referee = company
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    fixed = services.correct_last_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="W")
    assert fixed.hand.version == 2 and fixed.replay.state.declarer == "W" and fixed.replay.next_number == 4
    assert check_event(match.round.stage.event)[1] == []
    undone = services.correct_last_hand(match, referee, number=4, trump="H", defender_points=30)   # no 造反 after all
    assert undone.hand.version == 3 and undone.hand.outcome == "played" and undone.hand.declarer_seat == "N"
    assert undone.replay.state.levels == {"NS": "9", "EW": "4"} and undone.replay.next_number == 5
    assert check_event(match.round.stage.event)[1] == []


def test_a_rebellion_then_the_deal_then_a_correction_of_the_deal(company):
    """造反, then hand 4 played by East, then hand 4 corrected: the correction is the deal's, the 造反 stays
    before it, and East still declares it at EW's 4."""
    match, referee = company
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    services.record_hand(match, referee, number=4, trump="H", defender_points=30)
    fixed = services.correct_last_hand(match, referee, number=4, trump="H", defender_points=0)   # EW 4→7
    assert (fixed.hand.number, fixed.hand.version, fixed.hand.declarer_seat, fixed.hand.level_played) == \
        (4, 2, "E", "4")
    assert fixed.hand.supersedes.outcome == "played"
    assert fixed.replay.state.levels == {"NS": "7", "EW": "7"} and fixed.replay.next_number == 5
    assert [h.kind for h in fixed.replay.state.hands] == ["hand", "hand", "hand", "rebel", "hand"]
    with pytest.raises(UserError) as refused:         # the deal keeps its number: it never becomes a 造反
        services.correct_last_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    assert refused.value.field == "outcome"
    assert check_event(match.round.stage.event)[1] == []
    services.record_hand(match, referee, number=5, trump="S", defender_points=60)
    assert check_event(match.round.stage.event)[1] == []


def test_the_api_records_a_rebellion_and_lists_it(company):
    match, referee = company
    _to_seven_four(match, referee)
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/matches/{match.pk}/hands/"
    missing = api.post(url, {"number": 4, "outcome": "rebel", "declarer": "E"}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "called_by"
    answer = api.post(url, {"number": 4, "outcome": "rebel", "called_by": "W", "declarer": "E"}, format="json")
    assert answer.status_code == 201
    body = answer.json()
    assert (body["hand"]["outcome"], body["hand"]["called_by"], body["hand"]["bid_winner"]) == ("rebel", "W", "E")
    state = body["state"]
    assert state["declarer"] == "E" and state["hands"][-1]["kind"] == "rebel" and state["next_number"] == 4
    assert state["levels"] == {"NS": "7", "EW": "4"} and state["hands"][-1]["number"] == 4
    history = api.get(url).json()
    assert history[-1]["outcome"] == "rebel" and history[-1]["called_by"] == "W" and history[-1]["number"] == 4
    played = api.post(url, {"number": 4, "trump": "H", "defender_points": 30}, format="json")
    assert played.status_code == 201
    state = played.json()["state"]
    assert [(h["number"], h["kind"]) for h in state["hands"]] == [(1, "hand"), (2, "hand"), (3, "hand"),
                                                                  (4, "rebel"), (4, "hand")]
    assert state["hands"][-1]["declarer_seat"] == "E" and state["hands"][-1]["level_played"] == "4"
    assert state["levels"] == {"NS": "7", "EW": "6"} and state["next_number"] == 5
    assert [(h["number"], h["outcome"]) for h in api.get(url).json()][-2:] == [(4, "rebel"), (4, "played")]
    again = api.post(url, {"number": 4, "trump": "H", "defender_points": 30}, format="json")
    assert again.status_code == 409                      # hand 4 is recorded: the number is taken
    fixed = api.post(f"{url}4/correct/", {"trump": "H", "defender_points": 40}, format="json")
    assert fixed.status_code == 201 and fixed.json()["hand"]["version"] == 2
    assert fixed.json()["hand"]["outcome"] == "played" and fixed.json()["state"]["levels"] == {"NS": "7", "EW": "5"}



def test_the_hands_left_after_an_announcement_do_not_count_the_abandoned_deal(company):
    """Announced with hand 4 about to be played and two hands after it (the last hand 5): the 造反 leaves two
    hands left; hand 4 played leaves one, hand 5 none, and a hand 6 is refused."""
    from django.utils import timezone

    from tournament.clocks import services as clock_services
    from tournament.models import HandAllowance

    match, referee = company
    _to_seven_four(match, referee)
    HandAllowance.objects.create(match=match, reason=HandAllowance.Reason.ANNOUNCE, hand_in_play=4, last_hand=5,
                                 fired_at=timezone.now(), in_play_counted=True, in_play_by_rule=True,
                                 redeals_count=True)

    def left():
        match.refresh_from_db()
        return clock_services.hands_left(match)

    assert left() == 2
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    assert left() == 2                                   # the abandoned deal counts toward nothing
    services.record_hand(match, referee, number=4, trump="H", defender_points=30)
    assert left() == 1
    services.record_hand(match, referee, number=5, trump="H", defender_points=30)
    assert left() == 0
    with pytest.raises(services.HandConflict):
        services.record_hand(match, referee, number=6, trump="H", defender_points=30)
    assert check_event(match.round.stage.event)[1] == []


def test_a_rebellion_travels_with_the_event_file(company):
    """The event file (``tournament.transfer``) carries the entry: the imported match replays the same."""
    from tournament.transfer import codec
    from tournament.transfer.services import export_event, import_event

    match, referee = company
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    services.record_hand(match, referee, number=4, trump="H", defender_points=30)
    event = match.round.stage.event
    moved = import_event(codec.dumps(export_event(event)), slug=f"{event.slug}-moved").event
    entry = Hand.objects.get(match__round__stage__event=moved, number=4, outcome="rebel")
    assert (entry.outcome, entry.called_by, entry.bid_winner, entry.next_declarer) == ("rebel", "W", "E", "E")
    assert check_event(moved)[1] == []


def test_an_export_made_when_a_rebellion_held_its_own_number_still_imports_and_replays(company):
    """A file written before the 造反 shared the deal's number (the 造反 hand 4, the deal after it hand 5)
    imports, replays the same (``verify_replay`` agrees) and goes on from hand 6."""
    from tournament.models import Match
    from tournament.records.adjustments import match_replay
    from tournament.transfer import codec
    from tournament.transfer.services import export_event, import_event

    match, referee = company
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    services.record_hand(match, referee, number=4, trump="H", defender_points=30)
    event = match.round.stage.event
    payload = export_event(event)
    data = payload["data"]
    for row in data["tables"]["scoring.hand"]:
        if row["number"] == 4 and row["outcome"] == "played":
            row["number"] = 5                      # as the file was written then
    older = codec.envelope(event.slug, data, timezone_now())
    moved = import_event(codec.dumps(older), slug=f"{event.slug}-old").event
    assert check_event(moved)[1] == []
    old_match = Match.objects.get(round__stage__event=moved)
    done = match_replay(old_match)
    assert done.state.levels == {"NS": "7", "EW": "6"} and done.next_number == 6 and done.state.hand_count == 5
    assert [h.kind for h in done.state.hands] == ["hand", "hand", "hand", "rebel", "hand"]
    services.record_hand(old_match, referee, number=6, trump="S", defender_points=30)   # EW 6→8
    assert match_replay(old_match).state.levels == {"NS": "7", "EW": "8"}
    assert check_event(moved)[1] == []


def timezone_now():
    from django.utils import timezone

    return timezone.now()


def test_the_score_and_result_sheets_print_the_rebellion_under_the_deals_number(company):
    """The score sheet lists the 造反 under hand 4 before the deal, and its first blank row is hand 4 while that
    deal is still to be played; the result sheet pairs each entry with its own row."""
    from django.utils import translation

    from tournament.printouts import results as result_sheets
    from tournament.printouts import scoresheets
    from tournament.printouts.common import PrintOptions

    match, referee = company
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    event = match.round.stage.event
    with translation.override("zh-hans"):
        rows = scoresheets.collect(event, PrintOptions(match=match.pk)).sheets[0].hands
        assert [(h.number, h.rebellion) for h in rows] == [(1, False), (2, False), (3, False), (4, True)]
        assert rows[-1].trump == "造反" and rows[-1].defender_points == ""
        services.record_hand(match, referee, number=4, trump="H", defender_points=30, bottom_points=10)
        printed = result_sheets.collect(event, PrintOptions(match=match.pk)).sheets[0].hands
    assert [(h.number, h.trump, h.bottom) for h in printed][-2:] == [(4, "造反", ""), (4, "红心", "10")]
    assert printed[-1].ew_after == "6"


@pytest.mark.browser
def test_the_table_page_records_a_rebellion_at_390px(transactional_db, live_server, page, make_user, tmp_path):
    from demo.hands import scratch_match

    page.set_viewport_size({"width": 390, "height": 844})
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match("company-league", referees=[referee])
    _to_seven_four(match, referee)
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    form = page.locator("#rebel-form")
    assert form.is_visible() and "造反" in form.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    form.locator("button[type=submit]").click()                 # nothing chosen: said by the fields, not sent
    assert page.locator("#error-rebel-called_by").is_visible() and page.locator("#error-rebel-declarer").is_visible()
    assert Hand.objects.filter(match=match).count() == 3
    assert page.locator("#rebel-form select[name=called_by] option[value=N]").count() == 0   # the attackers only
    form.locator("select[name=called_by]").select_option("W")
    form.locator("select[name=declarer]").select_option("E")
    page.on("dialog", lambda dialog: dialog.accept())
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.querySelectorAll('#table-history article.hand').length === 4")
    assert "造反" in page.inner_text("#table-history") and "东" in page.inner_text("#declarer-line")
    assert page.inner_text("#level-NS") == "7" and page.inner_text("#level-EW") == "4"
    # 应重新起牌: the abandoned deal is no hand, so the form still records hand 4 (the 造反 listed under it)
    assert page.inner_text("#form-title") == "第4副"
    assert page.locator("#table-history article.hand[data-number='4']").count() == 1
    assert page.locator("#hand-form").get_attribute("data-next") == "4"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="/tmp/rebel-rebellion.png", full_page=True)
    page.select_option("#hand-form select[name=trump]", "H")
    page.fill("#hand-form input[name=defender_points]", "30")
    page.click("#hand-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#table-history article.hand').length === 5")
    assert page.inner_text("#level-EW") == "6" and page.inner_text("#level-NS") == "7"
    assert page.locator("#table-history article.hand[data-number='4']").count() == 2
    assert page.inner_text("#form-title") == "第5副"
    hand = Hand.objects.get(match=match, number=4, outcome="played")
    assert hand.declarer_seat == "E" and hand.level_played == "4"      # hand 4: EW on stage at 4
    assert not Hand.objects.filter(match=match, number=5).exists()
    assert check_event(match.round.stage.event)[1] == []


def test_a_database_written_when_a_rebellion_held_its_own_number_migrates_and_replays(transactional_db, make_user):
    """A database whose 造反 took hand 4 and whose deal after it is hand 5 (as stored before the 造反 shared the
    deal's number) migrates: its rows stay, the kept state of that match is dropped (a cache), ``verify_replay``
    finds nothing, and the match goes on from hand 6."""
    from django.core.management import call_command
    from django.db import connection

    from demo.hands import scratch_match
    from scoring.models import MatchSnapshot

    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match("company-league", referees=[referee])
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    deal = services.record_hand(match, referee, number=4, trump="H", defender_points=30).hand
    with connection.cursor() as cursor:      # the row as the earlier writer numbered it, past PostgreSQL's guard
        postgres = connection.vendor == "postgresql"
        if postgres:
            cursor.execute("ALTER TABLE scoring_hand DISABLE TRIGGER scoring_hand_append_only")
        cursor.execute("UPDATE scoring_hand SET number = 5 WHERE id = %s", [deal.pk])
        if postgres:
            cursor.execute("ALTER TABLE scoring_hand ENABLE TRIGGER scoring_hand_append_only")
    assert MatchSnapshot.objects.filter(match=match).exists()
    call_command("migrate", "scoring", "0007_hand_rebellion", verbosity=0)
    call_command("migrate", "scoring", verbosity=0)
    assert not MatchSnapshot.objects.filter(match=match).exists()
    assert sorted(Hand.objects.filter(match=match).values_list("number", "outcome")) == \
        [(1, "played"), (2, "played"), (3, "played"), (4, "rebel"), (5, "played")]
    assert check_event(match.round.stage.event)[1] == []
    after = services.record_hand(match, referee, number=6, trump="S", defender_points=30)
    assert after.replay.state.levels == {"NS": "7", "EW": "8"}
    assert check_event(match.round.stage.event)[1] == []
