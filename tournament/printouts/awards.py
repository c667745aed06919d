"""``awards``: the award list, then one certificate (荣誉证书) per award holder.

Champion, runner-up, third place(s) and merit awards as :func:`tournament.competition.placings.award_list`
gives them from the final ranking (the profile says how many of each). The list is printed at any
time (marked provisional until the ranking is complete, naming the stages still being played); the
certificates only once it is complete, each on a whole landscape page without header or footer, ready to be
signed and framed. A stage with no draw and no matches does not count (the list names it).
"""
import datetime as dt
from dataclasses import dataclass

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import PageBreak

from common import punctuation
from tournament.competition.placings import EventRanking, award_list, event_ranking
from tournament.models import Pair
from tournament.printouts.common import Printout, heading_for, listed
from tournament.printouts.layout import (
    FullPage,
    Heading,
    build_pdf,
    content_size,
    fit_text,
    grid_table,
    register_font,
    styles,
    text,
)

FRAME_RED = colors.Color(0.7, 0.1, 0.1)
FRAME_GOLD = colors.Color(0.78, 0.6, 0.2)
PLACE_GREY = colors.Color(0.35, 0.35, 0.35)


@dataclass(frozen=True)
class Certificate:
    """One award holder: the award, the place ("3=" when shared), the entry, its unit and players."""

    award: str
    place: str
    name: str
    unit: str
    players: str


@dataclass(frozen=True)
class AwardsData:
    heading: Heading
    event: str
    venue: str
    organiser: str    # the organising body; empty: "<event> organising committee"
    date: str
    day: str          # the day the awards are given (the event's last day), ISO
    complete: bool
    certificates: tuple
    open_stages: tuple = ()  # the stages still being played (the list is provisional)
    left_out: tuple = ()     # stages with no draw and no matches: not counted


def collect(event, options):
    """Every award holder of the event so far (the list is provisional until the ranking is complete)."""

    ranked = event_ranking(event)
    complete = ranked.complete
    awards = award_list(event, ranked.pair)
    ids = [p.entry.pair_id for award in awards for p in award.places]
    pairs = {p.pk: p for p in Pair.objects.filter(pk__in=ids).select_related("player1", "player2")}
    heading = heading_for(event)
    return AwardsData(
        heading=heading, event=event.name, venue=event.venue, organiser=event.organising_body, date=heading.date,
        day=(event.end_date or event.start_date).isoformat(), complete=complete,
        open_stages=ranked.open_stages, left_out=ranked.left_out,
        certificates=tuple(
            Certificate(award=award.title, place=f"{p.place}{'=' if p.shared else ''}", name=p.entry.name,
                        unit=p.entry.unit, players=_players(pairs.get(p.entry.pair_id)))
            for award in awards for p in award.places),
    )


def _players(pair):
    return listed(x.name for x in (pair.player1, pair.player2)) if pair is not None else ""


def render(data, progress=None):
    """The list page, then (once the ranking is complete) a certificate per holder.

    ``progress(done, total)`` is called per certificate.
    """
    story = award_list_story(data)
    certificates = data.certificates if data.complete else ()
    total = len(certificates)
    for i, cert in enumerate(certificates, start=1):
        done = (lambda n=i: progress(n, total)) if progress else None
        story += [PageBreak(), FullPage(lambda c, w, h, x=cert: draw_certificate(c, w, h, x, data), done,
                                        whole_page=True)]
    return build_pdf(story, heading=data.heading, title=_("Awards"), landscape=True)


def award_list_story(data):
    """The award list: award, place, entry, unit and players of every holder."""
    sheet = styles()
    width, _height = content_size(landscape=True)
    story = [text(_("Awards"), sheet["title"])]
    said = EventRanking([], data.complete, data.open_stages, data.left_out)
    if not data.complete:
        story.append(text(said.provisional_note, sheet["small"]))
        story.append(text(_("The certificates are printed once the final ranking is complete."), sheet["small"]))
    if said.left_out_note:
        story.append(text(said.left_out_note, sheet["small"]))
    if not data.certificates:
        story.append(text(_("No award has been decided yet."), sheet["body"]))
    else:
        rows = [[c.award, c.place, c.name, c.unit, c.players] for c in data.certificates]
        story.append(grid_table([_("Award"), _("Place"), _("Entry"), _("Unit"), _("Players")], rows,
                                [w * width for w in (0.18, 0.08, 0.28, 0.2, 0.26)]))
    return story


