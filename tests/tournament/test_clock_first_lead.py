"""000 第十五条: 自宣布之时起手中正在打（已开始出牌）的这副牌不算，之后各桌必须打满三副牌. A table whose
referee says the first lead of the hand in play was not made (still shuffling, dealing or bidding)
plays exactly three more hands; a table already playing plays that hand plus three."""
import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from common.errors import ForbiddenError, UserError
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, play, tables_of  # noqa: F401
from tournament.clocks import display, leads
from tournament.clocks import services as cs
from tournament.competition import display_cache, results
from tournament.models import HandAllowance


def test_a_table_still_dealing_plays_exactly_three_more(db, frozen_now, chief):
    rnd = make_round("shenzhen-community", tables=3)
    dealing, led, unasked = tables_of(rnd)
    cs.start_clock(rnd, chief)
    for table in (dealing, led, unasked):
        play(table, chief)
    leads.report_lead(dealing, chief, hand_number=2, made=True)
    leads.report_lead(dealing, chief, hand_number=2, made=False)       # the latest report is in force
    leads.report_lead(led, chief, hand_number=2, made=True)
    frozen_now.advance(minutes=60)
    cs.fire_due(rnd.pk)
    allowances = {a.match_id: (a.hand_in_play, a.last_hand) for a in HandAllowance.objects.all()}
    assert allowances[dealing.pk] == (2, 4) and cs.hands_left(dealing) == 3      # hands 2, 3, 4
    assert allowances[led.pk] == (2, 5) and cs.hands_left(led) == 4              # hand 2 does not count, then 3
    assert allowances[unasked.pk] == (2, 5)                                      # no report: taken as led


def test_only_the_hand_in_play_and_only_the_tables_referees(db, frozen_now, chief, make_user):
    rnd = make_round("shenzhen-community", tables=1)
    (table,) = tables_of(rnd)
    with pytest.raises(UserError) as wrong:
        leads.report_lead(table, chief, hand_number=2, made=False)
    assert wrong.value.field == "hand_number"
    with pytest.raises(ForbiddenError):
        leads.report_lead(table, make_user("table_referee"), hand_number=1, made=False)
    assert leads.lead_status(table) == {"hand_number": 1, "made": True, "reported": False, "asked": False,
                                                  "over": False}


def test_the_api_reads_and_records_the_answer(db, frozen_now, chief):
    rnd = make_round("shenzhen-community", tables=1)
    (table,) = tables_of(rnd)
    api = APIClient()
    api.force_authenticate(chief)
    url = f"/api/matches/{table.pk}/lead/"
    assert api.get(url).json() == {"hand_number": 1, "made": True, "reported": False, "asked": False,
                                                  "over": False}
    answer = api.post(url, {"hand_number": 1, "made": False}, format="json")
    assert answer.status_code == 201 and answer.json() == {"hand_number": 1, "made": False, "reported": True, "asked": False,
                                                                             "over": False}
    assert api.post(url, {"hand_number": 3, "made": False}, format="json").json()["field"] == "hand_number"


def test_an_answer_drops_the_rounds_display(db, frozen_now, chief, django_capture_on_commit_callbacks):
    """The answer moves the table's last hand once the announcement asked for it: the hall display and the
    live pages must not show the hands left from before it for up to their cache's life."""
    rnd = make_round("shenzhen-community", tables=1)
    (table,) = tables_of(rnd)
    play(table, chief)
    display.display_data(rnd.pk)
    assert cache.get(display_cache.display_key(rnd.pk)) is not None
    with django_capture_on_commit_callbacks(execute=True):
        leads.report_lead(table, chief, hand_number=2, made=False)
    assert cache.get(display_cache.display_key(rnd.pk)) is None
    assert cache.get(display_cache.whole_key(rnd.pk)) is not None   # rebuilt whole: not a table's change only


def test_a_match_over_has_no_hand_in_play_to_report(db, frozen_now, chief):
    """Issue 43 item 15: "第 5 副已开始出牌" stayed on the table's page after its match ended."""
    rnd = make_round("shenzhen-community", tables=1)
    (table,) = tables_of(rnd)
    play(table, chief)
    results.decide_match(table, chief, winner="NS", kind="decided", reason="时间到")
    table.refresh_from_db()
    status = leads.lead_status(table)
    assert status["over"] is True and status["asked"] is False
    with pytest.raises(UserError) as refused:
        leads.report_lead(table, chief, hand_number=2, made=True)
    assert refused.value.field == "hand_number" and "已结束" in str(refused.value)
