"""Page layout shared by every printout: paper, header, footer, styles and tables.

Every page carries a header (event name, stage, round, date) and a footer "第 N 页 / 共 M 页".
The total is only known at the end, so :class:`PrintCanvas` keeps each finished page and draws
the headers and footers when the document is saved. The header may change inside a document
(e.g. one bracket section per page): put a :class:`HeadingMark` flowable where it changes.
"""
import re
from dataclasses import dataclass, replace
from functools import partial
from io import BytesIO

from django.utils.translation import gettext as _
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A3, A4
from reportlab.lib.pagesizes import landscape as to_landscape
from reportlab.lib.pagesizes import portrait as to_portrait
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFBase85Encode, PDFDictionary, PDFName, PDFStream, PDFZCompress
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table, TableStyle

from common.errors import UserError, gettext_noop
from tournament.printouts.fonts import register_font

PAPERS = {"A4": A4, "A3": A3}
MARGIN = 12 * mm
HEADER_HEIGHT = 14 * mm
FOOTER_HEIGHT = 9 * mm
RULE_GREY = colors.Color(0.45, 0.45, 0.45)
HEAD_FILL = colors.Color(0.9, 0.9, 0.9)


@dataclass(frozen=True)
class Heading:
    """What the header of a page shows: the event's name, the stage, the round and the date."""

    event: str
    stage: str = ""
    round: str = ""
    date: str = ""
    organiser: str = ""  # the organising body (主办单位), when the event names one
    published: str = ""  # "成绩已公布 <time>" once the round's (or the whole stage's) results are published

    def with_(self, **changes):
        """A copy with some parts changed (e.g. another stage)."""
        return replace(self, **changes)

    @property
    def detail(self):
        """The second header line: stage · round · results published (only the parts that are set)."""
        return " · ".join(part for part in (self.stage, self.round, self.published) if part)


def page_size(paper="A4", landscape=False):
    """Width and height in points of ``paper`` ("A4" or "A3"), portrait or landscape."""
    if paper not in PAPERS:
        raise UserError(gettext_noop("The paper can only be A4 or A3, not %(paper)r."), field="paper", paper=paper)
    size = PAPERS[paper]
    return to_landscape(size) if landscape else to_portrait(size)


class HeadingMark(Flowable):
    """An invisible flowable that sets the header for the page it lands on and the pages after."""

    width = height = 0

    def __init__(self, heading):
        super().__init__()
        self.heading = heading

    def wrap(self, avail_width, avail_height):
        return 0, 0

    def draw(self):
        self.canv.set_heading(self.heading)


class FullPage(Flowable):
    """A flowable that fills the frame and draws itself with ``paint(canvas, width, height)``.

    Used for drawn pages (bracket trees, score sheets, certificates); ``done`` is called after it
    has been drawn (progress reports). With ``whole_page`` it paints the whole sheet of paper in page
    coordinates and the page gets no header or footer (a certificate to be framed).
    """

    def __init__(self, paint, done=None, *, whole_page=False):
        super().__init__()
        self.paint = paint
        self.done = done
        self.whole_page = whole_page

    def wrap(self, avail_width, avail_height):
        self.width, self.height = avail_width, avail_height - 1
        return self.width, self.height

    def draw(self):
        if self.whole_page:
            x, y = self.canv.absolutePosition(0, 0)
            self.canv.translate(-x, -y)
            self.canv.set_bare()
            self.paint(self.canv, *self.canv._pagesize)
        else:
            self.paint(self.canv, self.width, self.height)
        if self.done:
            self.done()


