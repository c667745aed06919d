"""What a partner needs besides (issue 29 item 6): the event's appeals, one entry read and edited, a round's
planned start read and set."""
import datetime as dt
import itertools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from rulings import appeals as appeals_
from rulings import services
from scoring.profile_store import latest_profile
from tournament.models import Event, EventRole, Match, Pair, Player, Round, Stage, Unit

pytestmark = pytest.mark.django_db

_counter = itertools.count(1)


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_event(published=True):
    n = next(_counter)
    event = Event.objects.create(slug=f"partner{n}", name=f"赛事{n}", start_date=dt.date(2026, 12, 5),
                                 end_date=dt.date(2026, 12, 5), profile=latest_profile("shenzhen-community"),
                                 published=published)
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
    Round.objects.create(stage=stage, number=1)
    return event


def make_pair(event, label="甲"):
    n = next(_counter)
    unit = Unit.objects.create(event=event, name=f"单位{label}{n}")
    p1 = Player.objects.create(event=event, unit=unit, name=f"{label}{n}a", gender="M")
    p2 = Player.objects.create(event=event, unit=unit, name=f"{label}{n}b", gender="F")
    return Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=f"{label}队{n}")


def make_match(event, table=1):
    rnd = Round.objects.get(stage__event=event, number=1)
    return Match.objects.create(round=rnd, table=table, ns=make_pair(event, "甲"), ew=make_pair(event, "乙"),
                                profile=event.profile)


def at(text):
    return dt.datetime.fromisoformat(text)


def client_of(user=None):
    """A client acting as ``user`` (read afresh: the roles a request reads are kept on the user object)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(type(user).objects.get(pk=user.pk))
    return client


# --------------------------------------------------------------------------- the event's appeals
@pytest.fixture
def staff(make_user):
    return {"referee": make_user("table_referee"), "chief": make_user("chief_referee"),
            "chief2": make_user("chief_referee"), "organiser": make_user("organiser"), "stranger": make_user()}


def appealed(event, staff, table=1, grounds="不是甩牌"):
    """A match of ``event`` with one ruling and the NS side's appeal against it."""
    match = make_match(event, table)
    match.referees.add(staff["referee"])
    ruling = services.record_ruling(match, staff["referee"], "failed_throw", "NS", cards=2, role="declarers")
    return ruling, appeals_.file_appeal(ruling, staff["referee"], "NS", grounds)


def test_the_appeals_say_their_ruling_table_round_filing_decisions_and_window(staff, frozen_now):
    event = make_event()
    ruling, appeal = appealed(event, staff)
    appeals_.decide_appeal(appeal, staff["chief"], instance=1, outcome="upheld", reason="判罚正确")
    pending_ruling, pending = appealed(event, staff, table=2, grounds="")
    rnd = ruling.match.round
    rnd.results_published_at = frozen_now.at
    rnd.save()

    answer = client_of(staff["chief2"]).get(f"/api/events/{event.slug}/appeals/")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["event"] == event.slug
    first, second = body["appeals"]   # table by table
    assert (first["id"], first["ruling"], first["match"], first["table"]) == (
        appeal.pk, ruling.pk, ruling.match_id, 1)
    assert (first["round"], first["round_number"], first["stage"]) == (rnd.pk, 1, rnd.stage_id)
    assert (first["code"], first["side"], first["ruling_side"]) == ("failed_throw", "NS", "NS")
    assert first["by"] == staff["referee"].username and at(first["at"]) == frozen_now.at
    assert first["grounds"] == "不是甩牌"   # staff read the grounds
    [decision] = first["decisions"]
    assert (decision["instance"], decision["outcome"], decision["reason"], decision["by"]) == (
        1, "upheld", "判罚正确", staff["chief"].username)
    assert decision["result_stands"] == "" and at(decision["at"]) == frozen_now.at
    # shenzhen's route: the chief referee, then the organising committee
    assert (first["status"], first["waiting_instance"], first["instances"], first["outcome"]) == (
        "decided", 2, 2, "upheld")
    # the window: ten minutes after the results were published
    assert at(first["results_published_at"]) == frozen_now.at
    assert at(first["deadline"]) == frozen_now.at + dt.timedelta(minutes=10)
    assert (second["id"], second["table"], second["status"], second["waiting_instance"], second["outcome"]) == (
        pending.pk, 2, "pending", 1, None)
    assert second["decisions"] == [] and second["ruling"] == pending_ruling.pk

    appeals_.decide_appeal(appeal, staff["organiser"], instance=2, outcome="reversed", reason="撤销")
    again = client_of(staff["chief2"]).get(f"/api/events/{event.slug}/appeals/").json()["appeals"][0]
    assert (again["status"], again["waiting_instance"], again["outcome"]) == ("final", None, "reversed")
    assert [d["instance"] for d in again["decisions"]] == [1, 2]


