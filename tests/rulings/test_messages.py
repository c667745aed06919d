"""Refusals of the rulings layer speak one language: the field apart, the message Chinese (or English)."""
import json
import re

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import JsonResponse
from django.test import RequestFactory
from django.utils import translation
from rest_framework.test import APIClient

from common.errors import ForbiddenError, UserError, gettext_noop
from infra.appendonly import AppendOnlyError
from infra.idempotency import IdempotencyKeyMiddleware
from rulings import presenters, services
from rulings.models import Ruling
from tournament.records.ledger import match_entries


def one_language(text):
    """No English word inside a Chinese message (placeholders, seat letters and API values aside)."""
    text = re.sub(r"%\(\w+\)s", "", text).replace("（", " ").replace("）", " ")
    return not [word for word in text.split() if word.isascii() and len(word) > 3]


def test_a_hand_not_in_play_names_the_field_outside_the_message(table):
    match, users = table
    with pytest.raises(services.RulingError) as caught:
        services.record_ruling(match, users["referee"], "exposed_card", "NS", hand_number=9)
    assert caught.value.field == "hand_number"
    assert str(caught.value) == "本桌正在进行第1副，不能记到第9副。"
    with translation.override("en"):
        assert str(caught.value) == "Hand 9 has not started: the table is playing hand 1."


def test_a_refused_approval_is_a_403_with_a_chinese_detail(table):
    match, users = table
    ruling = services.record_ruling(match, users["chief"], "cheating", "NS")
    with pytest.raises(ForbiddenError):
        services.approve(ruling, users["chief"])
    api = APIClient()
    api.force_login(users["chief"])
    response = api.post(f"/api/rulings/{ruling.pk}/approval/", {"approved": True}, format="json")
    assert response.status_code == 403
    assert response.json() == {"code": "forbidden", "field": None, "detail": "提出判罚的人不能核准自己的判罚。"}


def test_the_api_answers_in_english_once_switched(table):
    match, users = table
    api = APIClient()
    api.force_login(users["referee"])
    url = f"/api/matches/{match.pk}/rulings/void-last/"
    response = api.post(url, {}, format="json")
    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "field": "ruling", "detail": "本场没有可作废的判罚。"}
    api.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = api.post(url, {}, format="json")
    assert response.json() == {"code": "invalid", "field": "ruling", "detail": "This match has no ruling to void."}


def test_a_ruling_on_a_void_is_refused_in_one_language(table):
    match, users = table
    services.record_ruling(match, users["referee"], "delay", "NS")
    row = services.void_last_ruling(match, users["referee"])
    with pytest.raises(services.RulingError) as caught:
        services.void_ruling(row.ruling, users["referee"])
    assert caught.value.field == "ruling" and str(caught.value) == "该判罚已作废。"


class _EngineRefusal(UserError):
    pass


@pytest.mark.parametrize("error, field, text", [
    (_EngineRefusal(gettext_noop("The hand number must be a whole number."), field="minutes"), "minutes",
     "副数应为整数。"),
    (ValueError("minutes：请填写分钟数"), "minutes", "请填写分钟数"),      # older engines: "field：message"
    (ValueError("profile：没有判罚表"), None, "profile：没有判罚表"),        # not an input: kept whole
    (ValueError("no field here"), None, "no field here"),
])
def test_engine_call_passes_the_engines_field_through(error, field, text):
    def refuse(**inputs):
        raise error

    with pytest.raises(services.RulingError) as caught:
        services.engine_call(refuse, minutes=None, side="NS")
    assert caught.value.field == field and str(caught.value) == text


def test_state_labels_follow_the_language(table):
    match, users = table
    services.record_ruling(match, users["referee"], "delay", "NS")
    entry = match_entries(match)[0]
    assert presenters.entry_data(entry)["state_label"] == "生效"
    with translation.override("en"):
        assert presenters.entry_data(entry)["state_label"] == "In effect"


def test_append_only_refusals_read_in_one_language(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "delay", "NS")
    with pytest.raises(AppendOnlyError) as caught:
        Ruling.objects.filter(pk=ruling.pk).update(note="x")
    assert str(caught.value) == "Ruling 记录只能追加，不能修改。"
    with translation.override("en"):
        assert str(caught.value) == "Ruling records are append-only: they cannot be changed."


@pytest.mark.django_db
def test_the_idempotency_refusal_has_the_api_shape(make_user):
    writer = make_user()   # only an authenticated writer's key is kept (#46 item 3)

    def view(request):
        return JsonResponse({}, status=201)

    def post(body):
        request = RequestFactory().post("/api/things/", data=body, content_type="application/json",
                                        HTTP_IDEMPOTENCY_KEY="k-1")
        request.user = writer
        return request

    middleware = IdempotencyKeyMiddleware(view)
    middleware(post(b'{"a": 1}'))
    refused = middleware(post(b'{"a": 2}'))
    assert refused.status_code == 422
    assert json.loads(refused.content) == {"code": "idempotency_key_reused", "field": None,
                                           "detail": "同一 Idempotency-Key 用于不同的请求。"}


@pytest.mark.parametrize("msgid", [
    "This ruling was approved or is under appeal: only a chief referee can void it.",
    "The appeal deadline has passed (it was %(deadline)s).",
    "The instance must be 1 (the chief referee) or 2 (the arbitration group).",
    "Hand %(number)s has not started: the table is playing hand %(in_play)s.",
])
def test_the_chinese_messages_hold_no_english_sentence(msgid):
    with translation.override("zh-hans"):
        text = translation.gettext(msgid)
    assert text != msgid and one_language(text), text
