"""``scoresheets``: one score sheet (记分表) per match, a whole round's sheets in one PDF.

A sheet is for the referee's pen when a phone dies: both entries with their seats, a row per hand
(declarer, trump, level played, defender points, bottom, levels after; hands already recorded are
filled in), a penalty box, signature lines for the referee and both sides, and a QR code that opens
the table's console at ``SITE_URL/tables/<match id>/``.
"""
import itertools
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak

from common.errors import UserError, gettext_noop
from common.qr import qr_modules
from rulings.presenters import matches_log
from scoring.models import Hand
from tournament.printouts.common import (
    Printout,
    at_tables,
    colon,
    entry_label,
    heading_for,
    in_brackets,
    local_time,
    position,
    public_address,
    referee_names,
    selected_matches,
    source_label,
)
from tournament.printouts.layout import (
    FullPage,
    Heading,
    HeadingMark,
    build_pdf,
    draw_grid,
    fit_text,
    grid_heights,
    register_font,
)
from tournament.printouts.penalties import offence_label, offence_names, side_name
from tournament.records.hands import REBEL_FIRST
from tournament.records.ledger import AMENDED, IN_FORCE, LAPSED, REVERSED, VOID

HAND_ROWS = 18          # rows on a sheet (more when more hands are already recorded)
PENALTY_ROWS = 4        # rows in the penalty box (rulings in force first, then blank lines)
MIN_BLANK_PENALTIES = 2  # blank lines left for hand-written rulings however many are printed
PENALTY_ROW = 16
PENALTY_SIZE = 8
BELOW_PENALTIES = 80    # the penalty box's title, the result line and the signatures
QR_SIZE = 28 * mm


@dataclass(frozen=True)
class SheetSide:
    """One side of the table: the entry, its unit and who sits where."""

    label: str
    entry: str
    unit: str
    seats: tuple


@dataclass(frozen=True)
class HandRow:
    number: int
    declarer: str
    trump: str
    level: str
    defender_points: str
    bottom: str
    ns_after: str
    ew_after: str
    # a 造反 (004 二.7): no hand of its own, the deal after it has its number (keyword-only: the result sheet's
    # row adds a field after it)
    rebellion: bool = field(default=False, kw_only=True)


@dataclass(frozen=True)
class SheetPenalty:
    """A ruling in force at the table, as the penalty box shows it."""

    hand: str
    side: str
    offence: str
    sanction: str
    referee: str


@dataclass(frozen=True)
class ScoreSheet:
    match_id: int
    heading: Heading
    table: str
    position: str
    start: str
    ns: SheetSide
    ew: SheetSide
    hands: tuple
    console_url: str
    penalties: tuple = ()
    referee: str = ""   # the referee grid's referee(s) of the table, by display name


@dataclass(frozen=True)
class ScoreSheetsData:
    heading: Heading
    sheets: tuple


def console_url(match_id, site_url=""):
    """The absolute address of a table's console (what the QR code opens), at the site's public address."""
    return f"{public_address(site_url)}/tables/{match_id}/"


def collect(event, options):
    """The sheets of the round (or the one match) asked for, with the hands and rulings recorded so far."""
    chosen = selected_matches(event, options)
    matches = at_tables(chosen)   # a bye is played at no table: no sheet
    if chosen and not matches and options.match is not None:
        raise UserError(gettext_noop("A bye is played at no table: it has no score sheet."), field="match")
    hands = {}
    current = (Hand.objects.filter(match__in=matches, superseded_by__isnull=True)
               .order_by("match_id", "number", REBEL_FIRST, "pk"))
    for hand in current:
        hands.setdefault(hand.match_id, []).append(hand_row(hand))
    penalties = penalties_in_force({m.pk for m in matches})
    referees = referee_names(m.pk for m in matches)
    sheets = tuple(_sheet(event, m, hands.get(m.pk, ()), penalties.get(m.pk, ()), options.site_url,
                          referees.get(m.pk, "")) for m in matches)
    heading = sheets[0].heading if sheets else heading_for(event)
    return ScoreSheetsData(heading=heading, sheets=sheets)


