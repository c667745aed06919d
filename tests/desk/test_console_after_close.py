"""The table's referee keeps her console after the round closes (issue 27, item 4): she was locked out with
"only this table's referee … may use its console". Now the console stays readable (no offence buttons, the
reason on the page), the appeal form stays open to her until the appeal deadline (shenzhen 第十九条（二）: 10
minutes after the round ends), and recording a ruling is refused with the real reason as a 409."""
import datetime as dt

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rulings import services
from rulings.models import Appeal, Ruling
from tournament.competition import results, rounds


@pytest.fixture
def closed(table, frozen_now):
    """A ruling during play, the result decided, the round closed at 09:05 Beijing time (01:05 UTC)."""
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "delay", "NS")
    frozen_now.advance(minutes=5)
    results.decide_match(match, users["chief"], winner="NS", kind="decided", reason="双方同意")
    rounds.close_round(match.round, users["chief"])
    match.refresh_from_db()
    return match, users, ruling, frozen_now


def _console(client, match, user):
    client.force_login(user)
    return client.get(reverse("ruling_console", args=[match.pk]))


def test_the_referee_reads_her_console_after_the_round_closed(client, closed):
    match, users, ruling, _now = closed
    response = _console(client, match, users["referee"])
    assert response.status_code == 200, response.content[:300]
    page = response.content.decode()
    assert 'id="read-only-note"' in page and "09:05" in page            # the reason, with the closing time
    assert 'class="offence' not in page and 'id="ruling-form"' not in page and 'id="void-last"' not in page
    assert 'id="appeal-form"' in page                                      # within the appeal window
    assert response.context["console"]["read_only"] is True
    assert [r["id"] for r in response.context["console"]["rulings"]] == [ruling.pk]


def test_recording_after_close_is_refused_with_the_reason_as_a_409(closed):
    match, users, _ruling, _now = closed
    api = APIClient()
    api.force_authenticate(users["referee"])
    answer = api.post(reverse("api_match_rulings", args=[match.pk]), {"code": "delay", "side": "EW"}, format="json")
    assert answer.status_code == 409, answer.json()
    assert answer.json()["field"] == "match" and "09:05" in answer.json()["detail"]
    assert "09:15" in answer.json()["detail"]                              # the appeal deadline
    preview = api.post(reverse("api_ruling_preview", args=[match.pk]), {"code": "delay", "side": "EW"}, format="json")
    assert preview.status_code == 409
    assert Ruling.objects.filter(match=match).count() == 1
    other = APIClient()
    other.force_authenticate(users["other_referee"])                       # not her table: still a 403
    assert other.post(reverse("api_match_rulings", args=[match.pk]), {"code": "delay", "side": "EW"},
                      format="json").status_code == 403


def test_a_hand_after_close_is_refused_with_the_reason_as_a_409_too(closed):
    """The hand service asks the same question as the rulings API: the table's own referee hears the round is
    closed (409), not that only this table's referees may record (403)."""
    match, users, _ruling, _now = closed
    api = APIClient()
    api.force_authenticate(users["referee"])
    answer = api.post(f"/api/matches/{match.pk}/hands/", {"number": 9, "trump": "H", "defender_points": 80},
                      format="json")
    assert answer.status_code == 409, answer.json()
    assert answer.json()["field"] == "match" and "09:05" in answer.json()["detail"]


def test_she_files_an_appeal_within_the_window_and_not_after(client, closed):
    match, users, ruling, now = closed
    api = APIClient()
    api.force_authenticate(users["referee"])
    filed = api.post(reverse("api_ruling_appeals", args=[ruling.pk]), {"side": "NS", "grounds": "不是超时"},
                     format="json")
    assert filed.status_code == 201, filed.json()
    assert Appeal.objects.filter(ruling=ruling, filed_by=users["referee"]).exists()
    now.advance(minutes=11)                                                # past 09:15
    page = _console(client, match, users["referee"])
    assert page.status_code == 200 and 'id="appeal-form"' not in page.content.decode()
    late = api.post(reverse("api_ruling_appeals", args=[ruling.pk]), {"side": "EW", "grounds": "迟了"}, format="json")
    assert late.status_code == 400 and late.json()["field"] == "ruling"


def test_another_tables_referee_is_still_refused(client, closed):
    match, users, _ruling, _now = closed
    assert _console(client, match, users["other_referee"]).status_code == 403


def test_a_chief_referee_still_records_after_close(client, closed):
    match, users, _ruling, _now = closed
    page = _console(client, match, users["chief"]).content.decode()
    assert 'class="offence' in page and 'id="read-only-note"' not in page


def test_the_closed_round_banner_is_one_chinese_line(client, closed):
    """The two sentences of the banner met with a space between them ("公布。 申诉截止时间") on Chinese pages."""
    match, users, _ruling, _now = closed
    page = _console(client, match, users["referee"]).content.decode()
    banner = page[page.index('id="round-closed"'):]
    banner = " ".join(banner[banner.index(">") + 1:banner.index("</div>")].split())
    assert banner == "本轮已结束：成绩于09:05公布。申诉截止时间：09:15。", banner