class PrintCanvas(Canvas):
    """A canvas whose footers name the page total, which is only known at the end, without holding the
    pages back: each page is finished and compressed as it ends (its header drawn then), and its footer
    is a second content stream of the page, added when the document is saved. A 2,048-page round of
    score sheets thus keeps a few KB per page, not the page's drawing operations
    (``bench/bench_scoresheets_round.py``).

    A page's header is the first heading set on that page, else the one in force when it began; a
    page marked bare (:meth:`set_bare`) gets neither header nor footer.
    """

    def __init__(self, *args, heading=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.heading = heading
        self.page_heading = None
        self.bare = False
        self._footed = []  # (reportlab's page, its number) for each page that gets a footer
        self._page_total = 0

    def set_heading(self, heading):
        """Called by :class:`HeadingMark`: the heading from here on."""
        if self.page_heading is None:
            self.page_heading = heading
        self.heading = heading

    def set_bare(self):
        """No header or footer on this page."""
        self.bare = True

    def showPage(self):
        if not self.bare:
            draw_header(self, self.page_heading or self.heading)
        number, bare = self._pageNumber, self.bare
        Canvas.showPage(self)
        page = self._doc.Pages.pages[-1]  # the page reportlab just added, its operations joined in .stream
        page.Contents, page.stream = PDFArray([packed_stream(page.stream)]), None
        if not bare:
            self._footed.append((page, number))
        self._page_total += 1
        self.page_heading = None
        self.bare = False

    def save(self):
        for page, number in self._footed:
            self._code = []
            draw_footer(self, number, self._page_total)
            page.Contents.sequence.append(packed_stream("\n".join(self._code) + "\n"))
        self._code = []
        for page in self._doc.Pages.pages:
            page.Contents.References(self._doc)
        Canvas.save(self)


def packed_stream(text):
    """A content stream compressed now, with the filters reportlab would apply when saving (so its text is
    not kept until then)."""
    filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
    content = text
    for stream_filter in reversed(filters):
        content = stream_filter.encode(content)
    dictionary = PDFDictionary()
    dictionary["Filter"] = PDFArray([PDFName(f.pdfname) for f in filters])
    return PDFStream(dictionary, content)


def draw_header(canvas, heading):
    """Event name (left) and date (right) on the first line, stage · round below, then a rule."""
    font = register_font()
    width, height = canvas._pagesize
    top = height - MARGIN
    canvas.saveState()
    canvas.setFont(font, 12)
    canvas.drawString(MARGIN, top - 12, heading.event)
    canvas.setFont(font, 9)
    if heading.date:
        canvas.drawRightString(width - MARGIN, top - 11, heading.date)
    if heading.detail:
        canvas.drawString(MARGIN, top - 25, heading.detail)
    if heading.organiser:
        canvas.drawRightString(width - MARGIN, top - 25, heading.organiser)
    canvas.setStrokeColor(RULE_GREY)
    canvas.setLineWidth(0.6)
    canvas.line(MARGIN, top - HEADER_HEIGHT + 4, width - MARGIN, top - HEADER_HEIGHT + 4)
    canvas.restoreState()


def draw_footer(canvas, number, total):
    """The centred page number, "第 N 页 / 共 M 页"."""
    width, _height = canvas._pagesize
    canvas.saveState()
    canvas.setFont(register_font(), 8)
    canvas.drawCentredString(width / 2, MARGIN - 2, page_label(number, total))
    canvas.restoreState()


def page_label(number, total):
    """The footer text for page ``number`` of ``total`` in the active language."""
    return _("Page %(page)s of %(pages)s") % {"page": number, "pages": total}


def build_pdf(story, *, heading, title, paper="A4", landscape=False):
    """Lay out ``story`` (flowables) on pages with header and footer; returns the PDF bytes."""
    font = register_font()
    buffer = BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=page_size(paper, landscape),
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + HEADER_HEIGHT,
        bottomMargin=MARGIN + FOOTER_HEIGHT,
        title=title,
        author=heading.event,
        creator="Tractor tournaments",
        initialFontName=font,
        initialFontSize=10,
        initialLeading=12,
    )
    doc.build(list(story), canvasmaker=partial(PrintCanvas, heading=heading))
    return buffer.getvalue()