def place_text(place):
    """"1" → 第1名, "3=" → 并列第3名."""
    if place.endswith("="):
        return _("Joint place %(place)s") % {"place": place[:-1]}
    return _("Place %(place)s") % {"place": place}


def certificate_date(iso_day):
    """The day as a certificate writes it, e.g. 2026年12月5日."""
    day = dt.date.fromisoformat(iso_day)
    if punctuation.chinese(get_language()):
        return _("%(year)s-%(month)s-%(day)s") % {"year": day.year, "month": day.month, "day": day.day}
    return day.isoformat()   # 2026-12-08, as the pages write a day


def _title_fit(title, font, inner, size=46, space=14):
    """The title's size and letter spacing: 46 pt spaced 14 (荣誉证书), less spacing and then a smaller size for a
    longer title (an English one), so it stays inside the frame."""
    gaps = max(len(title) - 1, 1)
    plain = stringWidth(title, font, size)
    if plain + space * gaps > inner:
        space = max(0.0, (inner - plain) / gaps)
    if plain > inner:
        size = size * inner / plain
    return size, space


def holder_lines(cert):
    """The holder's two lines: the players, then the entry and its unit (the unit once)."""
    entry = cert.name if not cert.unit or cert.unit in cert.name else f"{cert.name} · {cert.unit}"
    return (cert.players or cert.name), (entry if cert.players else (cert.unit or ""))


def draw_certificate(canvas, width, height, cert, data):
    """A whole-page certificate: frame, 荣誉证书, the holder, the event, the award and place, the
    closing words, and the organiser with the date at the bottom right (page coordinates)."""
    _draw_frame(canvas, width, height)
    font = register_font()
    inner = width - 200
    canvas.saveState()
    canvas.setFillColor(FRAME_RED)
    title = _("Certificate of honour")
    size, space = _title_fit(title, font, inner)
    canvas.setFont(font, size)
    canvas.drawCentredString(width / 2, height - 132, title, charSpace=space)
    canvas.restoreState()
    players, entry = holder_lines(cert)
    fit_text(canvas, players, 100, height - 215, inner, 28, align="centre")
    if entry:
        fit_text(canvas, entry, 100, height - 245, inner, 15, align="centre")
    fit_text(canvas, _("was awarded at %(event)s") % {"event": data.event}, 100, height - 300, inner, 18,
             align="centre")
    canvas.saveState()
    canvas.setFillColor(FRAME_RED)
    fit_text(canvas, cert.award, 100, height - 365, inner, 44, align="centre")
    canvas.setFillColor(PLACE_GREY)
    fit_text(canvas, place_text(cert.place), 100, height - 395, inner, 14, align="centre")
    canvas.restoreState()
    fit_text(canvas, _("This certificate is awarded in recognition."), 110, 150, inner, 14)
    right = width - 110
    fit_text(canvas, data.organiser or _("Organising committee of %(event)s") % {"event": data.event},
             right - 520, 110, 520, 14,
             align="right")
    fit_text(canvas, certificate_date(data.day), right - 520, 86, 520, 14, align="right")


def _draw_frame(canvas, width, height):
    """A red outer border, a gold inner border and small gold diamonds in the corners."""
    canvas.saveState()
    canvas.setStrokeColor(FRAME_RED)
    canvas.setLineWidth(6)
    canvas.rect(24, 24, width - 48, height - 48)
    canvas.setStrokeColor(FRAME_GOLD)
    canvas.setLineWidth(1.2)
    canvas.rect(36, 36, width - 72, height - 72)
    canvas.setFillColor(FRAME_GOLD)
    for x, y in ((36, 36), (width - 36, 36), (36, height - 36), (width - 36, height - 36)):
        path = canvas.beginPath()
        path.moveTo(x, y - 7)
        path.lineTo(x + 7, y)
        path.lineTo(x, y + 7)
        path.lineTo(x - 7, y)
        path.close()
        canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()


PRINTOUT = Printout(kind="awards", title=gettext_lazy("Awards and certificates"), collect=collect, render=render,
                    background=True)
