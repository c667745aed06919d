"""Impossible card points on the phone table page: refused, with the Chinese message next to the field
(issue 13: two decks hold 200 points, in fives; 8 bottom cards hold at most 80)."""
import os
from pathlib import Path

import pytest

from tests.conftest import login
from tests.scoring.test_table_page import fill_hand
from tournament import roles

SCREENS = Path(os.environ.get("DJANGO_VAR_DIR", "var")) / "screens"


@pytest.mark.django_db
def test_the_form_says_the_ranges_from_the_profile(client, make_user):
    from demo.hands import scratch_match

    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    client.force_login(referee)
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert 'name="defender_points" step="5" min="0" max="200"' in html
    assert 'name="bottom_points" step="5" min="0" max="80"' in html


@pytest.mark.browser
def test_205_minus_5_and_a_bottom_of_85_are_refused_by_the_field(transactional_db, live_server, page, make_user):
    from demo.hands import scratch_match

    page.set_viewport_size({"width": 390, "height": 844})
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    for points, bottom, field, number in ((205, "0", "defender_points", "205"), (-5, "0", "defender_points", "-5"),
                                          (60, "85", "bottom_points", "85")):
        fill_hand(page, points, bottom=bottom, declarer="N")
        page.wait_for_selector(f"#error-{field}:not([hidden])")
        message = page.inner_text(f"#error-{field}")
        assert number in message and any("\u4e00" <= ch <= "\u9fff" for ch in message), message
        assert page.get_attribute(f"input[name={field}]", "aria-invalid") == "true"
        other = "bottom_points" if field == "defender_points" else "defender_points"
        assert page.is_hidden(f"#error-{other}")
        if number == "85":
            SCREENS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENS / "table-bottom-85.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert match.hands.count() == 0
    fill_hand(page, 60, bottom="80", declarer="N")               # 80 is what 8 cards can hold: saved
    page.wait_for_function("document.querySelectorAll('#table-history article.hand').length === 1")
    assert match.hands.count() == 1
