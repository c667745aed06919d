"""An English page shows no Chinese explanation text for any engine line: a match with hands (one stored before
the engines gave items, corrected since), a penalty, an award decided by a sanction and a match loss approved by
the chief referee, on the table page, the penalty log and the result sheet. The Chinese pages read the engines'
own Chinese."""
import re
from html import unescape

import pytest
from django.urls import reverse
from django.utils import translation

from infra import clock
from rulings import services as rulings
from scoring import services as scoring
from scoring.engine.lines import chinese_lines
from scoring.models import Hand
from tournament.printouts.results import _hands

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
LEGACY = ["防家得分40，庄家方升2级：2→4", "下一副由S坐庄（N的对家）"]   # a row stored before the items


def _explanations(html):
    """The explanation texts of the table page: each hand's lines and the superseded versions' lines."""
    found = re.findall(r'<ol class="explanation">(.*?)</ol>', html, re.S)
    found += re.findall(r"<del>(.*?)</del>", html, re.S)
    return [unescape(re.sub(r"<[^>]+>", " ", part)) for part in found]


@pytest.fixture
def played(table):
    match, users = table
    referee, chief = users["referee"], users["chief"]
    Hand.objects.create(match=match, number=1, declarer_seat="N", trump="S", defender_points=40,
                        level_played="2", declarer_keeps=True, ns_level="4", ew_level="2", next_declarer="S",
                        explanation=LEGACY, recorded_by=referee, recorded_at=clock.now())
    scoring.correct_last_hand(match, referee, number=1, trump="S", defender_points=40, declarer="N")
    rulings.record_ruling(match, referee, "exposed_card", "EW", hand_number=2, choice="major")
    scoring.record_hand(match, referee, number=2, trump="H", defender_points=80,
                        last_trick={"by": "defenders", "shape": "pair"}, bottom_points=10)
    rulings.record_ruling(match, referee, "wrong_bury", "NS", role="declarers", hand_number=3)
    for _ in range(3):
        last = rulings.record_ruling(match, referee, "delay", "EW", choice="violation", hand_number=4)
    rulings.approve(last, chief)
    match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_english_pages_show_no_chinese_explanation(client, played):
    match = played
    assert [line for hand in match.hands.order_by("version") for line in hand.explanation][:2] == LEGACY
    assert all(isinstance(line, dict) for line in match.hands.get(version=2).explanation)   # new rows: items
    client.cookies["django_language"] = "en"
    html = client.get(f"/tables/{match.pk}/").content.decode()
    shown = _explanations(html)
    assert shown and "wins the match" in " ".join(shown) and "(approved)" in " ".join(shown), shown
    assert not [part for part in shown if CJK.search(part)], shown
    assert "Defenders' points 40: the declarers go up 2: 2→4" in " ".join(shown)   # the stored row, read back
    log = client.get(reverse("match_penalty_log", args=[match.pk])).content.decode()
    cells = [unescape(re.sub(r"<[^>]+>", " ", cell))
             for cell in re.findall(r'<td class="explanation"[^>]*>(.*?)</td>', log, re.S)]
    assert len(cells) == 5 and not [cell for cell in cells if CJK.search(cell)], cells
    with translation.override("en"):
        sheet = [hand.explanation for hand in _hands(match)]
    assert sheet and not [text for text in sheet if CJK.search(text)], sheet


@pytest.mark.django_db
def test_chinese_pages_read_the_engines_chinese(client, played):
    match = played
    html = unescape(client.get(f"/tables/{match.pk}/").content.decode())
    current = match.hands.get(version=2)
    assert "下一副由南坐庄（北的对家）" in html and chinese_lines(current.explanation)[0] in html
    assert "判负（已核准）" in html and "判东西" not in html and "判南北获胜" in html
    log = unescape(client.get(reverse("match_penalty_log", args=[match.pk])).content.decode())
    assert "判负（已核准）" in log and "待裁判长核准" not in log
