"""An approved disqualification reads as decided, not as waiting (issue 27, item 6): union-games 二.4 作弊、偷牌
(取消比赛资格) proposed by the table referee and approved by the chief referee ended the match, but the entry page
and results.xlsx still read "取消比赛资格（待裁判长核准）" (the note the result kept was the proposal's words).
A note stored that way before the fix reads as approved on both too."""
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from demo.hands import scratch_match
from rulings import services
from scoring import services as scoring
from tournament import roles
from tournament.models import Match, PairRemoval

WAITING = "待裁判长核准"


@pytest.fixture
def disqualified(make_user, frozen_now):
    referee, chief = make_user(roles.TABLE_REFEREE), make_user(roles.CHIEF_REFEREE)
    match = scratch_match("union-games", referees=[referee])
    scoring.record_hand(match, referee, number=1, trump="S", defender_points=60, declarer="N")
    ruling = services.record_ruling(Match.objects.get(pk=match.pk), referee, "cheating", "EW")
    assert WAITING in ruling.sanction["explanation"]   # the proposal waits for the chief referee
    services.approve(ruling, chief)
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.FORFEIT, match.ns_id)
    return match, make_user(roles.ORGANISER)


def _entry_page(client, match, pair_id):
    event = match.round.stage.event
    response = client.get(reverse("competition_entry", args=[event.slug, pair_id]))
    assert response.status_code == 200
    return response.content.decode()


def _results_notes(client, organiser, match):
    client.force_login(organiser)
    event = match.round.stage.event
    response = client.get(reverse("entries_export", args=[event.slug, "results"]))
    assert response.status_code == 200, response.content[:300]
    sheet = load_workbook(io.BytesIO(response.content)).active
    header = [cell.value for cell in sheet[1]]
    column = header.index("说明")
    return [row[column] for row in sheet.iter_rows(min_row=2, values_only=True)]


def test_an_approved_disqualification_reads_approved_on_the_entry_page_and_in_results_xlsx(client, disqualified):
    match, organiser = disqualified
    assert WAITING not in match.result_note and "取消比赛资格（已核准）" in match.result_note
    for pair_id in (match.ns_id, match.ew_id):
        page = _entry_page(client, match, pair_id)
        assert "取消比赛资格（已核准）" in page and WAITING not in page
    notes = _results_notes(client, organiser, match)
    assert notes and all(WAITING not in (note or "") for note in notes)
    assert any("取消比赛资格（已核准）" in (note or "") for note in notes)
    removal = PairRemoval.objects.get(pair_id=match.ew_id)
    assert WAITING not in removal.reason and "已核准" in removal.reason


def test_a_note_stored_before_reads_approved_too(client, disqualified):
    match, organiser = disqualified
    Match.objects.filter(pk=match.pk).update(result_note=match.result_note.replace("（已核准）", f"（{WAITING}）"))
    page = _entry_page(client, match, match.ns_id)
    assert "取消比赛资格（已核准）" in page and WAITING not in page
    assert all(WAITING not in (note or "") for note in _results_notes(client, organiser, match))
