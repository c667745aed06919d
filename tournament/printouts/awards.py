"""``awards``: the award list, then one certificate (荣誉证书) per award holder.

Champion, runner-up, third place(s) and merit awards as :func:`tournament.services.ranking.award_list`
gives them from the final ranking (the profile says how many of each).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _, gettext_lazy
from reportlab.lib import colors
from reportlab.platypus import PageBreak

from tournament.models import Pair

from .common import Printout, heading_for
from .layout import FullPage, Heading, build_pdf, content_size, fit_text, grid_table, styles, text

FRAME_RED = colors.Color(0.7, 0.1, 0.1)


@dataclass(frozen=True)
class Certificate:
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
    date: str
    complete: bool
    certificates: tuple


def collect(event, options):
    """Every award holder of the event so far (the list is provisional until the ranking is complete)."""
    from tournament.services.ranking import award_list, final_ranking

    _places, complete = final_ranking(event)
    awards = award_list(event)
    ids = [p.entry.pair_id for award in awards for p in award.places]
    pairs = {p.pk: p for p in Pair.objects.filter(pk__in=ids).select_related("player1", "player2")}
    heading = heading_for(event)
    return AwardsData(
        heading=heading, event=event.name, venue=event.venue, date=heading.date, complete=complete,
        certificates=tuple(
            Certificate(award=award.title, place=f"{p.place}{'=' if p.shared else ''}", name=p.entry.name,
                        unit=p.entry.unit, players=_players(pairs.get(p.entry.pair_id)))
            for award in awards for p in award.places),
    )


def _players(pair):
    return "、".join(x.name for x in (pair.player1, pair.player2)) if pair is not None else ""


def render(data, progress=None):
    """The list page, then a landscape certificate per holder; ``progress(done, total)`` per certificate."""
    sheet = styles()
    width, _height = content_size(landscape=True)
    story = [text(_("Awards"), sheet["title"])]
    if not data.complete:
        story.append(text(_("Provisional: the event is not finished yet."), sheet["small"]))
    if not data.certificates:
        story.append(text(_("No award has been decided yet."), sheet["body"]))
    else:
        rows = [[c.award, c.place, c.name, c.unit, c.players] for c in data.certificates]
        story.append(grid_table([_("Award"), _("Place"), _("Entry"), _("Unit"), _("Players")], rows,
                                [w * width for w in (0.18, 0.08, 0.28, 0.2, 0.26)]))
    total = len(data.certificates)
    for i, cert in enumerate(data.certificates, start=1):
        done = (lambda n=i: progress(n, total)) if progress else None
        story += [PageBreak(), FullPage(lambda c, w, h, x=cert: draw_certificate(c, w, h, x, data), done)]
    return build_pdf(story, heading=data.heading, title=_("Awards"), landscape=True)


def draw_certificate(canvas, width, height, cert, data):
    """A framed certificate: title, holder, players, the award, event, venue and date."""
    canvas.saveState()
    canvas.setStrokeColor(FRAME_RED)
    canvas.setLineWidth(3)
    canvas.rect(4, 4, width - 8, height - 8)
    canvas.setLineWidth(0.8)
    canvas.rect(12, 12, width - 24, height - 24)
    canvas.restoreState()
    inner = width - 80
    lines = [
        (_("Certificate of honour"), 34, 0.84),
        (f"{cert.name}" + (f"（{cert.unit}）" if cert.unit and cert.unit not in cert.name else ""), 24, 0.66),
        (cert.players, 16, 0.57),
        (_("won %(award)s at %(event)s") % {"award": cert.award, "event": data.event}, 18, 0.44),
        (cert.award, 30, 0.31),
        (" · ".join(x for x in (data.venue, data.date) if x), 12, 0.16),
    ]
    for value, size, at in lines:
        if value:
            fit_text(canvas, value, 40, height * at, inner, size, align="centre")


PRINTOUT = Printout(kind="awards", title=gettext_lazy("Awards and certificates"), collect=collect, render=render,
                    background=True)