def penalties_in_force(match_ids):
    """``{match id: (SheetPenalty, ...)}``: the live rulings of those matches, in order.

    Voided and reversed rulings are left out; a ruling still waiting (for the chief referee's
    approval or the other side's choice) or whose match loss was refused carries its state in brackets.
    """
    rulings = [r for r in matches_log(match_ids) if r["state"] not in (VOID, REVERSED, AMENDED, LAPSED)]
    names = offence_names(rulings)
    found = {}
    for ruling in rulings:
        mark = "" if ruling["state"] == IN_FORCE else f"【{ruling['state_label']}】"
        found.setdefault(ruling["match"], []).append(SheetPenalty(
            hand=str(ruling["hand_number"]), side=side_name(ruling["side"]), offence=offence_label(ruling, names),
            sanction=mark + str(ruling["explanation"] or ""), referee=ruling["recorded_by"]))
    return {match_id: tuple(rows) for match_id, rows in found.items()}


def hand_row(hand) -> HandRow:
    """One recorded hand as printed: the score sheet's row (the result sheet adds its explanation). A 造反 is
    printed on a row of its own under the number of the deal it precedes, named in the trump's place."""
    rebellion = hand.outcome == Hand.Outcome.REBEL
    return HandRow(
        number=hand.number,
        declarer=str(hand.get_declarer_seat_display()),
        trump=_("Rebellion") if rebellion else str(hand.get_trump_display()),
        level=hand.level_played,
        defender_points="" if rebellion else str(hand.final_points if hand.final_points is not None
                                                 else hand.defender_points),
        bottom=str(hand.bottom_points or ""),
        ns_after=hand.ns_level,
        ew_after=hand.ew_level,
        rebellion=rebellion,
    )


def _side(label, pair, source, seat_names):
    if pair is None:
        return SheetSide(label=label, entry=source_label(source), unit="", seats=())
    return SheetSide(
        label=label,
        entry=entry_label(pair),
        unit=pair.unit.name,
        seats=((seat_names[0], pair.player1.name), (seat_names[1], pair.player2.name)),
    )


def _sheet(event, match, hands, penalties=(), site_url="", referee=""):
    rnd = match.round
    return ScoreSheet(
        match_id=match.pk,
        heading=heading_for(event, rnd.stage, rnd),
        table=str(match.table or ""),
        position=position(match),
        start=local_time(rnd.scheduled_start),
        ns=_side(_("North–South"), match.ns, match.ns_source, (_("North"), _("South"))),
        ew=_side(_("East–West"), match.ew, match.ew_source, (_("East"), _("West"))),
        hands=tuple(hands),
        console_url=console_url(match.pk, site_url),
        penalties=tuple(penalties),
        referee=referee,
    )


def render(data, progress=None):
    """One A4 page per sheet; ``progress(done, total)`` after each sheet."""
    total = len(data.sheets)
    story = []
    for i, sheet in enumerate(data.sheets, start=1):
        done = (lambda n=i: progress(n, total)) if progress else None
        if story:
            story.append(PageBreak())
        story += [HeadingMark(sheet.heading), FullPage(lambda c, w, h, s=sheet: draw_sheet(c, w, h, s), done)]
    if not story:
        raise UserError(gettext_noop("This round has no matches."), field="round")
    return build_pdf(story, heading=data.heading, title=_("Score sheets"))


def draw_sheet(canvas, width, height, sheet):
    """Draw one score sheet filling a frame of ``width`` × ``height``."""
    top = height
    draw_qr(canvas, sheet.console_url, width - QR_SIZE, top - QR_SIZE)
    fit_text(canvas, _("Score sheet"), 0, top - 18, width - QR_SIZE - 6, 18)
    facts = [f"{_('Table')}{colon()}{sheet.table}", f"{_('Match')}{colon()}{sheet.match_id}"]
    if sheet.position:
        facts.append(f"{_('Group / position')}{colon()}{sheet.position}")
    if sheet.start:
        facts.append(f"{_('Start')}{colon()}{sheet.start}")
    if sheet.referee:
        facts.append(f"{_('Referee')}{colon()}{sheet.referee}")
    fit_text(canvas, "    ".join(facts), 0, top - 36, width - QR_SIZE - 6, 10)
    fit_text(canvas, sheet.console_url, width - QR_SIZE, top - QR_SIZE - 8, QR_SIZE, 6, align="centre")
    y = top - 54
    for side in (sheet.ns, sheet.ew):
        y = _draw_side(canvas, side, y, width - QR_SIZE - 6)
    y = min(y, top - QR_SIZE - 14) - 6
    penalty_rows, penalty_height = _penalty_box(sheet.penalties, width)
    y = _draw_hands(canvas, sheet.hands, y, width, reserve=penalty_height + BELOW_PENALTIES)
    y = _draw_penalties(canvas, penalty_rows, y - 14, width)
    _draw_result_and_signatures(canvas, y - 12, width)


