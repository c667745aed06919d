"""Issue 27 items 14 and 20: Chinese pages name the seats 北/东/南/西 and the sides 南北/东西 (the API and the
stored hands keep N/E/S/W); a bottom of 999 is refused for its range before its last digit."""
import json

import pytest

from common.errors import UserError
from common.seats import zh_seats
from scoring import engine
from scoring.engine.lines import chinese_lines
from scoring.profiles import load_profile
from tests.scoring.test_hands_support import hand_body, match, post_hand, referee  # noqa: F401
from tests.scoring.test_table_page import record


def test_codes_in_chinese_text_become_chinese_names():
    assert zh_seats("下一副由W坐庄（N的下家）") == "下一副由西坐庄（北的下家）"
    assert zh_seats("NS升2级：EW停在A") == "南北升2级：东西停在A"
    assert zh_seats("庄家 S") == "庄家 南"
    assert zh_seats("用主J抠底，Next hand") == "用主J抠底，Next hand"     # letters of words stay


@pytest.mark.django_db
def test_table_page_names_seats_in_chinese_and_the_api_keeps_codes(client, match, referee):
    record(match, referee, 1, 45, declarer="N")
    hand = match.hands.get()
    html = client.get(f"/tables/{match.pk}/").content.decode()
    lines = [line for line in chinese_lines(hand.explanation) if "坐庄" in line]
    assert lines and any(code in lines[0] for code in "NESW")           # stored as the engine wrote it
    assert zh_seats(lines[0]) in html and lines[0] not in html
    assert "庄家 北" in html and "庄家 N" not in html
    state = client.get(f"/api/matches/{match.pk}/state/").json()
    assert state["hands"][0]["declarer_seat"] == "N" and state["declarer"] in "NESW"
    hand.refresh_from_db()
    assert lines[0] in chinese_lines(hand.explanation)                 # the record is unchanged


@pytest.mark.django_db
def test_english_table_page_keeps_the_codes(client, match, referee):
    record(match, referee, 1, 45, declarer="N")
    client.cookies["django_language"] = "en"
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert "Declarer N" in " ".join(html.split())


def test_bottom_999_is_refused_for_its_range_first():
    profile = load_profile("shenzhen-community")
    with pytest.raises(UserError) as caught:
        engine.final_points(profile, defender_points=40, bottom_points=999)
    assert caught.value.field == "bottom_points"
    assert "range" in str(caught.value.message) and "multiple" not in str(caught.value.message)
    with pytest.raises(UserError) as caught:                          # in range but not a multiple of 5
        engine.final_points(profile, defender_points=40, bottom_points=12)
    assert "multiple" in str(caught.value.message)


@pytest.mark.django_db
def test_api_says_the_range_for_bottom_999(client, match, referee):
    client.force_login(referee)
    response = post_hand(client, match, hand_body(1, 40, declarer="N", bottom_points=999))
    assert response.status_code == 400
    body = json.loads(response.content)
    assert body["field"] == "bottom_points" and "5的倍数" not in body["detail"] and "999" in body["detail"]
    assert match.hands.count() == 0



@pytest.mark.django_db
def test_console_names_the_sides_and_seats_in_chinese(client, match, referee):
    client.force_login(referee)
    html = client.get(f"/tables/{match.pk}/console/").content.decode()
    assert '<span class="side-tag">南北</span>' in html and '<span class="side-tag">东西</span>' in html
    assert 'value="NS"> 南北 ·' in html and 'value="EW"> 东西 ·' in html   # the value stays the code
    assert '<option value="N">北</option>' in html
    assert 'data-ns="南北" data-ew="东西"' in html                       # for console.js's ruling list
