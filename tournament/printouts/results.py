"""``results``: a match's result sheet (成绩单) from the recorded hands, with each hand's explanation.

``--match`` prints one match, ``--round`` every match of the round (one after another).
"""
from dataclasses import asdict, dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import PageBreak, Spacer

from common.errors import UserError, gettext_noop
from scoring.models import Hand
from tournament.printouts.common import Printout, heading_for, local_time, players_label, selected_matches, side_label
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text
from tournament.printouts.scoresheets import HandRow, hand_row


@dataclass(frozen=True)
class ResultHand(HandRow):
    """A score sheet's hand row with the engine's explanation (the result sheet shows why)."""

    explanation: str


@dataclass(frozen=True)
class ResultSheet:
    heading: Heading
    match_id: int
    table: str
    position: str
    ns: str
    ew: str
    status: str
    winner: str
    levels: str
    note: str
    finished: str
    hands: tuple


@dataclass(frozen=True)
class ResultsData:
    heading: Heading
    sheets: tuple


def collect(event, options):
    """The result sheets of the match or round asked for."""
    matches = selected_matches(event, options)
    hands = {}
    current = Hand.objects.filter(match__in=matches, superseded_by__isnull=True).order_by("match_id", "number")
    for hand in current:
        hands.setdefault(hand.match_id, []).append(_hand(hand))
    sheets = tuple(_sheet(event, m, hands.get(m.pk, ())) for m in matches)
    return ResultsData(heading=sheets[0].heading if sheets else heading_for(event), sheets=sheets)


def _hand(hand):
    lines = hand.explanation if isinstance(hand.explanation, list) else [hand.explanation]
    return ResultHand(**asdict(hand_row(hand)), explanation="\n".join(str(line) for line in lines if line))


def _entry(pair, source):
    players = players_label(pair)
    return f"{side_label(pair, source)}（{players}）" if players else side_label(pair, source)


def _sheet(event, match, hands):
    rnd = match.round
    levels = f"{match.ns_level or '-'} : {match.ew_level or '-'}" if (match.ns_level or match.ew_level) else ""
    return ResultSheet(
        heading=heading_for(event, rnd.stage, rnd),
        match_id=match.pk,
        table=str(match.table or ""),
        position=match.group.name if match.group_id else match.bracket_key,
        ns=_entry(match.ns, match.ns_source),
        ew=_entry(match.ew, match.ew_source),
        status=str(match.get_status_display()),
        winner=match.winner.name if match.winner_id else "",
        levels=levels,
        note=match.result_note,
        finished=local_time(match.finished_at),
        hands=tuple(hands),
    )


def render(data, progress=None):
    """One section per match: entries, result, then a row per hand with its explanation."""
    if not data.sheets:
        raise UserError(gettext_noop("This round has no matches."), field="round")
    sheet_style = styles()
    width, _height = content_size()
    header = [_("Hand"), _("Declarer"), _("Trump"), _("Level played"), _("Defender points"), _("Bottom"),
              _("N–S level after"), _("E–W level after"), _("Explanation")]
    widths = [w * width for w in (0.06, 0.08, 0.08, 0.07, 0.09, 0.07, 0.08, 0.08, 0.39)]
    story = []
    for sheet in data.sheets:
        if story:
            story.append(PageBreak())
        story += [HeadingMark(sheet.heading), text(_("Result sheet"), sheet_style["title"])]
        facts = [f"{_('Table')}: {sheet.table}", f"{_('Match')}: {sheet.match_id}"]
        if sheet.position:
            facts.append(f"{_('Group / position')}: {sheet.position}")
        story += [text("    ".join(facts), sheet_style["body"]),
                  text(f"{_('North–South')}: {sheet.ns}", sheet_style["body"]),
                  text(f"{_('East–West')}: {sheet.ew}", sheet_style["body"]),
                  text(_result_line(sheet), sheet_style["subtitle"]),
                  Spacer(1, 4)]
        if sheet.hands:
            rows = [[h.number, h.declarer, h.trump, h.level, h.defender_points, h.bottom, h.ns_after, h.ew_after,
                     h.explanation] for h in sheet.hands]
            story.append(grid_table(header, rows, widths, font_size=8))
        else:
            story.append(text(_("No hand has been recorded yet."), sheet_style["body"]))
    return build_pdf(story, heading=data.heading, title=_("Result sheet"))


def _result_line(sheet):
    """"状态：已结束 · 胜方：… · 终局级数 A : 9 · 备注"."""
    parts = [f"{_('Status')}: {sheet.status}"]
    if sheet.winner:
        parts.append(f"{_('Winner')}: {sheet.winner}")
    if sheet.levels:
        parts.append(_("Final levels") + f": {sheet.levels}")
    if sheet.finished:
        parts.append(f"{_('Finished')}: {sheet.finished}")
    if sheet.note:
        parts.append(sheet.note)
    return " · ".join(parts)


PRINTOUT = Printout(kind="results", title=gettext_lazy("Result sheets"), collect=collect, render=render,
                    uses=("round", "match"))
