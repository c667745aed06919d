"""Waivers by the non-offending side (issue 45, item 6), in the engine.

000 第十七条（三）（多牌少牌）: "但若非错误方提出要继续打本副牌时则对错误方不进行惩罚"; the profile data is the
offence's ``waivable_by_other_side``. 2008 (004, second part) closing paragraph: "经双方协商同意，实际比赛可简化或
不执行上述“罚则”和“附则”条款；但如一方提出异议，则应严格参照相应条款执行" (``penalties_waivable_by_agreement``).
A waived offence is on record with no sanction and counts toward no repeat or escalation.
"""
import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from rulings import services
from rulings.engine import PenaltyLedger
from rulings.models import Ruling
from scoring.explanations import ruling_explanation
from scoring.legacy_explanations import english
from scoring.profiles import load_profile
from scoring.replay_check import check_match
from tests.conftest import login, refused
from tournament.records.ledger import sanction_dict

SZ, CL, CL8 = "shenzhen-community", "company-league", "company-league-2008"


def ledger(slug):
    return PenaltyLedger(load_profile(slug))


def test_000_card_count_waived_by_the_other_side_plays_on_unpunished():
    # 000 第十七条（三）: 但若非错误方提出要继续打本副牌时则对错误方不进行惩罚
    book = ledger(SZ)
    assert book.may_waive("card_count")
    sanction = book.record("card_count", "NS", role="declarers", waived_by="EW")
    assert sanction.waived_by == "EW" and sanction.kinds == frozenset()
    assert (sanction.points, sanction.levels, sanction.effect.redeal, sanction.effect.stage) == (0, 0, False, None)
    assert sanction.clause == "第十七条（三）" and "非错误方同意不予处罚" in sanction.explanation
    assert sanction_dict(sanction)["waived_by"] == "EW"


def test_000_waives_only_card_count():
    # 000 第十七条（三） waives 多牌少牌 only: 偷看 (peeking) stays punished
    book = ledger(SZ)
    assert not book.may_waive("peeking")
    with refused("waived_by"):
        book.record("peeking", "NS", waived_by="EW")
    assert book.entries == ()


def test_only_the_non_offending_side_waives():
    book = ledger(SZ)
    with refused("waived_by"):
        book.record("card_count", "NS", role="declarers", waived_by="NS")
    with refused("waived_by"):
        book.record("card_count", "NS", role="declarers", waived_by="X")


@pytest.mark.parametrize("code", ["peeking", "signal", "wrong_bury"])
def test_2008_any_penalty_clause_waivable_by_agreement(code):
    # 004 (2008) 末段: 经双方协商同意，实际比赛可简化或不执行上述“罚则”和“附则”条款
    book = ledger(CL8)
    assert book.may_waive(code)
    sanction = book.record(code, "EW", waived_by="NS")
    assert sanction.points == 0 and sanction.kinds == frozenset() and sanction.waived_by == "NS"


def test_2004_company_league_has_no_waiver():
    # the agreement paragraph is in the 2008 revision only
    with refused("waived_by"):
        ledger(CL).record("peeking", "NS", waived_by="EW")


def test_a_waived_offence_counts_toward_no_repeat_or_escalation():
    # a later offence of the same kind counts as if the waived one were not there
    book = ledger(SZ)
    book.record("card_count", "NS", role="declarers", waived_by="EW")
    assert book.tally() == ledger(SZ).tally()
    later = book.record("card_count", "NS", role="declarers")
    fresh = ledger(SZ).record("card_count", "NS", role="declarers")
    assert later == fresh and later.occurrence == 1 and later.effect.redeal


def test_a_waived_offence_replays_and_voids_like_any_ruling():
    book = ledger(CL8)
    book.record("peeking", "NS", waived_by="EW")
    book.record("peeking", "NS")
    replayed = PenaltyLedger.replay(load_profile(CL8), book.entries)
    assert replayed.sanctions == book.sanctions and replayed.sanctions[0].waived_by == "EW"
    after = book.void(0)
    assert after[0] is None and after[1].points == 40


# --- through the service ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_service_records_a_waiver_on_record_with_no_sanction(make_match, make_user):
    """000 第十七条（三）"但若非错误方提出要继续打本副牌时则对错误方不进行惩罚": the ruling is stored with who waived
    (the non-offending side), who recorded it and when; the levels do not move; a later 多牌少牌 is the first
    counted; voiding the waived one leaves the later one as it was; verify_replay agrees."""
    match = make_match(SZ)
    referee = make_user("table_referee")
    match.referees.add(referee)
    before = (match.ns_level, match.ew_level)
    waived = services.record_ruling(match, referee, "card_count", "EW", role="defenders", hand_number=1,
                                    declarer="N", waived_by="NS")
    waived.refresh_from_db()
    assert (waived.waived_by, waived.recorded_by_id) == ("NS", referee.pk) and waived.recorded_at
    assert waived.sanction["waived_by"] == "NS" and waived.sanction["kinds"] == []
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == before
    later = services.record_ruling(match, referee, "card_count", "EW", role="defenders", hand_number=1,
                                   declarer="N")
    assert later.sanction["occurrence"] == 1 and later.sanction["levels"] == 2
    assert check_match(match) == []
    services.void_ruling(waived, referee, reason="录错")
    later.refresh_from_db()
    assert later.sanction["levels"] == 2
    assert check_match(match) == []


