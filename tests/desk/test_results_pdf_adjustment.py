"""The result sheet (results PDF) prints each hand as the table page shows it (issue 27, item 7): union-games
二.14 迟到10分钟 扣10分 recorded after two hands goes to hand 1; the page showed hand 1's −10 and the levels it
moved, the PDF printed the hand as first recorded (no penalty, the old levels)."""
import io

import pytest
from pypdf import PdfReader

from demo.hands import scratch_match
from rulings import services
from scoring import services as scoring
from scoring.presenters import state_payload
from tournament import roles
from tournament.models import Match
from tournament.printouts import results as results_pdf
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout
from tournament.templatetags.names import seat_names


@pytest.fixture
def late_after_two_hands(make_user, frozen_now):
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match("union-games", referees=[referee])
    scoring.record_hand(match, referee, number=1, trump="S", defender_points=40, declarer="N")
    scoring.record_hand(match, referee, number=2, trump="H", defender_points=75)
    ruling = services.record_ruling(Match.objects.get(pk=match.pk), referee, "late", "EW", minutes=10)
    assert ruling.hand_number == 1   # 首局扣10分: the first hand, recorded two hands later
    return Match.objects.select_related("profile", "ns", "ew", "round__stage__event").get(pk=match.pk), referee


def _flat(text):
    return text.replace(" ", "").replace("\n", "")


def test_the_result_sheet_prints_the_hands_as_the_table_page_shows_them(late_after_two_hands):
    match, referee = late_after_two_hands
    page = state_payload(match, referee)["hands"]
    first = page[0]
    assert first["final_points"] == 30 and any("罚分-10" in line for line in first["explanation"]), first
    sheet = results_pdf.collect(match.round.stage.event, PrintOptions(match=match.pk)).sheets[0]
    printed = [(h.number, h.defender_points, h.ns_after, h.ew_after) for h in sheet.hands]
    assert printed == [(h["number"], str(h["final_points"]), h["ns_level"], h["ew_level"]) for h in page]
    assert (sheet.levels.replace(" ", "")) == f"{match.ns_level}:{match.ew_level}"
    assert (page[-1]["ns_level"], page[-1]["ew_level"]) == (match.ns_level, match.ew_level)
    pdf = build_printout("results", match.round.stage.event, PrintOptions(match=match.pk))
    text = _flat("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    for hand in page:
        for line in hand["explanation"]:   # seats named in Chinese in a Chinese printout (issue 27 item 14)
            assert _flat(seat_names(line)) in text, line