def test_the_public_reads_a_published_event_s_appeals_without_their_grounds(staff):
    event = make_event()
    appealed(event, staff)
    for client in (client_of(), client_of(staff["stranger"])):
        answer = client.get(f"/api/events/{event.slug}/appeals/")
        assert answer.status_code == 200, answer.content
        [row] = answer.json()["appeals"]
        assert row["grounds"] == "" and row["status"] == "pending"
    other = make_event()   # another event's appeals are not listed
    assert client_of().get(f"/api/events/{other.slug}/appeals/").json()["appeals"] == []


def test_an_unpublished_event_s_appeals_are_not_found_for_visitors(staff, make_user):
    event = make_event(published=False)
    appealed(event, staff)
    for client in (client_of(), client_of(staff["stranger"])):
        answer = client.get(f"/api/events/{event.slug}/appeals/")
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", answer.content
    assert client_of().get("/api/events/no-such-event/appeals/").status_code == 404
    # the event's own staff read them (as its penalty log)
    assert client_of(staff["chief"]).get(f"/api/events/{event.slug}/appeals/").status_code == 200


def test_reading_the_appeals_costs_the_same_queries_for_one_or_many(staff):
    few, many = make_event(), make_event()
    ruling, appeal = appealed(few, staff)
    appeals_.decide_appeal(appeal, staff["chief"], instance=1, outcome="upheld")
    for table in range(1, 7):
        ruling, appeal = appealed(many, staff, table=table)
        appeals_.file_appeal(ruling, staff["chief"], "EW", "另一方")
        appeals_.decide_appeal(appeal, staff["chief"], instance=1, outcome="upheld")
    client_of().get(f"/api/events/{few.slug}/appeals/")   # the profile's JSON decoded once per process
    counts = []
    for event, expected in ((few, 1), (many, 12)):
        client = client_of(staff["chief2"])
        with CaptureQueriesContext(connection) as ctx:
            answer = client.get(f"/api/events/{event.slug}/appeals/")
        assert len(answer.json()["appeals"]) == expected
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


# --------------------------------------------------------------------------- one entry, read and corrected
@pytest.fixture
def organiser(make_user):
    """The organiser of one event (an event role, not a site-wide one) and that event with two pairs."""
    user = make_user()
    event = make_event()
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.ORGANISER)
    return user, event


def entry_url(pair):
    return f"/api/entries/{pair.pk}/"


def test_one_entry_reads_as_in_the_event_s_list(organiser):
    _user, event = organiser
    pair = make_pair(event)
    make_pair(event, "乙")
    answer = client_of().get(entry_url(pair))
    assert answer.status_code == 200, answer.content
    listed = {row["id"]: row for row in client_of().get(f"/api/events/{event.slug}/entries/").json()}
    assert answer.json() == listed[pair.pk]
    assert answer.json()["player1"] == {"name": pair.player1.name, "gender": "M"}   # no phone


