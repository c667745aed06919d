"""The registration card: an A6 page with the event, the unit and its private registration link as a QR code
(the shared card layout, :mod:`tournament.printouts.cards`)."""
from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from tournament.printouts.cards import a6_cards_pdf

QR = 50 * mm


def registration_card_pdf(*, event_name: str, unit: str, url: str, closes: str) -> bytes:
    """The card's PDF bytes (the link is printed, never stored)."""
    return registration_cards_pdf(event_name=event_name, cards=[(unit, url)], closes=closes)


def registration_cards_pdf(*, event_name: str, cards, closes: str) -> bytes:
    """The cards of several units in one PDF, one A6 page each; ``cards``: (unit, link) pairs."""
    lines = [(8, _("Scan to enter your unit's pairs. Keep this card private."), 9)]
    if closes:
        lines.append((6, _("Registration closes: %(when)s") % {"when": closes}, 9))
    return a6_cards_pdf(title=_("Registration card"), qr_gap=4, qr=QR, url_size=7, cards=[
        {"event_name": event_name, "name": unit, "lines": lines, "url": url} for unit, url in cards])
