"""Issue 45: readings the originals (../shared/seeds/) do not write, made named choices; labels that say
only what the documents say. Each test quotes its clause."""

import pytest

from scoring.profile_store import latest_profile
from tests.conftest import SEEDS
from tournament.events import services as event_services

SEED_004 = SEEDS / "004_85440e8d0847e64a.txt"


# --- item 7: 004's first part carries no date ------------------------------------------------------------

@pytest.mark.django_db
def test_company_league_names_its_part_without_a_date():
    """004 opens "拖拉机(两副牌)比赛规则.doc" with no date; only its second part is dated ("2008年5月5日修订版：").
    The profile's label says that and no more: not "2008年修订版之前"."""
    profile = latest_profile("company-league")
    part = event_services.source_text(profile)
    assert "之前" not in part and "2008年修订版之前" not in part
    assert "原文未注明日期" in part and "拖拉机(两副牌)比赛规则" in part
    assert "before" not in profile.data["source"]["part_en"]
    if SEED_004.exists():
        head = SEED_004.read_text(encoding="utf-8").split("2008年5月5日修订版")[0]
        assert "拖拉机(两副牌)比赛规则" in head and "2008" not in head
