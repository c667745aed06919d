"""Printouts that read rulings and the final ranking: the score sheet's penalty box, the penalty log's
offence names, waiting sides in English, and the certificates of a knock-out played to the end."""
import pytest
from django.utils import translation
from reportlab.pdfbase.pdfmetrics import stringWidth

from tests.tournament.test_printouts import fonts_of, pages_text
from tests.tournament.test_printouts_data import (  # noqa: F401  (fixtures)
    chief,
    event,
    finished_event,
    first_round,
    played_match,
)
from tournament.competition.stages import describe_source
from tournament.models import Match
from tournament.printouts import awards, scoresheets
from tournament.printouts.common import PrintOptions
from tournament.printouts.layout import register_font
from tournament.printouts.services import build_printout, collect


def flat(pdf):
    return "".join(pages_text(pdf)).replace("\n", "").replace(" ", "")


@pytest.fixture
def ruled_match(event, chief, make_user):
    """The match with the fixture's 迟到 ruling, plus a voided 拖延 and a 作弊 a table referee proposed
    (awaiting a chief's approval)."""
    from rulings.models import Ruling
    from rulings.services import record_ruling, void_ruling

    match = Ruling.objects.get(match__round__stage__event=event).match
    voided = record_ruling(match, chief, "delay", "EW", hand_number=1, note="作废的一条")
    void_ruling(voided, chief, reason="记错桌")
    record_ruling(match, make_user("table_referee"), "cheating", "EW", hand_number=1)
    return match


def test_score_sheet_penalty_box_lists_rulings_in_force_and_keeps_blank_lines(ruled_match):
    from rulings.presenters import match_log

    log = {r["code"]: r for r in match_log(ruled_match)["rulings"]}
    _printout, data = collect("scoresheets", ruled_match.round.stage.event, PrintOptions(match=ruled_match.pk))
    (sheet,) = data.sheets
    assert [p.offence.split("（")[0] for p in sheet.penalties] == ["迟到", "有意犯规、性质恶劣"]
    late, cheating = sheet.penalties
    assert late.side == "南北" and late.hand == "1" and late.sanction == log["late"]["explanation"]
    assert cheating.sanction.startswith("【待定】") and log["cheating"]["state"] == "pending"
    rows, _height = scoresheets._penalty_box(sheet.penalties, 500)
    assert sum(1 for row in rows if not any(row)) >= scoresheets.MIN_BLANK_PENALTIES
    text = flat(build_printout("scoresheets", ruled_match.round.stage.event, PrintOptions(match=ruled_match.pk)))
    assert "迟到" in text and "【待定】" in text and log["late"]["explanation"].replace(" ", "") in text
    assert "作废的一条" not in text and "拖延比赛时间" not in text


def test_score_sheet_penalty_box_is_blank_without_rulings(event, played_match):
    _printout, data = collect("scoresheets", event, PrintOptions(match=played_match.pk))
    assert data.sheets[0].penalties == ()
    rows, _height = scoresheets._penalty_box((), 500)
    assert len(rows) == 1 + scoresheets.PENALTY_ROWS and not any(any(row) for row in rows[1:])



def test_score_sheets_read_the_rulings_of_their_own_matches_only(ruled_match, chief, monkeypatch):
    """The penalty box replays the rulings of the printed matches alone, not every ruling of the event (a
    round's sheets late in a long event)."""
    from rulings import presenters
    from rulings.services import record_ruling

    event = ruled_match.round.stage.event
    other = (Match.objects.filter(round__stage__event=event, ns__isnull=False, ew__isnull=False)
             .exclude(pk=ruled_match.pk).first())
    record_ruling(other, chief, "late", "EW", minutes=3, hand_number=1)
    replayed, real = [], presenters.match_entries
    monkeypatch.setattr(presenters, "match_entries",
                        lambda match, rulings=None: replayed.append(match.pk) or real(match, rulings))
    _printout, data = collect("scoresheets", event, PrintOptions(match=ruled_match.pk))
    assert replayed == [ruled_match.pk] and len(data.sheets[0].penalties) == 2
    _printout, data = collect("scoresheets", event, PrintOptions(match=other.pk))
    assert replayed[1:] == [other.pk] and [p.side for p in data.sheets[0].penalties] == ["东西"]