@pytest.mark.django_db
def test_service_refuses_a_waiver_the_profile_does_not_allow(make_match, make_user):
    match = make_match(SZ)
    referee = make_user("table_referee")
    match.referees.add(referee)
    with pytest.raises(services.RulingError) as caught:
        services.record_ruling(match, referee, "peeking", "EW", hand_number=1, declarer="N", waived_by="NS")
    assert caught.value.field == "waived_by"
    assert not match.rulings.exists()


# --- through the API ---------------------------------------------------------------------------------


def test_api_previews_and_records_a_waiver(table):
    """000 第十七条（三）"但若非错误方提出要继续打本副牌时则对错误方不进行惩罚", through the console's API."""
    match, users = table
    api = APIClient()
    api.force_authenticate(users["referee"])
    body = {"code": "card_count", "side": "EW", "role": "defenders", "waived_by": "NS"}
    preview = api.post(f"/api/matches/{match.pk}/rulings/preview/", body, format="json")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["sanction"]["waived_by"] == "NS" and preview.json()["sanction"]["kinds"] == []
    response = api.post(f"/api/matches/{match.pk}/rulings/", body, format="json")
    assert response.status_code == 201, response.json()
    assert "非错误方同意不予处罚" in response.json()["explanation"]
    assert Ruling.objects.get(match=match).waived_by == "NS"
    refused_body = {**body, "code": "peeking", "waived_by": "NS"}
    del refused_body["role"]
    answer = api.post(f"/api/matches/{match.pk}/rulings/", refused_body, format="json")
    assert answer.status_code == 400 and "waived_by" in str(answer.json())


def test_the_penalty_log_shows_the_waiver(table, client):
    """000 第十七条（三）: the waived ruling is on the public penalty log, saying the non-offending side waived it."""
    match, users = table
    services.record_ruling(match, users["referee"], "card_count", "EW", role="defenders", waived_by="NS")
    page = client.get(reverse("match_penalty_log", args=[match.pk])).content.decode()
    assert "多牌或少牌：非错误方同意不予处罚" in page and "第十七条（三）" in page


# --- through the console at 390 px -------------------------------------------------------------------


@pytest.mark.browser
def test_the_console_records_a_waiver_at_390_px(transactional_db, live_server, page, make_user, make_match):
    """000 第十七条（三）"但若非错误方提出要继续打本副牌时则对错误方不进行惩罚": the referee ticks the waiver (shown
    for 多牌少牌 only, naming the non-offending side) and the ruling is saved with no sanction."""
    page.set_viewport_size({"width": 390, "height": 844})
    match = make_match(SZ)
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/console/")
    page.click("button.offence[data-code=peeking]")
    assert page.is_hidden("#waiver-field")
    page.click("button.offence[data-code=card_count]")
    page.wait_for_selector("#waiver-field:visible")
    page.check("input[name=side][value=EW]")
    page.check("input[name=role][value=defenders]")
    page.check("input[name=waived]")
    assert "南北" in page.inner_text("#waiver-side")
    page.wait_for_selector("#preview:has-text('非错误方同意不予处罚')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path="var/test/waiver_390.png", full_page=True)
    page.click("#confirm")
    page.wait_for_selector("#status.saved, #status.error")
    assert "已保存" in page.inner_text("#status"), page.inner_text("#status")
    page.screenshot(path="var/test/waiver_saved_390.png", full_page=True)
    ruling = Ruling.objects.get(match=match)
    assert ruling.waived_by == "NS" and ruling.sanction["kinds"] == []


def test_a_waiver_reads_in_english_on_an_english_page():
    """The sanction's items read in English; a Chinese text stored before them through the legacy reader."""
    def same(msgid):
        return msgid

    sanction = ledger(SZ).record("card_count", "NS", role="declarers", waived_by="EW")
    with translation.override("en"):
        assert ruling_explanation(sanction, load_profile(SZ)) == (
            "Too many or too few cards: waived by the non-offending side: no penalty")
    text = sanction.explanation
    assert english(text, {"多牌或少牌": "Too many or too few cards"}, same) == (
        "Too many or too few cards: waived by the non-offending side: no penalty")
