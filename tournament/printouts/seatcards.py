"""``seatcards``: the seat cards (座位牌) of a round — 北, 南, 东 and 西 with the player who sits there.

One portrait A4 page per table, cut along the dashed lines into four cards: the seat in large type, the
player's name, the entry with its unit and the table number. North and South are the North–South entry's
first and second player, East and West the East–West entry's (as on the score sheet). A side not known
yet (a knock-out waiting for a winner) says where it will come from and leaves the name blank.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib import colors
from reportlab.platypus import PageBreak

from common.errors import UserError, gettext_noop
from tournament.printouts.common import Printout, in_brackets
from tournament.printouts.layout import RULE_GREY, FullPage, Heading, HeadingMark, build_pdf, fit_text
from tournament.printouts.tablecards import collect as collect_tables
from tournament.printouts.tablecards import table_title

SEAT_GREY = colors.Color(0.25, 0.25, 0.25)


@dataclass(frozen=True)
class SeatCard:
    seat: str      # 北 / 南 / 东 / 西
    player: str
    entry: str     # the entry and its unit, or where it will come from
    table: str


@dataclass(frozen=True)
class SeatPage:
    heading: Heading
    table: str
    cards: tuple   # four SeatCards: north, south, east, west


@dataclass(frozen=True)
class SeatCardsData:
    heading: Heading
    pages: tuple


def collect(event, options):
    """The four seat cards of every table of the round asked for (a round is required)."""
    tables = collect_tables(event, options)
    return SeatCardsData(heading=tables.heading, pages=tuple(_page(card) for card in tables.cards))


def _page(card):
    cards = []
    for side in (card.ns, card.ew):
        entry = side.entry + in_brackets(side.unit) if side.unit else side.entry
        cards += [SeatCard(seat=seat, player=name, entry=entry, table=card.table) for seat, name in side.seats]
    return SeatPage(heading=card.heading, table=card.table, cards=tuple(cards))


def render(data, progress=None):
    """One page per table with its four cards; ``progress(done, total)`` after each page."""
    if not data.pages:
        raise UserError(gettext_noop("This round has no matches."), field="round")
    total = len(data.pages)
    story = []
    for i, page in enumerate(data.pages, start=1):
        done = (lambda n=i: progress(n, total)) if progress else None
        if story:
            story.append(PageBreak())
        story += [HeadingMark(page.heading), FullPage(lambda c, w, h, p=page: draw_page(c, w, h, p), done)]
    return build_pdf(story, heading=data.heading, title=_("Seat cards"))


def draw_page(canvas, width, height, page):
    """Four cards in a 2 × 2 grid with dashed cut lines between them."""
    half_w, half_h = width / 2, height / 2
    spots = ((0, half_h), (half_w, half_h), (0, 0), (half_w, 0))
    for (x, y), card in zip(spots, page.cards):
        _draw_card(canvas, x, y, half_w, half_h, card)
    canvas.saveState()
    canvas.setStrokeColor(RULE_GREY)
    canvas.setDash(4, 3)
    canvas.setLineWidth(0.6)
    canvas.line(half_w, 0, half_w, height)
    canvas.line(0, half_h, width, half_h)
    canvas.restoreState()


def _draw_card(canvas, x, y, width, height, card):
    pad = 14
    inner = width - 2 * pad
    canvas.saveState()
    canvas.setFillColor(SEAT_GREY)
    fit_text(canvas, card.seat, x + pad, y + height - 130, inner, 110, align="centre")
    canvas.restoreState()
    fit_text(canvas, card.player or "____________", x + pad, y + height - 190, inner, 30, align="centre")
    fit_text(canvas, card.entry, x + pad, y + height - 222, inner, 13, align="centre")
    fit_text(canvas, table_title(card.table), x + pad, y + 24, inner, 16, align="centre")


PRINTOUT = Printout(kind="seatcards", title=gettext_lazy("Seat cards"), collect=collect, render=render,
                    uses=("round",), background=True, needs_round=True)
