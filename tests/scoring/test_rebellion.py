"""004 二.7 (both versions): 进攻方一人手中不足15分（含15分）时，可造反。确认造反后，应重新起牌，由造反者洗牌并先起牌，
由上家切牌；双方抢庄，一方亮主后，可反主，但不能反庄.

A 造反 is an entry of its own in the hand record (``Hand.outcome`` "rebel": who called it, who won the new
bidding), replayed in order with the hands (``MatchState.rebel``); it scores nothing, never counts as a hand
after an announcement, and the rotation contract of ``play`` stays (an out-of-turn declarer is refused)."""
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


def test_a_rebellion_never_counts_after_an_announcement():
    """The abandoned deal is no hand: the last hand moves on past it (redeals counted or not)."""
    kinds = ["hand", "hand", "hand", "rebel", "hand"]
    assert arithmetic.last_hand_in_force(5, 3, kinds, redeals_count=True) == 6
    assert arithmetic.last_hand_in_force(5, 3, kinds, redeals_count=False) == 6
    assert arithmetic.last_hand_in_force(5, 3, ["hand", "redeal"], redeals_count=True) == 5


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
    match, referee = company
    _to_seven_four(match, referee)
    written = services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    hand = written.hand
    assert (hand.outcome, hand.called_by, hand.bid_winner, hand.trump, hand.final_points) == \
        ("rebel", "W", "E", "", None)
    assert hand.declarer_seat == "N" and hand.next_declarer == "E"
    assert written.replay.state.declarer == "E" and written.replay.state.hands[-1].kind == "rebel"
    with pytest.raises(UserError):                                 # the rotation names E now, not N
        services.record_hand(match, referee, number=5, trump="H", defender_points=30, declarer="N")
    played = services.record_hand(match, referee, number=5, trump="H", defender_points=30)
    assert played.hand.declarer_seat == "E" and played.hand.level_played == "4"
    assert played.replay.state.levels == {"NS": "7", "EW": "6"}
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
    assert fixed.hand.version == 2 and fixed.replay.state.declarer == "W"
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
    assert state["declarer"] == "E" and state["hands"][-1]["kind"] == "rebel" and state["next_number"] == 5
    assert state["levels"] == {"NS": "7", "EW": "4"}
    history = api.get(url).json()
    assert history[-1]["outcome"] == "rebel" and history[-1]["called_by"] == "W"



def test_the_allowance_in_force_moves_past_a_rebellion(company):
    """Announced with hand 3 in play and 2 more after it (last hand 4): the 造反 recorded as entry 4 is no hand,
    so the table may still play entry 5 (redeals counted or not: the profile has none)."""
    from types import SimpleNamespace

    from tournament.competition.allowances import in_force
    from tournament.models import HandAllowance

    match, referee = company
    _to_seven_four(match, referee)
    state = services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E").replay.state
    for redeals_count in (True, None, False):
        allowance = SimpleNamespace(reason=HandAllowance.Reason.ANNOUNCE, hand_in_play=3, last_hand=4,
                                    in_play_counted=True, in_play_by_rule=True, redeals_count=redeals_count)
        assert in_force(allowance, state, match).last_hand == 5


def test_a_rebellion_travels_with_the_event_file(company):
    """The event file (``tournament.transfer``) carries the entry: the imported match replays the same."""
    from tournament.transfer import codec
    from tournament.transfer.services import export_event, import_event

    match, referee = company
    _to_seven_four(match, referee)
    services.record_hand(match, referee, number=4, outcome="rebel", called_by="W", declarer="E")
    services.record_hand(match, referee, number=5, trump="H", defender_points=30)
    event = match.round.stage.event
    moved = import_event(codec.dumps(export_event(event)), slug=f"{event.slug}-moved").event
    entry = Hand.objects.get(match__round__stage__event=moved, number=4)
    assert (entry.outcome, entry.called_by, entry.bid_winner, entry.next_declarer) == ("rebel", "W", "E", "E")
    assert check_event(moved)[1] == []


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
    page.screenshot(path="/tmp/f1-rebellion.png", full_page=True)
    page.select_option("#hand-form select[name=trump]", "H")
    page.fill("#hand-form input[name=defender_points]", "30")
    page.click("#hand-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#table-history article.hand').length === 5")
    assert page.inner_text("#level-EW") == "6" and page.inner_text("#level-NS") == "7"
    hand = Hand.objects.get(match=match, number=5)
    assert hand.declarer_seat == "E" and hand.level_played == "4"
    assert check_event(match.round.stage.event)[1] == []
