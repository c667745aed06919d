"""The A6 card every personal printout shares (the staff card, a unit's registration card): the event, a big name,
a few lines, then an address as a QR code with the address printed under it (CJK TrueType font embedded)."""
import io

from reportlab.lib.pagesizes import A6
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas as pdf_canvas

from tournament.printouts.layout import fit_text, register_font
from tournament.printouts.scoresheets import draw_qr


def a6_card_pdf(*, title: str, event_name: str, name: str, lines, qr_gap: float, url: str, qr: float,
                url_size: float) -> bytes:
    """The card's PDF bytes. ``lines``: (space above in mm, text or None for space only, font size) under the
    name; ``qr_gap``: the space in mm above the QR code of ``qr`` points."""
    return a6_cards_pdf(title=title, cards=[{"event_name": event_name, "name": name, "lines": lines, "url": url}],
                        qr_gap=qr_gap, qr=qr, url_size=url_size)


def a6_cards_pdf(*, title: str, cards, qr_gap: float, qr: float, url_size: float) -> bytes:
    """Several cards in one PDF, a page each (one printout of the registration cards made at once): each card
    a mapping of ``event_name``, ``name``, ``lines`` and ``url`` as :func:`a6_card_pdf` takes them."""
    buffer = io.BytesIO()
    width, height = A6
    canvas = pdf_canvas.Canvas(buffer, pagesize=A6)
    canvas.setTitle(title)
    font = register_font()
    left, inner = 12 * mm, width - 24 * mm
    for card in cards:
        canvas.setFont(font, 10)
        y = height - 16 * mm
        fit_text(canvas, card["event_name"], left, y, inner, 11)
        y -= 12 * mm
        fit_text(canvas, card["name"], left, y, inner, 20)
        for space, text, size in card["lines"]:
            y -= space * mm
            if text:
                fit_text(canvas, text, left, y, inner, size)
        y -= qr_gap * mm
        draw_qr(canvas, card["url"], (width - qr) / 2, y - qr - 2 * mm, size=qr)
        fit_text(canvas, card["url"], left, y - qr - 8 * mm, inner, url_size, align="centre")
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
