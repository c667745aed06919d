"""A sanction's explanation reads in English on an English page: its items rendered from the catalogue, the
offence's name_en from the profile; a profile's own words (notes, option labels) in their twins, else as
written. Chinese pages read it exactly as the engine wrote it. A Chinese text stored before the items (an old
ruling) reads through the legacy reader (``scoring.legacy_explanations``)."""
import pytest
from django.utils import translation

from rulings.presenters import offence_menu
from scoring.explanations import legacy_sanction, ruling_explanation
from scoring.legacy_explanations import english
from scoring.profile_store import latest_profile
from tournament.records.ledger import ledger_for

NAMES = {"扣错底牌": "Wrong bury", "甩错牌": "Failed multiple lead", "拖延比赛时间": "Delaying the game"}


def test_the_engine_phrases_read_in_english_and_unknown_words_stay():
    def same(msgid):
        return msgid

    assert english("庄家方扣错底牌：下台，对方升5级，（打J降至2、打A降至J，对方仍升5级），由下家坐庄", NAMES, same) == (
        "Declarers: Wrong bury: the declarers step down, the other side goes up 5, (on J they drop to 2, on A they "
        "drop to J, the other side still goes up 5), the next seat declares")
    assert english("甩错牌2张：每张罚10分，共罚20分，甩牌不成立，出最小的牌", NAMES, same) == (
        "Failed multiple lead, 2 cards: 10 points per card, 20 points in all, 甩牌不成立，出最小的牌")
    assert english("拖延比赛时间（警告）：同轮第2次警告，记违例一次，判负（待裁判长核准）", NAMES, same) == (
        "Delaying the game (警告): warning 2 in the round, one violation recorded, match lost (awaiting the "
        "chief referee's approval)")
    assert english("裁判长判定", NAMES, same) == "裁判长判定"   # no offence's title: as written


@pytest.mark.django_db
def test_a_ruling_reads_as_stored_in_chinese_and_in_english_on_an_english_page():
    """shenzhen-community 第十七条: 拖延比赛时间 is a warning; the 2nd warning in the round is a violation
    (第十六条)."""
    profile = latest_profile("shenzhen-community")
    ledger = ledger_for(profile)
    sanction = ledger.record("delay", "NS")
    text = sanction.explanation
    with translation.override("zh-hans"):
        assert ruling_explanation(sanction, profile) == text == legacy_sanction(text, profile)
        assert next(o["name"] for o in offence_menu(profile) if o["code"] == "delay") == "拖延比赛时间"
    with translation.override("en"):
        assert ruling_explanation(sanction, profile).startswith("Delaying the game")
        assert ruling_explanation(sanction, profile).endswith(": warning")
        assert legacy_sanction(text, profile) == ruling_explanation(sanction, profile)   # a row stored before
        assert next(o["name"] for o in offence_menu(profile) if o["code"] == "delay") == "Delaying the game"