def test_an_entry_of_an_unpublished_event_is_not_found_but_for_its_staff(organiser, make_user):
    user, _event = organiser
    hidden = make_event(published=False)
    pair = make_pair(hidden)
    assert client_of().get(entry_url(pair)).status_code == 404
    assert client_of(make_user()).get(entry_url(pair)).status_code == 404
    assert client_of(user).get(entry_url(pair)).status_code == 404   # another event's organiser
    EventRole.objects.create(event=hidden, user=user, role=EventRole.Role.ORGANISER)
    assert client_of(user).get(entry_url(pair)).status_code == 200
    answer = client_of().get("/api/entries/999999/")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_the_organiser_corrects_only_the_fields_sent_cleaned_as_the_form_cleans_them(organiser):
    user, event = organiser
    pair = make_pair(event)
    Player.objects.filter(pk=pair.player2_id).update(phone="13800000000")
    before = {"name": pair.name, "unit": pair.unit.name, "player1": pair.player1.name}
    players = Player.objects.count()
    answer = client_of(user).patch(entry_url(pair), {"player2": {"name": "  张  三 ", "gender": "M"}, "seed": 3},
                                   format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["player2"] == {"name": "张三", "gender": "M"} and body["seed"] == 3
    assert (body["name"], body["unit"], body["player1"]["name"]) == (before["name"], before["unit"],
                                                                      before["player1"])
    pair.refresh_from_db()
    pair.player2.refresh_from_db()
    assert (pair.player2.name, pair.player2.gender, pair.seed) == ("张三", "M", 3)
    assert pair.player2.phone == "13800000000"   # a player sent without a phone keeps it
    assert Player.objects.count() == players   # edited in place
    assert client_of().get(entry_url(pair)).json() == body
    # a new unit: the pair and both its players move to it (the form's rule)
    moved = client_of(user).patch(entry_url(pair), {"unit": " 新  单位 "}, format="json").json()
    assert moved["unit"] == "新单位"   # common.names.clean_name: no space between Chinese characters
    pair.refresh_from_db()
    assert {pair.unit.name, pair.player1.unit.name, pair.player2.unit.name} == {"新单位"}


def test_an_entry_is_corrected_by_its_event_s_organiser_only(organiser, make_user):
    user, event = organiser
    pair = make_pair(event)
    body = {"name": "改名队"}
    anonymous = client_of().patch(entry_url(pair), body, format="json")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    other = make_event()
    other_organiser = make_user()
    EventRole.objects.create(event=other, user=other_organiser, role=EventRole.Role.ORGANISER)
    chief = make_user()
    EventRole.objects.create(event=event, user=chief, role=EventRole.Role.CHIEF_REFEREE)
    for stranger in (make_user(), other_organiser, chief):
        refused = client_of(stranger).patch(entry_url(pair), body, format="json")
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden", refused.content
    assert client_of(user).patch("/api/entries/999999/", body, format="json").status_code == 404
    pair.refresh_from_db()
    assert pair.name != "改名队"


@pytest.mark.parametrize("body, field", [
    ({"unit": ""}, "unit"),
    ({"name": "名" * 101}, "name"),
    ({"player1": {"name": "名" * 41, "gender": "M"}}, "player1.name"),
    ({"player1": {"name": "王五"}}, "player1.gender"),   # a player sent is the whole player
    ({"player2": "王五"}, "player2"),
    ({"seed": 0}, "seed"),
    ({"seed": "3"}, "seed"),
    ({"reserve": True}, "team"),   # the service's rule: a reserve pair needs its team
])
def test_a_bad_correction_is_a_400_naming_its_field_and_changes_nothing(organiser, body, field):
    user, event = organiser
    pair = make_pair(event)
    sent = {"player2": {"name": "赵六", "gender": "F"}, **body}   # a valid change besides: not saved either
    answer = client_of(user).patch(entry_url(pair), sent, format="json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 400, answer.content
    error = answer.json()
    assert error["field"] == field and error["code"] == "invalid", error
    pair.player2.refresh_from_db()
    assert pair.player2.name != "赵六"


def test_a_correction_clashing_with_another_entry_saves_nothing(organiser):
    user, event = organiser
    pair, other = make_pair(event), make_pair(event, "乙")
    units = Unit.objects.count()
    answer = client_of(user).patch(entry_url(pair), {"unit": "全新单位", "name": other.name}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "name", answer.content
    assert Unit.objects.count() == units   # the new unit was not made
    pair.refresh_from_db()
    assert pair.unit.name != "全新单位"


def test_a_locked_or_withdrawn_entry_is_a_409(organiser):
    user, event = organiser
    pair = make_pair(event)
    withdrawn = make_pair(event, "丙")
    Pair.objects.filter(pk=withdrawn.pk).update(status=Pair.Status.WITHDRAWN)
    answer = client_of(user).patch(entry_url(withdrawn), {"name": "复活"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "conflict", answer.content
    match = make_match(event)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.PLAYING, started_at=dt.datetime(
        2026, 12, 5, 1, tzinfo=dt.UTC))
    answer = client_of(user).patch(entry_url(pair), {"name": "开赛后改名"}, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "conflict", answer.content
    assert any("\u4e00" <= ch <= "\u9fff" for ch in answer.json()["detail"])   # the service's reason, in Chinese
    pair.refresh_from_db()
    assert pair.name != "开赛后改名"
    # a bad body is still a 400 first (the input, then the state)
    assert client_of(user).patch(entry_url(pair), {"seed": 0}, format="json").status_code == 400


# --------------------------------------------------------------------------- a round's planned start
def round_url(rnd):
    return f"/api/rounds/{rnd.pk}/"


def test_the_organiser_sets_a_round_s_planned_start_and_every_read_carries_it(organiser):
    user, event = organiser
    rnd = Round.objects.get(stage__event=event)
    match = make_match(event)
    answer = client_of(user).patch(round_url(rnd), {"scheduled_start": "2026-12-05T09:30:00+08:00"}, format="json")
    assert answer.status_code == 200, answer.content
    planned = dt.datetime(2026, 12, 5, 1, 30, tzinfo=dt.UTC)
    assert at(answer.json()["scheduled_start"]) == planned and answer.json()["id"] == rnd.pk
    assert answer.json()["tables"] == 1 and answer.json()["status"] == "not_started"
    rnd.refresh_from_db()
    assert rnd.scheduled_start == planned
    listed = {r["id"]: r for r in client_of().get(f"/api/events/{event.slug}/rounds/").json()}
    assert at(listed[rnd.pk]["scheduled_start"]) == planned
    assert client_of().get(round_url(rnd)).json() == listed[rnd.pk]
    assert at(client_of().get(f"/api/matches/{match.pk}/").json()["scheduled_start"]) == planned
    # not sent: unchanged; null: cleared
    assert at(client_of(user).patch(round_url(rnd), {}, format="json").json()["scheduled_start"]) == planned
    cleared = client_of(user).patch(round_url(rnd), {"scheduled_start": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["scheduled_start"] is None
    rnd.refresh_from_db()
    assert rnd.scheduled_start is None


@pytest.mark.parametrize("value", ["2026-12-05T09:30", "2026-12-05 09:30", "明天", "2026-13-05T09:30:00+08:00",
                                   1733362200])
def test_a_planned_start_without_its_offset_or_not_a_time_is_a_400(organiser, value):
    user, event = organiser
    rnd = Round.objects.get(stage__event=event)
    answer = client_of(user).patch(round_url(rnd), {"scheduled_start": value}, format="json",
                                   HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 400, answer.content
    assert answer.json()["field"] == "scheduled_start" and answer.json()["code"] == "invalid"
    rnd.refresh_from_db()
    assert rnd.scheduled_start is None


def test_a_round_is_planned_by_its_event_s_organiser_only(organiser, make_user):
    user, event = organiser
    rnd = Round.objects.get(stage__event=event)
    body = {"scheduled_start": "2026-12-05T09:30:00+08:00"}
    anonymous = client_of().patch(round_url(rnd), body, format="json")
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    chief, other_organiser = make_user(), make_user()
    EventRole.objects.create(event=event, user=chief, role=EventRole.Role.CHIEF_REFEREE)
    EventRole.objects.create(event=make_event(), user=other_organiser, role=EventRole.Role.ORGANISER)
    for stranger in (make_user(), chief, other_organiser):   # the referee grid page's rule: organisers
        refused = client_of(stranger).patch(round_url(rnd), body, format="json")
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden", refused.content
    unknown = client_of(user).patch("/api/rounds/999999/", body, format="json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
    hidden = Round.objects.get(stage__event=make_event(published=False))
    assert client_of().get(round_url(hidden)).status_code == 404
    assert client_of(user).patch(round_url(hidden), body, format="json").status_code == 404
    rnd.refresh_from_db()
    assert rnd.scheduled_start is None


# --------------------------------------------------------------------------- polling and the list's lock
def test_the_new_reads_answer_304_to_their_own_etag(organiser, staff):
    _user, event = organiser
    appealed(event, staff)
    pair = Pair.objects.filter(event=event).first()
    rnd = Round.objects.get(stage__event=event)
    for url in (f"/api/events/{event.slug}/appeals/", entry_url(pair), round_url(rnd)):
        first = client_of().get(url)
        assert first.status_code == 200 and first["ETag"], url
        again = client_of().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, url


def test_entering_a_pair_once_play_has_begun_is_a_409_too(organiser):
    user, event = organiser
    match = make_match(event)
    Match.objects.filter(pk=match.pk).update(started_at=dt.datetime(2026, 12, 5, 1, tzinfo=dt.UTC))
    body = {"unit": "新单位", "player1": {"name": "甲", "gender": "M"}, "player2": {"name": "乙", "gender": "F"}}
    answer = client_of(user).post(f"/api/events/{event.slug}/entries/", body, format="json")
    assert answer.status_code == 409 and answer.json()["code"] == "conflict", answer.content
    assert not Unit.objects.filter(event=event, name="新单位").exists()
