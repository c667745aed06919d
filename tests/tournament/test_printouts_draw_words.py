"""The draw sheet in words (issue 16): which entry went to which group and place, which bracket slot, which
seats and table, with its seed number and the draw's seed — not the raw JSON of the record."""
import pytest

from tests.tournament.test_draws_support import make_event
from tests.tournament.test_printouts import fonts_of, pages_text
from tournament.competition import draws
from tournament.competition.stages import create_stages_from_format
from tournament.models import Draw, GroupEntry, Match, Pair
from tournament.models.competition import describe_key
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout


@pytest.fixture
def drawn_event(db):
    event = make_event(8, 4, seeds=2, slug="words")
    groups, knockout = create_stages_from_format(event)[:2]
    draws.draw_groups(groups, seed="words-groups")
    draws.draw_seats(groups, seed="words-seats")
    draws.draw_tables(groups, seed="words-tables")
    draws.draw_bracket(knockout, seed="words-bracket")
    return event, groups, knockout


def _words(pdf):
    """The sheet's text, and its words (each draw's part before its small "data for checking") with the table
    cells (one text line each when extracted) joined by single spaces, so a table row reads "A 1 第01对 单位1"."""
    text = "\n".join(pages_text(pdf))
    words = " ".join(part.split("复核数据")[0] for part in text.split("抽签种子"))
    return text, " ".join(words.split()) + " "


def test_group_draw_names_each_entry_its_group_place_unit_and_seed(drawn_event):
    event, groups, _knockout = drawn_event
    text, words = _words(build_printout("draw", event, PrintOptions()))
    assert "抽签种子：words-groups" in text
    assert "8 支参赛对抽入 2 个小组" in words
    for member in GroupEntry.objects.filter(group__stage=groups).select_related("group", "pair__unit"):
        pair = member.pair
        seed = f" {pair.seed}" if pair.seed else ""
        row = f" {member.group.name} {member.position} {pair.name} {pair.unit.name}{seed} "
        assert row in words, (row, words)
    assert '{"' not in words and "[[" not in words  # the raw record is only in the small checking part
    fonts = fonts_of(build_printout("draw", event, PrintOptions()))
    assert fonts and all(embedded for _name, embedded in fonts)


def test_seat_and_table_draws_name_round_table_and_both_sides(drawn_event):
    event, groups, _knockout = drawn_event
    _text, words = _words(build_printout("draw", event, PrintOptions()))
    seats_part = words.split("由抽签决定坐南北")[1].split("各轮桌号由抽签决定")[0]
    seats = Draw.objects.get(stage=groups, kind=Draw.Kind.SEATS)
    pairs = {p.pk: p for p in Pair.objects.filter(event=event)}

    def side(pk):
        return f"[{pairs[pk].seed}] {pairs[pk].name}" if pairs[pk].seed else pairs[pk].name

    for match_id, ns, ew in seats.result["seats"]:
        match = Match.objects.select_related("round").get(pk=match_id)  # tables drawn after: today's number
        assert f" {match.round.name} " in seats_part and f" {side(ns)} {side(ew)} " in seats_part, (side(ns), side(ew))
    tables_part = words.split("各轮桌号由抽签决定")[1]
    for match in Match.objects.filter(round__stage=groups).exclude(table=None).select_related("round"):
        row = f" {match.round.name} {match.table} {side(match.ns_id)} {side(match.ew_id)} "
        assert row in tables_part, row


def test_bracket_draw_names_the_first_round_slots(drawn_event):
    event, _groups, knockout = drawn_event
    _text, words = _words(build_printout("draw", event, PrintOptions()))
    bracket_part = words.split("交叉")[1]
    for match in Match.objects.filter(round__stage=knockout, round__number=1):
        ns = f"{match.ns_source[0]}组第{match.ns_source[1:]}名"
        ew = f"{match.ew_source[0]}组第{match.ew_source[1:]}名"
        assert f" {describe_key(match.bracket_key)} {ns} {ew} " in bracket_part, (match.bracket_key, ns, ew, bracket_part)
