"""The sides' slips: one per side of a table, each on its own part of the sheet, cut apart along the dashed
lines before they are handed out (the code of a side never on a part the opponents get).

A slip shows the table, the round, the side and its entry, the side's code in large type and a QR code
that opens the players' table page with the code in the address's fragment (``#code=``: never sent to
the server, never in its logs). The codes come from :mod:`tournament.selfscore.codes` (issued just now,
shown this once): the PDF is built in the request that issued them and kept nowhere.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from reportlab.platypus import PageBreak

from common.errors import UserError, gettext_noop
from tournament.models import Match
from tournament.printouts.common import entry_label, heading_for, public_address
from tournament.printouts.layout import RULE_GREY, FullPage, HeadingMark, build_pdf, fit_text
from tournament.printouts.scoresheets import draw_qr
from tournament.printouts.tablecards import table_title
from tournament.selfscore.pages import side_name

COLUMNS, ROWS = 2, 3   # six parts a sheet


@dataclass(frozen=True)
class Slip:
    table: str
    side: str       # 南北 / 东西
    entry: str
    code: str       # "1234 5678"
    url: str        # the players' page with the code in the fragment


def players_url(match_id, site_url="", code="") -> str:
    """The players' table page at the site's public address (with ``code`` in the fragment)."""
    address = public_address(site_url) + reverse("selfscore-table", args=[match_id])
    return f"{address}#code={code}" if code else address


def slips_of(issued, site_url="") -> list[Slip]:
    """A slip for each code issued (``codes.Issued``), in table order, north–south first."""
    matches = Match.objects.select_related("ns__unit", "ew__unit").in_bulk([i.match_id for i in issued])
    slips = []
    for item in sorted(issued, key=lambda i: (i.table or 0, i.match_id, i.side != "NS")):
        match = matches[item.match_id]
        pair = match.ns if item.side == "NS" else match.ew
        slips.append(Slip(table=str(item.table or ""), side=side_name(item.side),
                          entry=entry_label(pair) if pair else "",
                          code=f"{item.code[:4]} {item.code[4:]}", url=players_url(item.match_id, site_url, item.code)))
    return slips


def render(rnd, slips) -> bytes:
    """The slips, six parts a sheet, cut lines between them."""
    if not slips:
        raise UserError(gettext_noop("This round has no open table with two entries: no slips to print."),
                        field="round")
    heading = heading_for(rnd.stage.event, rnd.stage, rnd)
    story = []
    per_page = COLUMNS * ROWS
    for start in range(0, len(slips), per_page):
        if story:
            story.append(PageBreak())
        page = slips[start:start + per_page]
        story += [HeadingMark(heading), FullPage(lambda c, w, h, p=page, r=rnd: _draw_page(c, w, h, p, r))]
    return build_pdf(story, heading=heading, title=_("Side code slips"))


def _draw_page(canvas, width, height, slips, rnd):
    part_w, part_h = width / COLUMNS, height / ROWS
    for i, slip in enumerate(slips):
        column, row = i % COLUMNS, i // COLUMNS
        _draw_slip(canvas, column * part_w, height - (row + 1) * part_h, part_w, part_h, slip, rnd)
    canvas.saveState()
    canvas.setStrokeColor(RULE_GREY)
    canvas.setDash(4, 3)
    canvas.setLineWidth(0.6)
    for column in range(1, COLUMNS):
        canvas.line(column * part_w, 0, column * part_w, height)
    for row in range(1, ROWS):
        canvas.line(0, row * part_h, width, row * part_h)
    canvas.restoreState()


def _draw_slip(canvas, x, y, width, height, slip, rnd):
    pad = 12
    qr = min(width * 0.42, height - 2 * pad - 40)
    text_w = width - qr - 3 * pad
    top = y + height - pad
    fit_text(canvas, f"{table_title(slip.table)} · {rnd.label}", x + pad, top - 18, text_w, 16)
    fit_text(canvas, slip.side, x + pad, top - 44, text_w, 20)
    fit_text(canvas, slip.entry, x + pad, top - 62, text_w, 10)
    fit_text(canvas, _("Your side's code"), x + pad, top - 86, text_w, 10)
    below = max(qr + 24, 130)   # under the QR code and its caption: the code and the rules across the part
    fit_text(canvas, slip.code, x + pad, top - below - 28, width - 2 * pad, 30)
    fit_text(canvas, _("For your side only: enter and confirm each hand with it."), x + pad, top - below - 48,
             width - 2 * pad, 9)
    fit_text(canvas, _("Do not let the opponents read it."), x + pad, top - below - 61, width - 2 * pad, 9)
    draw_qr(canvas, slip.url, x + width - pad - qr, top - qr, qr)
    fit_text(canvas, _("Scan: the table's page opens with your code"), x + width - pad - qr - 6, top - qr - 12,
             qr + 12, 7, align="centre")
