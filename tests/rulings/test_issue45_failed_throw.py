"""Issue 45 item 2: 003's failed throw, which cards the fine counts (organiser choice ``failed_throw_cards``).

003 二.8（2）"甩错小牌：即别人手中还有更大的牌，甩不下去，则挡一张扣10分（小分），然后出最小的牌" counts the cards blocked;
一.19 "甩错牌一方以每张扣10分计（甩牌者拿回多少张就扣×10分）" counts the cards taken back. ♠A K Q 9 thrown, ♠9
blocked, A K Q taken back: 10 (the default, the penalty clause) or 30. The console says what to count.
"""
import pytest

from rulings import services
from rulings.presenters import offence_menu
from scoring.profiles import load_profile
from tests.conftest import login
from tournament.events import rule_choices

BLOCKED = "被挡住的张数（二.8（2）：挡一张扣10分）"
TAKEN_BACK = "甩牌者拿回的张数（一.19：拿回多少张就扣×10分）"


def cards_label(profile):
    return {o["code"]: o["cards_label"] for o in offence_menu(profile)}["failed_throw"]


def test_the_default_counts_the_blocked_cards_and_either_reading_keeps_the_fine():
    """003 二.8（2）"挡一张扣10分" is the default; 一.19 "拿回多少张就扣×10分" the other reading; 10 a card either way."""
    default = load_profile("union-games")
    assert default.reading("failed_throw_cards") == "blocked"
    assert default.sanctions["offences"]["failed_throw"]["cards"]["label"] == BLOCKED
    other = load_profile("union-games", {"failed_throw_cards": "taken_back"})
    assert other.sanctions["offences"]["failed_throw"]["cards"]["label"] == TAKEN_BACK
    assert other.sanctions["offences"]["failed_throw"]["per_card"] == 10


@pytest.mark.parametrize("picks", [{"failed_throw_fine": "fine", "failed_throw_cards": "taken_back"},
                                   {"failed_throw_cards": "taken_back", "failed_throw_fine": "fine"}])
def test_the_whole_node_reading_does_not_undo_the_count(picks):
    """failed_throw_fine sets the offence's whole node; whatever the picks' order, the count's reading stays."""
    profile = load_profile("union-games", picks)
    assert profile.sanctions["offences"]["failed_throw"]["cards"]["label"] == TAKEN_BACK


def test_the_other_profiles_console_keeps_its_plain_word():
    """Only 003 writes two counts; other profiles' failed throw asks the console's own "张数"."""
    node = load_profile("shenzhen-community").sanctions["offences"]["failed_throw"]
    assert "cards" not in node


@pytest.mark.django_db
@pytest.mark.parametrize("reading, cards, points, label", [(None, 1, 10, BLOCKED), ("taken_back", 3, 30, TAKEN_BACK)])
def test_the_issues_throw_through_the_services(make_match, make_user, client, reading, cards, points, label):
    """♠A K Q 9 thrown, ♠9 blocked, A K Q taken back: 二.8（2）counts 1 card → 10; 一.19 counts 3 → 30. The
    console (its data) says what to count under the event's reading."""
    match = make_match("union-games")
    referee, organiser = make_user("table_referee"), make_user("organiser")
    match.referees.add(referee)
    if reading:
        rule_choices.set_choices(match.round.stage.event, organiser, {"failed_throw_cards": reading})
        match.refresh_from_db()
    ruling = services.record_ruling(match, referee, "failed_throw", "NS", cards=cards, hand_number=1)
    assert ruling.sanction["points"] == points, ruling.sanction
    assert cards_label(match.profile) == label
    client.force_login(referee)
    data = client.get(f"/tables/{match.pk}/console/").context["console"]
    assert {o["code"]: o["cards_label"] for o in data["offences"]}["failed_throw"] == label


@pytest.mark.django_db
def test_the_rule_choices_page_shows_both_counts(make_match, make_user, client):
    match = make_match("union-games")
    organiser = make_user("organiser")
    client.force_login(organiser)
    html = client.get(f"/manage/{match.round.stage.event.slug}/rule-choices/").content.decode()
    assert "二.8（2）（挡一张扣10分）与一.19（甩牌者拿回多少张就扣×10分）" in html
    assert "按二.8（2）罚则计被挡住的张数：甩♠A K Q 9，♠9被挡，扣10分" in html
    assert "按一.19计甩牌者拿回的张数：甩♠A K Q 9，♠9被挡，拿回A K Q，扣30分" in html


@pytest.mark.browser
def test_the_console_asks_for_the_cards_taken_back_on_a_phone(transactional_db, live_server, page, make_user,
                                                                make_match):
    """003 一.19 under the taken_back reading, at 390 px: the console's question names the cards taken back;
    3 cards → 扣30分."""
    page.set_viewport_size({"width": 390, "height": 844})
    match = make_match("union-games")
    referee, organiser = make_user("table_referee"), make_user("organiser")
    match.referees.add(referee)
    rule_choices.set_choices(match.round.stage.event, organiser, {"failed_throw_cards": "taken_back"})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/console/")
    page.click("button.offence[data-code=failed_throw]")
    page.wait_for_selector(f"#cards-label:has-text('{TAKEN_BACK}')")
    page.check("input[name=side][value=NS]")
    page.fill("input[name=cards]", "3")
    page.wait_for_selector("#preview:has-text('30')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="var/test/issue45_failed_throw_390.png", full_page=True)
    page.click("button.offence[data-code=wrong_follow]")
    assert TAKEN_BACK not in page.inner_text("#cards-field")