def test_penalty_log_names_offences_from_the_sanction_table(ruled_match):
    from tournament.records.ledger import ledger_for

    names = ledger_for(ruled_match.profile).table["offences"]
    text = flat(build_printout("penalties", ruled_match.round.stage.event, PrintOptions(match=ruled_match.pk)))
    for code in ("late", "delay", "cheating"):
        assert names[code]["name"] in text
    assert "late" not in text and "cheating" not in text
    assert "已作废" in text and "待定" in text


def test_waiting_sides_follow_the_language():
    """A knock-out side names its match in words, never its code ("R1-M1")."""
    with translation.override("zh-hans"):
        assert [describe_source(c) for c in ("W:R1-M1", "L:R2-M1", "W:P5-R1-M2", "BYE", "A1", "B12", "")] == [
            "第1轮第1场胜者", "第2轮第1场负者", "第5名起排位赛第1轮第2场胜者", "轮空", "A组第1名", "B组第12名", ""]
    with translation.override("en"):
        assert [describe_source(c) for c in ("W:R1-M1", "L:R2-M1", "W:P5-R1-M2", "BYE", "A1")] == [
            "Winner of Round 1, match 1", "Loser of Round 2, match 1", "Winner of Places from 5, round 1, match 2",
            "Bye", "Group A, place 1"]


def test_english_bracket_and_score_sheet_show_waiting_sides_in_english(event):
    waiting = Match.objects.filter(round__stage__event=event, ns__isnull=True).exclude(ns_source="").first()
    Match.objects.filter(pk=waiting.pk).update(ns_source="A1", ew_source="BYE")
    sheet = flat(build_printout("scoresheets", event, PrintOptions(match=waiting.pk, lang="en")))
    assert "GroupA,place1" in sheet and "Bye" in sheet and "组第" not in sheet and "轮空" not in sheet
    bracket = flat(build_printout("bracket", event, PrintOptions(lang="en")))
    assert "Winnerof" in bracket and "胜者" not in bracket


def test_awards_print_the_list_and_a_certificate_per_holder(finished_event):
    from tournament.competition.placings import award_list, final_ranking

    assert final_ranking(finished_event)[1]
    holders = [(award.title, p) for award in award_list(finished_event) for p in award.places]
    assert [title for title, _p in holders][:3] == ["冠军", "亚军", "季军"]
    pdf = build_printout("awards", finished_event, PrintOptions())
    texts = pages_text(pdf)
    assert len(texts) == 1 + len(holders)
    assert "获奖名单" in texts[0] and "第 1 页 / 共" in texts[0] and "暂定" not in texts[0]
    for (title, place), page in zip(holders, texts[1:]):
        compact = page.replace("\n", "").replace(" ", "")
        pair = finished_event.pairs.get(pk=place.entry.pair_id)
        for expected in ("荣誉证书", title, f"第{place.place}名", pair.player1.name, pair.player2.name, pair.name,
                         f"在{finished_event.name}中荣获",
                         finished_event.organising_body or f"{finished_event.name}组委会", "特发此证",
                         f"{finished_event.end_date.year}年{finished_event.end_date.month}月"
                         f"{finished_event.end_date.day}日"):
            assert expected.replace(" ", "") in compact, (expected, page)
        assert "页" not in compact  # a certificate carries no page header or footer
    fonts = fonts_of(pdf)
    assert fonts and all(embedded for _name, embedded in fonts) and all("WenQuanYi" in n for n, _e in fonts)


def test_no_certificate_while_the_ranking_is_provisional(event):
    texts = pages_text(build_printout("awards", event, PrintOptions()))
    assert len(texts) == 1 and "暂定" in texts[0] and "最终名次确定后方可打印荣誉证书" in texts[0].replace("\n", "")


def test_an_english_certificate_dates_as_the_pages_do_and_keeps_its_title_in_the_frame(finished_event):
    """A new organiser's English certificate read "2026-12-8" and its spaced title ran to the frame."""
    texts = pages_text(build_printout("awards", finished_event, PrintOptions(lang="en")))
    day = (finished_event.end_date or finished_event.start_date).isoformat()
    assert all(day in page for page in texts[1:]) and "Certificate" in texts[1]
    font, inner = register_font(), 842 - 200                # A4 landscape, the frame's inner width
    for title in ("Certificate of honour", "荣誉证书"):
        size, space = awards._title_fit(title, font, inner)
        assert stringWidth(title, font, size) + space * (len(title) - 1) <= inner + 0.01, title
    assert awards._title_fit("荣誉证书", font, inner) == (46, 14)   # the Chinese title as it was