def content_size(paper="A4", landscape=False):
    """Width and height of the frame inside margins, header and footer."""
    width, height = page_size(paper, landscape)
    return width - 2 * MARGIN, height - 2 * MARGIN - HEADER_HEIGHT - FOOTER_HEIGHT - 12


def styles():
    """Paragraph styles in the CJK font: title, subtitle, body, small, cell, cell_head, centre."""
    font = register_font()
    base = ParagraphStyle("body", fontName=font, fontSize=10, leading=13, wordWrap="CJK")
    return {
        "title": ParagraphStyle("title", parent=base, fontSize=16, leading=20, spaceAfter=6, alignment=TA_CENTER),
        "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=12, leading=15, spaceBefore=8, spaceAfter=4),
        "body": base,
        "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10),
        "cell": ParagraphStyle("cell", parent=base, fontSize=9, leading=11),
        "cell_head": ParagraphStyle("cell_head", parent=base, fontSize=9, leading=11),
        "centre": ParagraphStyle("centre", parent=base, alignment=TA_CENTER),
    }


CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def text(value, style):
    """A paragraph for plain text (escapes &, < and >; keeps line breaks). Text without Chinese breaks
    between words only ("Declarer", not "Declare/r"); Chinese text may break between any two characters."""
    value = str(value)
    if style.wordWrap == "CJK" and not CJK.search(value):
        style = _word_wrapped(style)
    escaped = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return Paragraph(escaped.replace("\n", "<br/>"), style)


def _word_wrapped(style):
    """A copy of ``style`` that breaks lines at spaces only (kept on the style: one copy per style)."""
    copy = getattr(style, "word_wrapped", None)
    if copy is None:
        copy = ParagraphStyle(f"{style.name}_words", parent=style, wordWrap=None)
        style.word_wrapped = copy
    return copy


def unbroken_width(value, size, *, whole=False):
    """The width a cell needs so that ``value`` does not break inside a word: its widest word (Latin words,
    numbers; with ``whole`` the whole text when it has no space, as a column heading "净胜级数")."""
    font = register_font()
    value = str(value)
    words = [value] if whole and " " not in value.strip() else re.findall(r"[^\s\u3000-\u9fff\uff00-\uffef]+", value)
    return max((pdfmetrics.stringWidth(w, font, size) for w in words), default=0)


def fitted_widths(widths, header, rows, size, padding=12):
    """Column widths of the same total as ``widths`` in which no heading and no word of a cell has to break:
    a column narrower than its widest word takes the room from columns wider than theirs."""
    need = [max([unbroken_width(h, size, whole=True)] + [unbroken_width(r[i], size) for r in rows if i < len(r)])
            + padding for i, h in enumerate(header)]
    short = sum(max(0.0, n - w) for n, w in zip(need, widths))
    spare = sum(max(0.0, w - n) for n, w in zip(need, widths))
    if not short or spare <= 0:
        return list(widths)
    if short <= spare:   # every column fits: the wide ones give up a share of their room
        return [n if w < n else w - (w - n) * short / spare for n, w in zip(need, widths)]
    return [w + (n - w) * spare / short if w < n else n for n, w in zip(need, widths)]   # as near as it goes


def grid_table(header, rows, col_widths=None, *, font_size=9):
    """A ruled table with a shaded header row repeated on every page; cells are plain text."""
    sheet = styles()
    cell = ParagraphStyle("grid_cell", parent=sheet["cell"], fontSize=font_size, leading=font_size + 2)
    data = [[text(h, cell) for h in header]] + [[text(v, cell) for v in row] for row in rows]
    if col_widths is not None:
        col_widths = fitted_widths(col_widths, header, rows, font_size)
    table = Table(data, colWidths=col_widths, repeatRows=1)
    table.setStyle(TableStyle([
        ("FONT", (0, 0), (-1, -1), register_font(), font_size),
        ("GRID", (0, 0), (-1, -1), 0.5, RULE_GREY),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_FILL),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]))
    return table


