"""A table the chief decided after a few hands: its table page still said "下一副庄家：西" under the banner
"本场比赛已结束", as if a hand were to come."""
import pytest
from django.urls import reverse

from scoring.services import record_hand
from tournament.competition import results

pytestmark = pytest.mark.django_db


def test_a_decided_table_names_no_next_declarer(client, table):
    match, users = table
    record_hand(match, users["referee"], number=1, trump="S", defender_points=60, declarer="N")
    results.decide_match(match, users["chief"], winner="EW", kind="decided", reason="时间到")
    client.force_login(users["referee"])
    page = client.get(reverse("scoring-table", args=[match.pk])).content.decode()
    assert "本场比赛已结束" in page
    line = page[page.index('id="declarer-line"'):]
    line = line[line.index(">") + 1:line.index("</p>")]
    assert "下一副庄家" not in line and "第一副由" not in line, line
