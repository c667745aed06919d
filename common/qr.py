"""QR codes: the modules of a text's QR code (reportlab's encoder, error correction M) and an SVG of them.

    qr_modules(text) -> list[list[bool]]      True: a dark module; rows top to bottom
    qr_svg(text, border=2) -> str             a scalable <svg> (one path, the dark runs), for web pages

The printouts draw the same modules on their canvas (``tournament.printouts.scoresheets.draw_qr``), so a
staff card, a score sheet and the hall display encode an address the same way. Pure Python.
"""
from __future__ import annotations

import itertools
from html import escape

from reportlab.graphics.barcode.qr import QrCodeWidget


def qr_modules(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules (True: dark)."""
    qr = QrCodeWidget(text, barLevel="M").qr
    qr.make()
    return [[bool(v) for v in row] for row in qr.modules]


def qr_svg(text: str, border: int = 2, label: str = "") -> str:
    """An SVG of the QR code of ``text``: dark runs as one path on a white square ``border`` modules wide."""
    modules = qr_modules(text)
    size = len(modules) + 2 * border
    runs = []
    for r, row in enumerate(modules):
        c = 0
        for dark, run in itertools.groupby(row):
            length = len(list(run))
            if dark:
                runs.append(f"M{c + border} {r + border}h{length}v1h-{length}z")
            c += length
    title = f"<title>{escape(label)}</title>" if label else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges" '
            f'role="img"{f" aria-label={chr(34)}{escape(label)}{chr(34)}" if label else ""}>{title}'
            f'<rect width="{size}" height="{size}" fill="#fff"/><path fill="#000" d="{"".join(runs)}"/></svg>')
