"""The staff card: an A6 page with the person's name, event, roles, login name, one-time password and the
login address as a QR code (the shared card layout, :mod:`tournament.printouts.cards`)."""
from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from tournament.printouts.cards import a6_card_pdf

QR = 40 * mm


def staff_card_pdf(*, event_name, name, roles, username, password, login_url) -> bytes:
    """The card's PDF bytes (the password is printed, never stored)."""
    password_line = _("Password: %(password)s") % {"password": password} if password else None
    return a6_card_pdf(title=_("Staff card"), event_name=event_name, name=name, lines=[
        (8, "、".join(roles), 11),
        (10, _("Login name: %(name)s") % {"name": username}, 11),
        (6, password_line, 11),
    ], qr_gap=6, url=login_url, qr=QR, url_size=8)
