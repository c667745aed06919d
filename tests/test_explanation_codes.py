"""Both engines explain with items (a code and its values); every page renders them in its language from the
catalogue (``scoring.explanations``). Every code of both engines has a template, reads without Chinese on an
English page and, on a Chinese one, exactly as the engine's own Chinese."""
import re

import pytest
from django.utils import translation

from common.seats import zh_seats
from rulings.engine import explanation_text, phrases, quote
from scoring import explanations
from scoring.engine import lines
from scoring.profile_store import latest_profile
from tournament.records.ledger import ledger_for

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
#: A sample for each value a code may name (the words as codes, the levels and seats as the engine gives them).
SAMPLES = {"who": "defenders", "which": "trump", "side": "NS", "next": "W", "seat": "E", "penalty": "+10",
           "level": "J", "before": "5", "after": "8", "drop": "2", "back": "J", "rank": "J", "high": "A", "low": "J"}
QUOTING = {"reason", "ruling"}   # a caller's text, a quoted sanction: rendered by what they quote


def _values(template):
    return {name: SAMPLES.get(name, 40) for name in re.findall(r"\{(\w+)\}", template)}


def test_every_code_of_both_engines_has_a_template():
    assert set(lines.LINES) - QUOTING == set(explanations.HAND_MESSAGES)
    assert set(phrases.PHRASES) - {"note"} == set(explanations.SANCTION_MESSAGES)


@pytest.mark.parametrize("code", sorted(set(lines.LINES) - QUOTING))
def test_every_hand_code_reads_in_english_and_as_the_engine_writes_it_in_chinese(code):
    line = lines.item(code, **_values(lines.LINES[code]))
    with translation.override("en"):
        english = explanations.hand_line(line)
    assert english and not CJK.search(english), english
    with translation.override("zh-hans"):
        assert explanations.hand_line(line) == zh_seats(lines.chinese(line))


def _phrase_samples():
    for code, template in phrases.PHRASES.items():
        if code == "drops":
            yield phrases.item(code, pairs=[["J", "2"], ["A", "J"]], levels=None)
            yield phrases.item(code, pairs=[["J", "2"]], levels=5)
        elif code == "choose":
            yield phrases.item(code, options=["light", "heavy"], labels=["罚10分", "罚20分"])
        elif code != "note":
            yield phrases.item(code, **_values(template))


@pytest.mark.django_db
@pytest.mark.parametrize("approval", [None, True, False])
def test_every_sanction_code_reads_in_english_and_as_the_engine_writes_it_in_chinese(approval):
    profile = latest_profile("shenzhen-community")
    title = phrases.title_item(offence="delay", name="拖延比赛时间", nth=2, minutes=5, seconds=30, role="declarers")
    for phrase in _phrase_samples():
        items = [title, phrase]
        with translation.override("en"):
            english = explanations.sanction_text(items, profile=profile, approval=approval)
        assert not CJK.search(english.replace("罚10分", "").replace("罚20分", "")), english
        with translation.override("zh-hans"):
            assert explanations.sanction_text(items, profile=profile, approval=approval) == explanation_text(
                items, approval), phrase


@pytest.mark.django_db
def test_every_title_shape_reads_in_english_and_as_the_engine_writes_it_in_chinese():
    profile = latest_profile("shenzhen-community")
    for extra in ({}, {"nth": 3}, {"minutes": 7}, {"minutes": 7, "seconds": 20}, {"cards": 3, "per_card": True},
                  {"cards": 1, "per_card": True}, {"role": "defenders"}, {"role": "declarers", "nth": 2, "minutes": 0}):
        items = [phrases.title_item(offence="delay", name="拖延比赛时间", **extra), phrases.item("warning")]
        with translation.override("en"):
            english = explanations.sanction_text(items, profile=profile)
        assert english.startswith(("Delaying the game", "Declarers: Delaying", "Defenders: Delaying")), english
        assert not CJK.search(english), english
        if extra.get("cards"):
            assert f", {extra['cards']} card{'s' if extra['cards'] > 1 else ''}:" in english, english   # not "1 cards"
        with translation.override("zh-hans"):
            assert explanations.sanction_text(items, profile=profile) == explanation_text(items)


@pytest.mark.django_db
def test_a_quoted_sanction_in_a_hands_explanation_reads_in_the_pages_language_with_its_approval():
    """A match loss approved (or not) reads as decided, from the approval given, in either language."""
    profile = latest_profile("shenzhen-community")
    ledger = ledger_for(profile)
    for _ in range(3):
        sanction = ledger.record("delay", "NS", choice="violation")
    assert "match_forfeit" in sanction.kinds and phrases.AWAITING in sanction.explanation
    for approval, english, chinese in ((True, "(approved)", "（已核准）"), (False, "(not approved)", "（未核准）")):
        line = quote(sanction, approval)
        assert lines.chinese(line) == sanction.explanation.replace(phrases.AWAITING, chinese)
        with translation.override("en"):
            shown = explanations.hand_line(line, profile)
        assert shown.endswith(f"match lost {english}") and not CJK.search(shown), shown
        with translation.override("zh-hans"):
            assert explanations.hand_line(line, profile) == zh_seats(lines.chinese(line))
