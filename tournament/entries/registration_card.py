"""The registration card: an A6 page with the event, the unit and its private registration link as a QR code
(laid out as the staff card, :mod:`tournament.staff.card`)."""
import io

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A6
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdf_canvas

from tournament.printouts.layout import fit_text, register_font
from tournament.printouts.scoresheets import draw_qr

QR = 50 * mm


def registration_card_pdf(*, event_name: str, unit: str, url: str, closes: str) -> bytes:
    """The card's PDF bytes (the link is printed, never stored)."""
    buffer = io.BytesIO()
    width, height = A6
    canvas = pdf_canvas.Canvas(buffer, pagesize=A6)
    canvas.setTitle(_("Registration card"))
    font = register_font()
    canvas.setFont(font, 10)
    left, inner = 12 * mm, width - 24 * mm
    y = height - 16 * mm
    fit_text(canvas, event_name, left, y, inner, 11)
    y -= 12 * mm
    fit_text(canvas, unit, left, y, inner, 20)
    y -= 8 * mm
    fit_text(canvas, _("Scan to enter your unit's pairs. Keep this card private."), left, y, inner, 9)
    if closes:
        y -= 6 * mm
        fit_text(canvas, _("Registration closes: %(when)s") % {"when": closes}, left, y, inner, 9)
    y -= 4 * mm
    draw_qr(canvas, url, (width - QR) / 2, y - QR - 2 * mm, size=QR)
    fit_text(canvas, url, left, y - QR - 8 * mm, inner, 7, align="centre")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
