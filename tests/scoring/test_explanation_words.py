"""A hand's explanation reads in the page's language. The engine explains with items (a code and its values)
beside its Chinese lines; every item it writes renders from the catalogue (``scoring.explanations``): in
English without Chinese, in Chinese as the engine's line (seats in Chinese). Rows stored before the items keep
their Chinese lines, read back by the one legacy reader (``scoring.legacy_explanations``)."""
import re

from django.utils import translation
from hypothesis import given, settings

from common.seats import zh_seats
from scoring import legacy_explanations as explain
from scoring.engine import LastTrick, MatchState
from scoring.explanations import hand_line
from scoring.profiles import known_profiles, load_profile
from tests.scoring.test_engine_properties import cases, replay

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def _awards_and_redeals(profile):
    """States after awards and redeals of every shape the engine explains, from a few starting levels."""
    out = []
    for levels in ((0, 0), (3, 9), (9, 11), (11, 12)):
        start = MatchState.new(profile).play(declarer="N", defender_points=0)
        for _ in range(levels[0] // 3):
            start = start.play(defender_points=0) if start.winner is None else start
        if start.winner is not None:
            continue
        for kwargs in ({"stage": "keep", "gainer": "declarers", "levels": 2},
                       {"stage": "change", "gainer": "defenders", "levels": 5},
                       {"stage": "keep", "gainer": "EW", "levels": 12, "next_declarer": "partner"},
                       {"stage": "change", "drop_to": profile.ladder[0]}):
            out.append(start.award(**kwargs))
        if profile.rotation_no_trump is not None:
            out.append(start.redeal())
    return out


@settings(max_examples=150, deadline=None)
@given(**cases)
def test_every_line_the_engine_writes_has_a_message(slug, seat, hand_list):
    profile = load_profile(slug)
    states = replay(profile, seat, hand_list)
    for h in states[-1].hands if states else ():
        _reads_in_both_languages(h)


def _reads_in_both_languages(hand):
    """Every item of ``hand`` renders without Chinese in English and as the engine's own line in Chinese; the
    legacy reader still reads each line (a row stored before the items)."""
    assert len(hand.items) == len(hand.explanation)
    with translation.override("en"):
        english = [hand_line(item) for item in hand.items]
    assert not any(CJK.search(line) for line in english), english
    with translation.override("zh-hans"):
        assert [hand_line(item) for item in hand.items] == [zh_seats(line) for line in hand.explanation]
    for line in hand.explanation:
        assert explain.message_of(line) is not None, line


def test_every_award_and_redeal_line_has_a_message():
    for slug in known_profiles():
        for state in _awards_and_redeals(load_profile(slug)):
            _reads_in_both_languages(state.hands[-1])


def test_bottom_captures_and_rank_captures_have_messages():
    for slug in known_profiles():
        profile = load_profile(slug)
        for rank in sorted({rc.rank for rc in profile.rank_captures.values()}) or ["J"]:
            level = rank if rank in profile.ladder else profile.ladder[0]
            state = MatchState.new(profile)
            while state.winner is None and state.levels["NS"] != level:
                state = state.play(declarer="N" if not state.hands else None, defender_points=0)
                if state.declarer and state.declarer not in ("N", "S"):
                    break
            if state.winner is not None or state.declarer not in ("N", "S"):
                continue
            trick = LastTrick("defenders", "pair", 1, True, rank)
            after = state.play(defender_points=40, bottom_points=20, last_trick=trick)
            _reads_in_both_languages(after.hands[-1])


def test_a_stored_line_reads_in_english_on_an_english_page_and_as_written_on_a_chinese_one():
    lines = ["防家得分0，庄家方升4级：2→6", "下一副由W坐庄（E的对家）", "少升6级由庄家方退回：6→2（退至最低级为止）",
             "防家抠底：底分10×8=80，防家得分60→140", "甩错牌：罚10分"]
    with translation.override("en"):
        shown = [hand_line(line) for line in lines]
    assert shown[:4] == ["Defenders' points 0: the declarers go up 4: 2→6",
                         "W declares the next hand (E's partner)",
                         "The 6 levels not gained come off the declarers: 6→2 (down to the lowest level)",
                         "The defenders capture the bottom: 10×8=80, defenders' points 60→140"]
    assert shown[4] == lines[4]     # a sanction's words quoted as an award's reason read as written
    with translation.override("zh-hans"):
        assert [hand_line(line) for line in lines[:2]] == ["防家得分0，庄家方升4级：2→6", "下一副由西坐庄（东的对家）"]


def test_every_message_reads_back_in_chinese_as_the_engine_wrote_it():
    """The catalogue's Chinese of each msgid is the engine's own line (needs `make messages`)."""
    with translation.override("zh-hans"):
        for kind in explain._KINDS:
            values = {name: f"<{name}>" for name in re.findall(r"\{(\w+)\}", kind.chinese)}
            for name, choices in explain._WORD_FIELDS.items():
                if name in values:
                    values[name] = choices[0]
            written = kind.chinese.format(**values)
            words = {name: translation.gettext(word) for name, word in explain.words_of(values).items()}
            assert translation.gettext(kind.message) % {**values, **words} == written
            assert explain.message_of(written)[0] == kind.message


def test_no_english_message_leaves_chinese_in_an_english_line():
    with translation.override("en"):
        for kind in explain._KINDS:
            assert not CJK.search(kind.message), kind.message
        assert not any(CJK.search(word) for word in explain.WORDS.values())

