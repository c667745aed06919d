"""Issue 45 item 3: 000's sanction awards at level 2 (organiser choice ``award_at_two``).

000 第十七条（六）"如果是台下方，得分无效，且台上方升5级" and （三）"庄家方升两级" write one exception, at A and J: "如在打A
或J时，台上方自动降至J或2，台下方不再升级"; every side starts at 2. So by default (``full``) an award at 2 applies in full:
both sides at 2, the defenders' established hidden card → declarers 2 → 7. The reading ``hold`` keeps issue 28's
stop at 2. The readings at J and A (``award_at_must_play``: stop, pass) keep their meaning. A version stored
before the choice holds an award at 2 as it did, so events already played replay as recorded.
"""
import copy

import pytest

from rulings import services
from rulings.engine import PenaltyLedger
from scoring.engine import MatchState
from scoring.models import RuleProfile
from scoring.profile_store import latest_profile
from scoring.profiles import load_profile
from scoring.replay_check import check_event, check_match
from tests.conftest import login
from tournament.events import rule_choices

SZ = "shenzhen-community"


def awarded(ns, ew, code, side, choices=None, **inputs):
    profile = load_profile(SZ, choices=choices)
    sanction = PenaltyLedger(profile).record(code, side, **inputs)
    state = MatchState.new(profile, levels={"NS": ns, "EW": ew}, declarer="N")
    return state.award(**sanction.effect.award_kwargs(state.levels["NS"], sanction.explanation))


def test_the_defenders_hidden_card_at_2_gives_the_declarers_five():
    """000 第十七条（六）"如果是台下方，得分无效，且台上方升5级": both at 2 → NS 2 → 7 (default ``full``)."""
    assert load_profile(SZ).reading("award_at_two") == "full"
    state = awarded("2", "2", "hidden_card", "EW", choice="established", role="defenders")
    assert state.levels == {"NS": "7", "EW": "2"}
    held = awarded("2", "2", "hidden_card", "EW", {"award_at_two": "hold"}, choice="established", role="defenders")
    assert held.levels == {"NS": "2", "EW": "2"}


def test_card_count_and_the_defenders_award_at_2():
    """000 第十七条（三）"错误家为防守方则庄家方升两级": declarers at 2 → 4; the declarers' offence gives the
    defenders at 2 their level ("对方升一级"): 2 → 3; ``hold`` keeps both at 2."""
    assert awarded("2", "6", "card_count", "EW", role="defenders").levels == {"NS": "4", "EW": "6"}
    assert awarded("6", "2", "card_count", "NS", role="declarers").levels["EW"] == "3"
    assert awarded("6", "2", "card_count", "NS", {"award_at_two": "hold"}, role="declarers").levels["EW"] == "2"


@pytest.mark.parametrize("reading, ns", [("stop", "J"), ("pass", "K")])
def test_the_readings_at_j_keep_their_meaning(reading, ns):
    """第十四条 "2，J，A为必打牌" with 第十七条（三）: at J the named readings of ``award_at_must_play`` still decide."""
    state = awarded("J", "6", "card_count", "EW", {"award_at_must_play": reading}, role="defenders")
    assert state.levels["NS"] == ns


def _older_version():
    """The shenzhen profile as stored before the choice: no ``always_leave``, no ``award_at_two``."""
    data = copy.deepcopy(latest_profile(SZ).data)
    del data["must_play"]["awards"]["always_leave"]
    data["organiser_defaults"] = [e for e in data["organiser_defaults"]
                                  if not (isinstance(e, dict) and e.get("choice") == "award_at_two")]
    return RuleProfile.add_version(SZ, name=data["name"], data=data, source="older")


@pytest.mark.django_db
@pytest.mark.parametrize("reading, ns", [(None, "7"), ("hold", "2")])
def test_through_the_services(make_match, make_user, reading, ns):
    """000 第十七条（六）through the rulings service: the first hand, both at 2, EW's established hidden card."""
    match = make_match(SZ)
    referee, organiser = make_user("table_referee"), make_user("organiser")
    match.referees.add(referee)
    if reading:
        rule_choices.set_choices(match.round.stage.event, organiser, {"award_at_two": reading})
        match.refresh_from_db()
    services.record_ruling(match, referee, "hidden_card", "EW", choice="established", role="defenders",
                           hand_number=1, declarer="N")
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == (ns, "2")
    assert check_match(match) == []


@pytest.mark.django_db
def test_an_event_on_an_older_version_keeps_its_reading_and_replays_as_recorded(make_match, make_user):
    """A version stored before the choice reads as it did (the award held at 2); verify_replay agrees."""
    older = _older_version()
    assert load_profile(SZ).reading("award_at_two") == "full"
    match = make_match(SZ)
    event = match.round.stage.event
    event.profile = older
    event.save(update_fields=["profile"])
    match.profile = older
    match.save(update_fields=["profile"])
    referee = make_user("table_referee")
    match.referees.add(referee)
    services.record_ruling(match, referee, "hidden_card", "EW", choice="established", role="defenders",
                           hand_number=1, declarer="N")
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("2", "2")
    checked, mismatches = check_event(event)
    assert checked and mismatches == []


@pytest.mark.browser
def test_the_console_at_390_px(transactional_db, live_server, page, make_user, make_match):
    """The referee enters 000 第十七条（六）on the console at 390 px: NS 2 → 7."""
    page.set_viewport_size({"width": 390, "height": 844})
    match = make_match(SZ)
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/console/")
    page.click("button.offence[data-code=hidden_card]")
    page.check("input[name=side][value=EW]")
    page.check("input[name=choice][value=established]")
    page.check("input[name=role][value=defenders]")
    page.select_option("select[name=declarer]", "N")
    page.wait_for_selector("#preview:has-text('升5级')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="var/test/issue45_award_at_two_390.png", full_page=True)
    page.click("#confirm")
    page.wait_for_selector("#status.saved, #status.error")
    assert "已保存" in page.inner_text("#status"), page.inner_text("#status")
    page.screenshot(path="var/test/issue45_award_at_two_saved_390.png", full_page=True)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("7", "2")
