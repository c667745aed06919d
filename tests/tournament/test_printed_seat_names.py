"""Issue 27 item 14, the printed and logged texts: the results PDF and the penalty log name seats and sides in
Chinese (北/东/南/西, 南北/东西) when printed in Chinese, as the table page does; in English they keep the codes.
The stored explanations keep the codes (the data and the API)."""
import re

from django.utils import translation

from scoring.engine.lines import chinese_lines
from tests.tournament.test_printouts import pages_text
from tests.tournament.test_printouts_data import (  # noqa: F401  (fixtures)
    chief,
    event,
    first_round,
    played_match,
)
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout
from tournament.templatetags.names import seat_names

CODE = re.compile(r"(?<![A-Za-z])(NS|EW|N|E|S|W)(?![A-Za-z])")


def test_the_results_pdf_names_seats_in_chinese(event, played_match):  # noqa: F811
    stored = [line for hand in played_match.hands.all() for line in chinese_lines(hand.explanation)]
    assert any(CODE.search(line) for line in stored), "the stored explanations keep the codes"
    with translation.override("zh-hans"):
        text = "\n".join(pages_text(build_printout("results", event, PrintOptions(match=played_match.pk))))
    explained = [line for line in text.split("\n") if "坐庄" in line or "下家" in line]
    assert explained and not any(CODE.search(line) for line in explained), explained


def test_the_filter_follows_the_language():
    with translation.override("zh-hans"):
        assert seat_names("下一副由W坐庄（N的下家）；EW警告") == "下一副由西坐庄（北的下家）；东西警告"
    with translation.override("en"):
        assert seat_names("W declares next") == "W declares next"
