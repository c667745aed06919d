"""``tablecards``: one table card (桌号牌) per table of a round, to stand on the table.

A landscape A4 page per table: the table number in large type, the group or bracket slot and the start
time, the round's two entries with who sits where, and a QR code that opens the table's page
(``SITE_URL/tables/<match id>/``: levels and hands as they are recorded, readable by anyone who may see
the event; where the players record the hands, the players' table page ``…/self/``, where each side types
the code of its own slip). Byes (no table) get no card. The seat cards (:mod:`.seatcards`) use the same data.
"""
from dataclasses import dataclass

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak

from common import punctuation
from common.errors import UserError, gettext_noop
from tournament.printouts.common import (
    Printout,
    at_tables,
    describe_key,
    entry_label,
    heading_for,
    in_brackets,
    local_time,
    matches_of,
    pick_round,
    source_label,
)
from tournament.printouts.layout import FullPage, Heading, HeadingMark, build_pdf, fit_text
from tournament.printouts.scoresheets import console_url, draw_qr
from tournament.selfscore import modes

QR_SIZE = 62 * mm


@dataclass(frozen=True)
class CardSide:
    """One side of a table: the entry (or where it will come from), its unit and who sits where."""

    label: str        # 南北 / 东西
    entry: str
    unit: str
    seats: tuple      # ((seat label, player name), (seat label, player name)); names empty while unknown


@dataclass(frozen=True)
class TableCard:
    match_id: int
    heading: Heading
    table: str
    position: str     # group or bracket slot
    start: str
    ns: CardSide
    ew: CardSide
    url: str
    players: bool = False   # the players record the hands: the QR code opens their table page


@dataclass(frozen=True)
class CardsData:
    heading: Heading
    cards: tuple


def collect(event, options):
    """A card for every table of the round asked for (a round is required)."""
    if options.round is None:
        raise UserError(gettext_noop("Choose a round."), field="round")
    rnd = pick_round(event, options.round)
    matches = at_tables(matches_of(event).filter(round=rnd))   # a bye: no table card, no seat cards
    players = modes.players_record_stage(rnd.stage)
    cards = tuple(_card(event, m, options.site_url, players)
                  for m in sorted(matches, key=lambda m: (m.table, m.pk)))
    return CardsData(heading=heading_for(event, rnd.stage, rnd), cards=cards)


def _side(label, pair, source, seat_names):
    if pair is None:
        return CardSide(label=label, entry=source_label(source), unit="",
                        seats=((seat_names[0], ""), (seat_names[1], "")))
    return CardSide(label=label, entry=entry_label(pair), unit=pair.unit.name,
                    seats=((seat_names[0], pair.player1.name), (seat_names[1], pair.player2.name)))


def _card(event, match, site_url, players=False):
    rnd = match.round
    if match.group_id:
        position = _("Group %(group)s") % {"group": match.group.name}
    else:
        position = describe_key(match.bracket_key)
    return TableCard(
        match_id=match.pk,
        heading=heading_for(event, rnd.stage, rnd),
        table=str(match.table),
        position=position,
        start=local_time(rnd.scheduled_start),
        ns=_side(_("North–South"), match.ns, match.ns_source, (_("North"), _("South"))),
        ew=_side(_("East–West"), match.ew, match.ew_source, (_("East"), _("West"))),
        url=console_url(match.pk, site_url) + ("self/" if players else ""),
        players=players,
    )


def table_title(number):
    """"第 12 桌"."""
    return _("Table %(number)s") % {"number": number}


def render(data, progress=None):
    """One landscape page per table; ``progress(done, total)`` after each card."""
    if not data.cards:
        raise UserError(gettext_noop("This round has no matches."), field="round")
    total = len(data.cards)
    story = []
    for i, card in enumerate(data.cards, start=1):
        done = (lambda n=i: progress(n, total)) if progress else None
        if story:
            story.append(PageBreak())
        story += [HeadingMark(card.heading), FullPage(lambda c, w, h, x=card: draw_card(c, w, h, x), done)]
    return build_pdf(story, heading=data.heading, title=_("Table cards"), landscape=True)


def draw_card(canvas, width, height, card):
    """The table number, where and when, both entries with their seats, and the table's QR code."""
    left = width - QR_SIZE - 24
    fit_text(canvas, table_title(card.table), 0, height - 120, left, 110, align="centre")
    facts = "    ".join(part for part in (card.position, card.start) if part)
    fit_text(canvas, facts, 0, height - 158, left, 18, align="centre")
    y, between = height - 210, punctuation.colon(get_language())
    for side in (card.ns, card.ew):
        unit = in_brackets(side.unit) if side.unit else ""
        fit_text(canvas, f"{side.label}  {side.entry}{unit}", 0, y, left, 22)
        seats = "    ".join(f"{seat}{between}{name}" for seat, name in side.seats if name)
        if seats:
            fit_text(canvas, seats, 24, y - 28, left - 24, 18)
        y -= 76
    qr_y = (height - QR_SIZE) / 2 + 20
    draw_qr(canvas, card.url, width - QR_SIZE, qr_y, QR_SIZE)
    words = (_("Scan to enter and confirm this table's hands") if card.players
             else _("Scan for this table's levels and hands"))
    fit_text(canvas, words, width - QR_SIZE - 10, qr_y - 16, QR_SIZE + 10, 11, align="centre")
    fit_text(canvas, card.url, width - QR_SIZE - 10, qr_y - 30, QR_SIZE + 10, 8, align="centre")


PRINTOUT = Printout(kind="tablecards", title=gettext_lazy("Table cards"), collect=collect, render=render,
                    uses=("round",), background=True, needs_round=True)
