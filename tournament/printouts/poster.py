"""``poster``: an A4 poster (海报) for the hall door or a notice board, with the event page's QR code.

A whole portrait page without header or footer: the event's name in large type, its dates, venue and
organising body, and a large QR code that opens the event's public page (``SITE_URL/events/<slug>/``:
schedule, group tables, bracket and results), with the address printed under it.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib import colors
from reportlab.lib.units import mm

from tournament.printouts.common import Printout, event_dates, heading_for, public_address
from tournament.printouts.layout import FullPage, Heading, build_pdf, fit_text, register_font, wrap_text
from tournament.printouts.scoresheets import draw_qr

POSTER_RED = colors.Color(0.7, 0.15, 0.12)
QR_SIZE = 110 * mm
TITLE_SIZE = 40


@dataclass(frozen=True)
class PosterData:
    heading: Heading
    event: str
    dates: str
    venue: str
    organiser: str
    url: str


def event_url(event, site_url=""):
    """The absolute address of the event's public page (what the poster's QR code opens)."""
    return f"{public_address(site_url)}{event.get_absolute_url()}"


def collect(event, options):
    return PosterData(heading=heading_for(event), event=event.name, dates=event_dates(event), venue=event.venue,
                      organiser=event.organising_body, url=event_url(event, options.site_url))


def render(data, progress=None):
    page = FullPage(lambda c, w, h: draw_poster(c, w, h, data), (lambda: progress(1, 1)) if progress else None,
                    whole_page=True)
    return build_pdf([page], heading=data.heading, title=_("Poster"))


def draw_poster(canvas, width, height, data):
    """The poster in page coordinates: a red band, the name, dates and venue, the QR code and its address."""
    margin = 22 * mm
    inner = width - 2 * margin
    canvas.saveState()
    canvas.setFillColor(POSTER_RED)
    canvas.rect(0, height - 14 * mm, width, 14 * mm, stroke=0, fill=1)
    canvas.rect(0, 0, width, 8 * mm, stroke=0, fill=1)
    canvas.restoreState()
    size = next((s for s in (TITLE_SIZE, 34, 28) if len(wrap_text(data.event, inner, s)) <= 2), 24)
    y = height - 14 * mm - 30 - size
    for line in wrap_text(data.event, inner, size)[:3]:
        fit_text(canvas, line, margin, y, inner, size, align="centre")
        y -= size + 10
    y -= 8
    facts = [(_("Dates"), data.dates), (_("Venue"), data.venue), (_("Organised by"), data.organiser)]
    for label, value in facts:
        if value:
            fit_text(canvas, f"{label}: {value}", margin, y, inner, 18, align="centre")
            y -= 30
    qr_y = max(40 * mm, y - 16 - QR_SIZE)
    draw_qr(canvas, data.url, (width - QR_SIZE) / 2, qr_y, QR_SIZE, border=2)
    canvas.saveState()
    canvas.setFillColor(POSTER_RED)
    fit_text(canvas, _("Scan for the schedule, the tables and the results"), margin, qr_y - 26, inner, 20,
             align="centre")
    canvas.restoreState()
    canvas.setFont(register_font(), 11)
    fit_text(canvas, data.url, margin, qr_y - 46, inner, 11, align="centre")


PRINTOUT = Printout(kind="poster", title=gettext_lazy("Poster with the event's QR code"), collect=collect,
                    render=render)
