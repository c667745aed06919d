"""Printouts: Chinese text extracts back exactly, fonts are embedded, every kind builds."""
import io
import tracemalloc

import pytest
from django.utils import translation
from pypdf import PdfReader

from scoring.engine.lines import chinese_lines
from tests.tournament.refusals import refused
from tests.tournament.test_printouts_data import (  # noqa: F401  (fixtures)
    chief,
    event,
    first_round,
    played_match,
    synthetic_bracket,
    synthetic_scoresheets,
)
from tournament.printouts import bracket, scoresheets
from tournament.printouts.common import PrintOptions
from tournament.printouts.registry import PRINTOUTS
from tournament.printouts.services import build_printout
from tournament.templatetags.names import seat_names


def pages_text(pdf):
    return [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]


def fonts_of(pdf):
    """(name, embedded?) of every font in every page's /Resources /Font."""
    found = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for name, ref in page["/Resources"]["/Font"].items():
            font = ref.get_object()
            fonts = [d.get_object() for d in font.get("/DescendantFonts", [])] or [font]
            for f in fonts:
                descriptor = f.get("/FontDescriptor")
                embedded = descriptor is not None and any(
                    k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
                found.append((str(f.get("/BaseFont")), embedded))
    return found


def options_for(kind, round_id, match_id):
    printout = PRINTOUTS[kind]
    if "match" in printout.uses:
        return PrintOptions(match=match_id)
    if printout.needs_round:  # a card per table of the round asked for
        return PrintOptions(round=round_id)
    return PrintOptions()


BARE_PAGES = {"poster"}  # a whole page for the wall: no header or footer


EXPECTED_TITLE = {
    "bracket": "对阵图 · 淘汰赛", "schedule": "赛程", "scoresheets": "记分表", "results": "成绩单",
    "crosstable": "对阵成绩表", "standings": "排名", "penalties": "判罚记录", "awards": "获奖名单", "draw": "抽签记录",
    "swiss": "瑞士制对阵与排名", "units": "团体总分", "tablecards": "第 1 桌", "seatcards": "北", "poster": "扫码查看赛程",
}


@pytest.mark.parametrize("kind", list(PRINTOUTS))
def test_every_kind_in_chinese_with_header_footer_and_embedded_fonts(kind, event, first_round, played_match):
    pdf = build_printout(kind, event, options_for(kind, first_round.pk, played_match.pk))
    texts = pages_text(pdf)
    total = len(texts)
    for number, page in enumerate(texts, start=1):
        lines = page.splitlines()
        if kind in BARE_PAGES:
            assert event.name in "".join(page.split()) and "2026-12-05" in page  # a long name may wrap
            continue
        assert event.name in lines
        assert f"第 {number} 页 / 共 {total} 页" in lines
        assert "2026-12-05" in lines
    assert EXPECTED_TITLE[kind] in "\n".join(texts)
    fonts = fonts_of(pdf)
    assert fonts and all(embedded for _name, embedded in fonts), fonts
    assert all("WenQuanYiMicroHei" in name for name, _ in fonts)



def test_pages_are_finished_as_they_end_though_the_footer_names_the_total():
    """Each page is compressed when it ends (its footer, which names the total, added at the end as a second
    stream): a longer document costs a few KB a page more, not the ~60 KB of a page's drawing operations."""
    def peak(count):
        data = synthetic_scoresheets(count)
        tracemalloc.start()
        pdf = scoresheets.render(data)
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return peak, pdf

    with translation.override("zh-hans"):
        peak(2)  # the font and the caches, loaded once
        small, _pdf = peak(16)
        large, pdf = peak(80)
    assert (large - small) / 64 < 20 * 1024
    texts = pages_text(pdf)
    assert len(texts) == 80 and "第 80 页 / 共 80 页" in texts[-1].splitlines() and "参赛队160" in texts[-1]

def test_score_sheet_has_round_header_hands_qr_address_and_boxes(event, first_round, played_match, settings):
    settings.SITE_URL = "https://tractor.example.org/"
    pdf = build_printout("scoresheets", event, PrintOptions(round=first_round.pk))
    texts = pages_text(pdf)
    assert len(texts) == first_round.matches.exclude(table=None).count() + first_round.matches.filter(
        table=None).count()
    first = texts[0].splitlines()
    assert "小组赛 · 第1轮" in first
    assert f"https://tractor.example.org/tables/{played_match.pk}/" in first
    page = texts[0]
    for label in ("庄家", "主牌", "所打级", "防家得分", "底分", "南北级（局后）", "判罚记录", "裁判员 签名",
                  "南北 签名", "东西 签名", "北: ", "南: "):
        assert label in page
    assert played_match.ns.player1.name in page and played_match.ew.unit.name in page


def test_results_sheet_prints_each_hands_explanation(event, played_match):
    text = "\n".join(pages_text(build_printout("results", event, PrintOptions(match=played_match.pk))))
    for hand in played_match.hands.all():
        for line in chinese_lines(hand.explanation):   # seats named in Chinese in a Chinese printout (item 14)
            assert seat_names(line).replace(" ", "") in text.replace(" ", "").replace("\n", "")


def test_standings_say_how_ties_were_broken(event):
    from tournament.competition.group_standings import event_standings

    notes = {row.tie_note for st in event_standings(event) for g in st.groups for row in g.rows if row.tie_note}
    text = "".join(pages_text(build_printout("standings", event, PrintOptions()))).replace("\n", "")
    assert notes and all(note in text for note in notes)
    assert "同分破解" in text and "最终名次" in text


def test_crosstable_shows_results_points_and_places(event):
    text = "\n".join(pages_text(build_printout("crosstable", event, PrintOptions())))
    assert "A组" in text and "已赛 1 / 6 场" in text and "积分" in text and "净胜级数" in text


def test_english_on_request(event, played_match):
    texts = pages_text(build_printout("scoresheets", event, PrintOptions(match=played_match.pk, lang="en")))
    assert "Score sheet" in texts[0] and "Page 1 of 1" in texts[0].splitlines()
    assert event.name in texts[0].splitlines()


def test_round_and_match_checks(event, first_round):
    with refused("round", "请指定轮次"):
        build_printout("scoresheets", event, PrintOptions())
    with refused("round", "本赛事没有轮次 999999"):
        build_printout("scoresheets", event, PrintOptions(round=999999))
    with refused("match", "本赛事没有场次 999999"):
        build_printout("results", event, PrintOptions(match=999999))
    with refused("match", "不适用于打印件 bracket"):
        build_printout("bracket", event, PrintOptions(match=first_round.matches.first().pk))
    with refused("lang", "未知的语言 'fr'"):
        PrintOptions(lang="fr")


def test_draw_sheet_prints_each_seed(event):
    from tournament.competition.draws import draw_bracket
    from tournament.models import Draw, Stage

    stage = Stage.objects.get(event=event, kind=Stage.Kind.ELIMINATION)
    draw_bracket(stage, seed="printout-seed-42")  # a redraw with a known seed, before any match starts
    text = "\n".join(pages_text(build_printout("draw", event, PrintOptions())))
    assert "抽签种子：printout-seed-42" in text
    assert Draw.objects.filter(event=event, seed="printout-seed-42").exists()


def test_small_bracket_fits_a4_landscape_and_large_one_is_split_with_links():
    pdf = bracket.render(synthetic_bracket(64))
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1 and reader.pages[0].mediabox.width > reader.pages[0].mediabox.height
    assert "[1] 参赛队1" in reader.pages[0].extract_text()
    big = PdfReader(io.BytesIO(bracket.render(synthetic_bracket(128))))
    assert len(big.pages) == 1 and round(float(big.pages[0].mediabox.height)) == 1191  # A3 portrait
    split = pages_text(bracket.render(synthetic_bracket(256)))
    assert len(split) == 5
    for part in range(4):
        assert "胜者进入第 5 页" in split[part]
        assert f"来自第 {part + 1} 页" in split[4]


def test_penalty_log_of_the_event_and_of_a_match(event):
    from rulings.models import Ruling

    ruling = Ruling.objects.get(match__round__stage__event=event)
    text = "".join(pages_text(build_printout("penalties", event, PrintOptions()))).replace("\n", "")
    assert "判罚记录" in text and "迟到" in text and ruling.recorded_by.get_username() in text
    assert "小组赛 · 第1轮" in text and "late" not in text
    one = "".join(pages_text(build_printout("penalties", event, PrintOptions(match=ruling.match_id))))
    assert f"场次 {ruling.match_id}" in one and "迟到" in one


def test_the_bracket_names_matches_and_sections_in_words(event):
    """The bracket sheet names a match by its round and number and a placement section by its places, as the
    pages do ("第3–4名决赛"), never by the stored key ("R1-M1", "P3-R1-M1")."""
    from tournament.models import Match

    keys = set(Match.objects.filter(round__stage__event=event).exclude(bracket_key="")
               .values_list("bracket_key", flat=True))
    assert {"R1-M1", "P3-R1-M1"} <= keys
    text = "\n".join(pages_text(build_printout("bracket", event, PrintOptions())))
    assert "第3–4名决赛" in text and "第1轮第1场" in text
    assert not any(key in text for key in keys)
