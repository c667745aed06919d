"""The chief's desk and the arbitration page: who may open them, what they list (state, alerts, proposer,
appeals by route), and that the JSON poll follows a decision."""
import datetime as dt

from infra import clock
from rulings import appeals as appeals_
from rulings import services
from tests.tournament.test_clock_fixtures import make_round
from tournament.clocks import services as clock_services
from tournament.models import Match


def _desk(match):
    return f"/manage/{match.round.stage.event.slug}/rounds/{match.round_id}/desk/"


def test_the_desk_is_for_chiefs_and_organisers(client, table):
    match, users = table
    assert client.get(_desk(match)).status_code == 302
    for role, status in (("referee", 403), ("arbiter", 403), ("organiser", 200), ("chief", 200)):
        client.force_login(users[role])
        assert client.get(_desk(match)).status_code == status, role
        assert client.get(_desk(match) + "state/").status_code == status, role


def test_the_desk_lists_a_pending_forfeit_with_its_proposer_and_alerts(client, table):
    match, users = table
    users["referee"].first_name, users["referee"].last_name = "明", "王"
    users["referee"].save()
    services.record_ruling(match, users["referee"], "cheating", "EW")   # a proposed 判负 waits for a chief
    client.force_login(users["chief"])
    data = client.get(_desk(match) + "state/").json()
    [approval] = data["approvals"]
    assert approval["proposer"] == "王明" and approval["table"] == 1 and not approval["mine"]
    [row] = data["tables"]
    assert row["referees"] == ["王明"]   # family name first, no space (common.names)
    assert "一项判罚等待核准" in row["alerts"]
    assert data["rights"]["approve"] and data["rights"]["close"]


def test_a_table_without_a_referee_and_a_closed_round_with_its_deadline(client, table, frozen_now):
    match, users = table
    match.referees.clear()
    client.force_login(users["organiser"])
    data = client.get(_desk(match) + "state/").json()
    assert "没有裁判员" in data["tables"][0]["alerts"]
    assert data["undecided"] == [1] and not data["round"]["closed"]
    assert not data["rights"]["approve"] and data["rights"]["close"]


def test_no_result_at_time_up_then_the_chiefs_decision(client, transactional_db, make_user):
    chief = make_user("chief_referee")
    rnd = make_round(tables=1)
    [match] = Match.objects.filter(round=rnd)
    match.status = Match.Status.SCHEDULED
    match.save()
    clock_services.start_clock(rnd, chief)
    with clock.frozen(clock.now() + dt.timedelta(hours=3)):
        clock_services.fire_due(rnd.pk)
        client.force_login(chief)
        data = client.get(_desk(match) + "state/").json()
        [row] = data["tables"]
        assert row["state"] == "no_result" and "时间到仍无结果" in row["alerts"] and row["decidable"]
        answer = client.post(f"/api/matches/{match.pk}/result/", {"winner": "EW", "reason": "未到场"},
                             content_type="application/json")
        assert answer.status_code == 200, answer.content
        data = client.get(_desk(match) + "state/").json()
        assert data["tables"][0]["state"] == "finished" and data["tables"][0]["winner"]


def test_the_arbitration_page_lists_what_the_route_gives_each_body(client, table):
    match, users = table  # shenzhen: chief referee, then the organising committee
    ruling = services.record_ruling(match, users["referee"], "failed_throw", "NS", cards=2, role="declarers")
    appeal = appeals_.file_appeal(ruling, users["referee"], "NS", "不是甩牌")
    url = f"/manage/{match.round.stage.event.slug}/arbitration/"
    client.force_login(users["referee"])
    assert client.get(url).status_code == 403
    client.force_login(users["chief"])
    page = client.get(url)
    assert page.status_code == 200 and page.context["data"]["waiting"][0]["mine"]
    assert "裁判长 → 组委会" in page.content.decode()
    appeals_.decide_appeal(appeal, users["chief"], instance=1, outcome="upheld")
    client.force_login(users["organiser"])
    data = client.get(url).context["data"]
    assert data["waiting"][0]["mine"] and data["waiting"][0]["waiting_instance"] == 2
    assert data["waiting"][0]["decisions"][0]["outcome_label"] == "维持"
    client.force_login(users["arbiter"])
    assert client.get(url).status_code == 200  # a member of a body, though not on this route


def test_the_desk_in_english_when_switched(client, table, settings):
    match, users = table
    client.force_login(users["chief"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client.get(_desk(match))
    html = page.content.decode()
    assert "Chief&#x27;s desk" in html or "Chief's desk" in html
    assert "裁判长工作台" not in html and "待核准的判罚" not in html
    labels = page.context["labels"]
    assert labels["approve"] == "Approve" and labels["open"] == "Open: results not published yet"
