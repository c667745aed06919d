"""The referees' own words (a ruling's note, the approval's and the void's notes, an appeal's grounds) are for the
event's staff: the public API, the penalty log pages and penalties.xlsx show them to nobody else, and all three
ask the same presenter (issue 26 item 4)."""
import datetime as dt
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from rulings import appeals, services
from rulings.models import Ruling
from scoring.profile_store import latest_profile
from tournament.models import Event, EventRole

NOTE, VOID, GROUNDS, APPROVAL = "备注-甲一", "撤销理由-乙二", "申诉理由-丙三", "核准意见-丁四"
SECRETS = (NOTE, VOID, GROUNDS, APPROVAL)


def _role(user, event, role):
    EventRole.objects.create(event=event, user=user, role=role)
    return user


@pytest.fixture
def ruled(make_match, make_user):
    """A published event's table with three rulings: a voided one with a note, an appealed one, an approved
    forfeit; its staff hold their roles in this event only. Also a plain account and another event's chief."""
    match = make_match()
    event = match.round.stage.event
    other = Event.objects.create(slug="other-ev", name="另一赛事", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=latest_profile("shenzhen-community"))
    users = {
        "chief": _role(make_user(), event, "chief_referee"),
        "referee": _role(make_user(), event, "table_referee"),
        "plain": make_user(),
        "other_chief": _role(make_user(), other, "chief_referee"),
    }
    match.referees.add(users["referee"])
    delay = services.record_ruling(match, users["referee"], "delay", "NS", note=NOTE)
    services.void_ruling(delay, users["referee"], VOID)
    exposed = services.record_ruling(match, users["referee"], "exposed_card", "NS")
    appeals.file_appeal(exposed, users["chief"], "NS", GROUNDS)
    forfeit = services.record_ruling(match, users["referee"], "cheating", "EW")
    services.approve(forfeit, users["chief"], approved=True, note=APPROVAL)
    return match, users


def _login(client, users, who):
    client.logout()
    if who != "anonymous":
        client.force_login(users[who])


def _api(client, match):
    event = match.round.stage.event
    return {url: client.get(url) for url in (f"/api/events/{event.slug}/rulings/", f"/api/matches/{match.pk}/rulings/")}


def _pages(client, match):
    event = match.round.stage.event
    pages = [client.get(reverse("event_penalty_log", args=[event.slug])).content.decode(),
             client.get(reverse("match_penalty_log", args=[match.pk])).content.decode()]
    book = load_workbook(io.BytesIO(client.get(reverse("event_penalty_log_xlsx", args=[event.slug])).content))
    cells = " ".join(str(cell) for row in book["判罚记录"].iter_rows(values_only=True) for cell in row if cell)
    return pages, cells


def _private(ruling):
    """The private words in one API ruling (the keys are always there)."""
    return {"note": ruling["note"], "void": ruling["void"] and ruling["void"]["note"],
            "approval": ruling["approval"] and ruling["approval"]["note"],
            "grounds": [appeal["grounds"] for appeal in ruling["appeals"]]}


@pytest.mark.parametrize("who", ["anonymous", "plain", "other_chief"])
def test_nobody_but_the_events_staff_reads_the_private_words(ruled, client, who):
    match, users = ruled
    _login(client, users, who)
    for url, response in _api(client, match).items():
        assert response.status_code == 200, url
        body = response.content.decode()
        assert not [s for s in SECRETS if s in body], url
        rulings = response.json()["rulings"]
        assert len(rulings) == 3
        for ruling in rulings:  # one shape for everybody: the hidden words are empty strings
            private = _private(ruling)
            assert private["note"] == "" and private["void"] in (None, "") and private["approval"] in (None, "")
            assert set(private["grounds"]) <= {""}
        assert {r["code"] for r in rulings if r["void"]} == {"delay"}  # the acts stay public, only the words go
        assert {r["code"] for r in rulings if r["approval"]} == {"cheating"}
        assert {r["code"] for r in rulings if r["appeals"]} == {"exposed_card"}
    pages, cells = _pages(client, match)
    for text in (*pages, cells):
        assert not [s for s in SECRETS if s in text]


@pytest.mark.parametrize("who", ["chief", "referee"])
def test_the_events_chief_and_table_referee_read_them_in_the_api_the_pages_and_the_xlsx(ruled, client, who):
    match, users = ruled
    _login(client, users, who)
    for url, response in _api(client, match).items():
        assert response.status_code == 200, url
        by_code = {r["code"]: _private(r) for r in response.json()["rulings"]}
        assert (by_code["delay"]["note"], by_code["delay"]["void"]) == (NOTE, VOID), url
        assert by_code["exposed_card"]["grounds"] == [GROUNDS], url
        assert by_code["cheating"]["approval"] == APPROVAL, url
    pages, cells = _pages(client, match)
    for text in (*pages, cells):  # the same presenter: what the API shows staff, the page and the sheet show
        assert [s for s in SECRETS if s in text] == list(SECRETS)


def test_the_referee_who_records_a_ruling_reads_its_note_in_the_answer_unlike_another_events_chief(ruled, client):
    match, users = ruled
    _login(client, users, "referee")
    # a fresh table of the same round: the first one ended with the approved forfeit
    fresh = match.__class__.objects.create(round=match.round, table=2, ns=match.ns, ew=match.ew, profile=match.profile)
    fresh.referees.add(users["referee"])
    answer = client.post(f"/api/matches/{fresh.pk}/rulings/", {"code": "delay", "side": "NS", "note": "刚记的备注"},
                         content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["note"] == "刚记的备注"
    assert Ruling.objects.get(pk=answer.json()["id"]).note == "刚记的备注"
    _login(client, users, "other_chief")  # staff of another event: the public's view of this one
    assert client.get(f"/api/matches/{fresh.pk}/rulings/").json()["rulings"][0]["note"] == ""
    assert "刚记的备注" not in client.get(reverse("match_penalty_log", args=[fresh.pk])).content.decode()