def fit_text(canvas, value, x, y, max_width, size=9, *, align="left", min_size=5):
    """Draw one line of text, shrinking the font (down to ``min_size``) so it fits ``max_width``."""
    font = register_font()
    value = str(value)
    width = canvas.stringWidth(value, font, size)
    if width > max_width and width > 0:
        size = max(min_size, size * max_width / width)
    canvas.setFont(font, size)
    if align == "centre":
        canvas.drawCentredString(x + max_width / 2, y, value)
    elif align == "right":
        canvas.drawRightString(x + max_width, y, value)
    else:
        canvas.drawString(x, y, value)


def wrap_text(value, max_width, size):
    """Split ``value`` into lines no wider than ``max_width`` at ``size`` (character by character,
    as Chinese text has no spaces; a Latin word is kept whole when it fits on a line)."""
    font = register_font()
    lines = []
    for paragraph in str(value).split("\n"):
        line = ""
        for token in _tokens(paragraph):
            candidate = line + token
            if line and pdfmetrics.stringWidth(candidate, font, size) > max_width:
                lines.append(line.rstrip())
                line = token.lstrip()
            else:
                line = candidate
        lines.append(line)
    return lines


def _tokens(paragraph):
    """Latin words (with their trailing space) and single CJK characters."""
    return re.findall(r"[\x21-\x7e]+ ?| |.", paragraph)


def grid_heights(widths, row_height, rows, *, size=9, wrap=False):
    """The height of each row: ``row_height``, taller where wrapped text needs more lines."""
    if not wrap:
        return [row_height] * len(rows)
    heights = []
    for row in rows:
        lines = max((len(wrap_text(v, w - 4, size)) for w, v in zip(widths, row) if v not in (None, "")), default=1)
        heights.append(max(row_height, lines * (size + 2) + 4))
    return heights


def draw_grid(canvas, x, top, widths, row_height, rows, *, size=9, shade_first=True, wrap=False, aligns=None):
    """Draw a ruled grid straight onto the canvas (fast: no flowables).

    ``rows`` is a list of rows of cell texts (blank rows give empty boxes to fill by hand). A cell is
    one line shrunk to fit, or with ``wrap`` as many lines as it needs (the row grows); ``aligns``
    gives each column's alignment ("centre" by default). Returns the y of the grid's bottom edge.
    """
    total = sum(widths)
    heights = grid_heights(widths, row_height, rows, size=size, wrap=wrap)
    aligns = aligns or ["centre"] * len(widths)
    edges = [top]
    for height in heights:
        edges.append(edges[-1] - height)
    bottom = edges[-1]
    canvas.saveState()
    if shade_first and rows:
        canvas.setFillColor(HEAD_FILL)
        canvas.rect(x, edges[1], total, heights[0], stroke=0, fill=1)
        canvas.setFillColor(colors.black)
    canvas.setStrokeColor(RULE_GREY)
    canvas.setLineWidth(0.5)
    for edge_y in edges:
        canvas.line(x, edge_y, x + total, edge_y)
    edge = x
    for width in (0, *widths):
        edge += width
        canvas.line(edge, top, edge, bottom)
    for row, row_top, height in zip(rows, edges, heights):
        left = x
        for width, value, align in zip(widths, row, aligns):
            if value not in (None, ""):
                _draw_cell(canvas, value, left, row_top, width, height, size, align, wrap)
            left += width
    canvas.restoreState()
    return bottom


def _draw_cell(canvas, value, left, row_top, width, height, size, align, wrap):
    """One cell's text, vertically centred: a shrunk single line, or wrapped lines."""
    lines = wrap_text(value, width - 4, size) if wrap else [str(value)]
    leading = size + 2
    first = row_top - (height - leading * len(lines)) / 2 - size
    for i, line in enumerate(lines):
        fit_text(canvas, line, left + 2, first - i * leading, width - 4, size, align=align)
