"""The staff card: an A6 page with the person's name, event, roles, login name, one-time password and the
login address as a QR code (CJK TrueType font embedded, as every printout)."""
import io

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A6
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdf_canvas

from tournament.printouts.layout import fit_text, register_font
from tournament.printouts.scoresheets import draw_qr

QR = 40 * mm


def staff_card_pdf(*, event_name, name, roles, username, password, login_url) -> bytes:
    """The card's PDF bytes (the password is printed, never stored)."""
    buffer = io.BytesIO()
    width, height = A6
    canvas = pdf_canvas.Canvas(buffer, pagesize=A6)
    canvas.setTitle(_("Staff card"))
    font = register_font()
    canvas.setFont(font, 10)
    left, inner = 12 * mm, width - 24 * mm
    y = height - 16 * mm
    fit_text(canvas, event_name, left, y, inner, 11)
    y -= 12 * mm
    fit_text(canvas, name, left, y, inner, 20)
    y -= 8 * mm
    fit_text(canvas, "、".join(roles), left, y, inner, 11)
    y -= 10 * mm
    fit_text(canvas, _("Login name: %(name)s") % {"name": username}, left, y, inner, 11)
    y -= 6 * mm
    if password:
        fit_text(canvas, _("Password: %(password)s") % {"password": password}, left, y, inner, 11)
    y -= 6 * mm
    draw_qr(canvas, login_url, (width - QR) / 2, y - QR - 2 * mm, size=QR)
    fit_text(canvas, login_url, left, y - QR - 8 * mm, inner, 8, align="centre")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