def draw_qr(canvas, url, x, y, size=QR_SIZE, border=1):
    """A QR code of ``url`` in a square of ``size`` points with its lower-left corner at (x, y).

    Encoded by reportlab's QR widget, drawn as filled runs straight on the canvas (rendering the
    widget as a Drawing would add a non-embedded Times-Roman font resource to the page).
    """
    modules = qr_modules(url)
    box = size / (len(modules) + 2 * border)
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(modules):
        c = 0
        for dark, run in itertools.groupby(bool(v) for v in row):
            length = len(list(run))
            if dark:
                canvas.rect(x + (c + border) * box, y + size - (r + border + 1) * box, length * box, box,
                            stroke=0, fill=1)
            c += length
    canvas.restoreState()


def _draw_side(canvas, side, y, width):
    """One entry: "南北: [1] 名称（单位）  北: 甲  南: 乙"; returns the next y."""
    unit = in_brackets(side.unit) if side.unit else ""
    fit_text(canvas, f"{side.label}: {side.entry}{unit}", 0, y, width * 0.55, 11)
    seats = "    ".join(f"{seat}: {name}" for seat, name in side.seats)
    fit_text(canvas, seats, width * 0.57, y, width * 0.43, 10)
    return y - 18


def _draw_hands(canvas, hands, top, width, reserve):
    """The hand table: recorded hands filled in, then empty rows to fill by hand (``reserve`` points
    are left below it for the penalty box and the signatures)."""
    header = [_("Hand"), _("Declarer"), _("Trump"), _("Level played"), _("Defender points"), _("Bottom"),
              _("N–S level after"), _("E–W level after"), _("Referee")]
    shares = (0.07, 0.11, 0.1, 0.1, 0.13, 0.1, 0.13, 0.13, 0.13)
    widths = [s * width for s in shares]
    rows = [header] + [[h.number, h.declarer, h.trump, h.level, h.defender_points, h.bottom, h.ns_after,
                        h.ew_after, ""] for h in hands]
    blanks = max(HAND_ROWS - len(hands), 2)
    # after a 造反 the deal it precedes is still to be played under its number
    first_blank = (hands[-1].number + (0 if hands[-1].rebellion else 1)) if hands else 1
    rows += [[first_blank + i] + [""] * 8 for i in range(blanks)]
    row_height = min(17, (top - reserve) / len(rows))
    return draw_grid(canvas, 0, top, widths, row_height, rows, size=min(9, row_height - 5))


PENALTY_SHARES = (0.07, 0.08, 0.2, 0.52, 0.13)
PENALTY_ALIGNS = ("centre", "centre", "left", "left", "centre")


def _penalty_box(penalties, width):
    """The penalty box's rows (header, the rulings in force, then blank rows) and its height."""
    header = [_("Hand"), _("Side"), _("Offence"), _("Penalty"), _("Referee")]
    filled = [[p.hand, p.side, p.offence, p.sanction, p.referee] for p in penalties]
    blanks = max(PENALTY_ROWS - len(filled), MIN_BLANK_PENALTIES)
    rows = [header] + filled + [[""] * 5] * blanks
    widths = [w * width for w in PENALTY_SHARES]
    return rows, sum(grid_heights(widths, PENALTY_ROW, rows, size=PENALTY_SIZE, wrap=True))


def _draw_penalties(canvas, rows, top, width):
    """The penalty box under its title; returns the y of its bottom edge."""
    fit_text(canvas, _("Penalties"), 0, top + 3, width, 11)
    return draw_grid(canvas, 0, top - 2, [w * width for w in PENALTY_SHARES], PENALTY_ROW, rows,
                     size=PENALTY_SIZE, wrap=True, aligns=PENALTY_ALIGNS)


def _draw_result_and_signatures(canvas, top, width):
    """Winner and final levels to fill in, then three signature lines."""
    font = register_font()
    canvas.setFont(font, 10)
    final_levels = _("Final levels")
    canvas.drawString(0, top, f"{_('Winner')}{colon()}____________________    {final_levels}{colon()}"
                              f"{_('N–S')} ______  {_('E–W')} ______")
    labels = (_("Referee"), _("North–South"), _("East–West"))
    slot = width / len(labels)
    for i, label in enumerate(labels):
        x = i * slot
        canvas.line(x + 4, top - 34, x + slot - 10, top - 34)
        fit_text(canvas, label + " " + _("signature"), x + 4, top - 46, slot - 14, 9)


PRINTOUT = Printout(kind="scoresheets", title=gettext_lazy("Score sheets"), collect=collect, render=render,
                    uses=("round", "match"), background=True)
