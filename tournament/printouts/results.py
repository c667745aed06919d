"""``results``: a match's result sheet (成绩单) from the recorded hands and the rulings in force, each hand with its
explanation, as the table page shows it.

``--match`` prints one match, ``--round`` every match of the round (one after another).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import PageBreak, Spacer

from common.errors import UserError, gettext_noop
from scoring.explanations import hand_lines
from scoring.models import SEAT_CHOICES
from scoring.presenters import hand_entries, state_payload
from scoring.profile_store import shared_version
from tournament.printouts.common import (
    Printout,
    at_tables,
    colon,
    heading_for,
    in_brackets,
    local_time,
    players_label,
    position,
    selected_matches,
    side_label,
)
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text
from tournament.printouts.scoresheets import HandRow
from tournament.records.adjustments import match_replay
from tournament.records.notes import note_words

SEATS = dict(SEAT_CHOICES)


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
    """The result sheets of the match or round asked for: each hand as the table page shows it, replayed with
    the rulings in force (a lateness recorded hands later changes hand 1's points and the levels after it)."""
    chosen = selected_matches(event, options)
    matches = at_tables(chosen)   # a bye is played at no table: no hands, no result sheet
    if chosen and not matches and options.match is not None:
        raise UserError(gettext_noop("A bye is played at no table: it has no result sheet."), field="match")
    sheets = tuple(_sheet(event, m, _hands(m)) for m in matches)
    return ResultsData(heading=sheets[0].heading if sheets else heading_for(event), sheets=sheets)


def _hands(match):
    """The match's hands replayed from its current hands and rulings (``scoring.presenters.state_payload``,
    the table page's own rows), as the sheet prints them."""
    if match.ns_id is None or match.ew_id is None:
        return ()
    replay = match_replay(match)
    rows = [row for _number, row, _result in hand_entries(replay)]   # a 造反 and its deal share a number
    return tuple(_hand(shown, row, shared_version(match.profile_id))
                 for shown, row in zip(state_payload(match, None, replay, allowed=False)["hands"], rows, strict=True))


def _hand(shown, row, profile=None):
    """One hand: the recorded inputs (trump, bottom) beside the replay's result (final points, levels, why; an
    award's reason, a sanction's explanation, read under the match's ``profile``)."""
    lines = hand_lines(shown["items"] or shown["explanation"], profile)
    return ResultHand(
        number=shown["number"],
        declarer=str(SEATS.get(shown["declarer_seat"], shown["declarer_seat"] or "")),
        trump=str(shown["trump_label"] or (_("Rebellion") if shown["kind"] == "rebel" else "")),
        level=shown["level_played"] or "",
        defender_points=str(shown["final_points"] if shown["final_points"] is not None else ""),
        bottom=str(row.bottom_points or "") if row is not None else "",
        ns_after=shown["ns_level"] or "",
        ew_after=shown["ew_level"] or "",
        explanation="\n".join(lines),
    )


def _entry(pair, source):
    players = players_label(pair)
    return side_label(pair, source) + in_brackets(players) if players else side_label(pair, source)


def _sheet(event, match, hands):
    rnd = match.round
    levels = f"{match.ns_level or '-'} : {match.ew_level or '-'}" if (match.ns_level or match.ew_level) else ""
    return ResultSheet(
        heading=heading_for(event, rnd.stage, rnd),
        match_id=match.pk,
        table=str(match.table or ""),
        position=position(match),
        ns=_entry(match.ns, match.ns_source),
        ew=_entry(match.ew, match.ew_source),
        status=str(match.get_status_display()),
        winner=match.winner.name if match.winner_id else "",
        levels=levels,
        note=note_words(match.result_note),
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
        facts = [f"{_('Table')}{colon()}{sheet.table}", f"{_('Match')}{colon()}{sheet.match_id}"]
        if sheet.position:
            facts.append(f"{_('Group / position')}{colon()}{sheet.position}")
        story += [text("    ".join(facts), sheet_style["body"]),
                  text(f"{_('North–South')}{colon()}{sheet.ns}", sheet_style["body"]),
                  text(f"{_('East–West')}{colon()}{sheet.ew}", sheet_style["body"]),
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
    parts = [f"{_('Status')}{colon()}{sheet.status}"]
    if sheet.winner:
        parts.append(f"{_('Winner')}{colon()}{sheet.winner}")
    if sheet.levels:
        parts.append(_("Final levels") + colon() + f"{sheet.levels}")
    if sheet.finished:
        parts.append(f"{_('Finished')}{colon()}{sheet.finished}")
    if sheet.note:
        parts.append(sheet.note)
    return " · ".join(parts)


PRINTOUT = Printout(kind="results", title=gettext_lazy("Result sheets"), collect=collect, render=render,
                    uses=("round", "match"))
