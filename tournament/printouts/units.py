"""``units``: the unit standings (团体总分) with the rules of the calculation under the table, then one
certificate per top unit once the event is complete (the awards printout's certificate page).

The numbers come from :mod:`tournament.competition.unit_standings` (the final ranking and the rules in
force); marked provisional until the final ranking is complete.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import PageBreak

from tournament.competition.unit_standings import AWARDED_UNITS, event_unit_standings
from tournament.printouts.awards import Certificate, draw_certificate
from tournament.printouts.common import Printout, heading_for
from tournament.printouts.layout import FullPage, Heading, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class UnitsLine:
    rank: str
    unit: str
    score: str
    firsts: int
    seconds: int
    pairs: str
    tie: str


@dataclass(frozen=True)
class UnitsData:
    heading: Heading
    event: str
    day: str
    organiser: str    # the organising body for the certificates (empty: "<event> organising committee")
    complete: bool
    lines: tuple
    rules: tuple
    certificates: tuple
    note: str = ""        # the profile's word on the scale (003: the organiser's own, or no unit standings)
    offered: bool = True  # False: the event ranks no units, the printout says so and nothing else


def collect(event, options):
    result = event_unit_standings(event)
    lines = tuple(
        UnitsLine(rank=str(line.rank), unit=line.unit, score=str(line.score), firsts=line.firsts,
                  seconds=line.seconds,
                  pairs="；".join(_("%(name)s (place %(place)s, %(points)s)")
                                 % {"name": p.name, "place": p.place, "points": p.points} for p in line.pairs)
                  + (f" +{line.bonus}" if line.bonus else ""),
                  tie=line.tie)
        for line in result.lines)
    certificates = tuple(
        Certificate(award=_("Unit place %(place)s") % {"place": line.rank}, place=str(line.rank), name=line.unit,
                    unit="", players="")
        for line in result.lines if line.rank <= AWARDED_UNITS and line.score > 0) if result.complete else ()
    return UnitsData(heading=heading_for(event), event=event.name,
                     day=(event.end_date or event.start_date).isoformat(), organiser=event.organising_body,
                     complete=result.complete,
                     lines=lines, rules=result.rules_text, certificates=certificates, note=result.note,
                     offered=result.offered)


def render(data, progress=None):
    sheet = styles()
    width, _height = content_size(landscape=True)
    story = [text(_("Unit standings"), sheet["title"])]
    if data.note:
        story.append(text(data.note, sheet["small"]))
    if not data.offered:
        return build_pdf(story, heading=data.heading, title=_("Unit standings"), landscape=True)
    if not data.complete:
        story.append(text(_("Provisional: the event is not finished yet."), sheet["small"]))
    header = [_("Place"), _("Unit"), _("Points"), _("First places"), _("Second places"), _("Pairs that count"),
              _("Tie broken by")]
    rows = [[ln.rank, ln.unit, ln.score, ln.firsts, ln.seconds, ln.pairs, ln.tie] for ln in data.lines]
    story.append(grid_table(header, rows, [w * width for w in (0.07, 0.16, 0.08, 0.08, 0.08, 0.39, 0.14)]))
    story.append(text(_("How the points are counted"), sheet["subtitle"]))
    story += [text(f"{i}. {line}", sheet["small"]) for i, line in enumerate(data.rules, start=1)]
    total = len(data.certificates)
    for i, cert in enumerate(data.certificates, start=1):
        done = (lambda n=i: progress(n, total)) if progress else None
        story += [PageBreak(), FullPage(lambda c, w, h, x=cert: draw_certificate(c, w, h, x, data), done,
                                        whole_page=True)]
    return build_pdf(story, heading=data.heading, title=_("Unit standings"), landscape=True)


PRINTOUT = Printout(kind="units", title=gettext_lazy("Unit standings"), collect=collect, render=render)
