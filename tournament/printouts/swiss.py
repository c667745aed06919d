"""``swiss``: a Swiss stage's pairings per round (tables, the bye, the seed, forced rematches) and the
standings after each round. With ``--round`` one round (of a Swiss stage) and the standings after it.

The pairings are the recorded Swiss draws (:mod:`tournament.competition.swiss_rounds`); the standings
come from :mod:`tournament.competition.swiss_standings` (derived from the recorded results only).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import CondPageBreak, PageBreak

from tournament.competition.swiss_rounds import round_draws
from tournament.competition.swiss_standings import stage_standings
from tournament.models import Round, Stage
from tournament.printouts.common import Printout, colon, entry_label, heading_for, matches_of, pick_round, round_label
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class SwissRound:
    heading: Heading
    title: str
    seed: str
    rematches: int
    tables: tuple      # (table, ns, ew, result)
    standings: tuple   # (rank, entry, unit, W-L, points, buchholz, net levels)
    order: str
    notes: tuple


@dataclass(frozen=True)
class SwissData:
    heading: Heading
    rounds: tuple


def collect(event, options):
    rounds = Round.objects.filter(stage__event=event, stage__kind=Stage.Kind.SWISS).select_related("stage")
    if options.round is not None:
        chosen = pick_round(event, options.round)
        rounds = rounds.filter(pk=chosen.pk)
    out = []
    draws_of = {}
    for rnd in rounds.order_by("stage__order", "number"):
        draws = draws_of.setdefault(rnd.stage_id, round_draws(rnd.stage))
        draw = draws.get(rnd.number)
        table = stage_standings(rnd.stage, after_round=rnd.number)
        tables = tuple(
            (str(m.table or "—"), entry_label(m.ns), entry_label(m.ew) if m.ew_id else _("Bye"),
             f"{m.ns_level} : {m.ew_level}" if m.status == "finished" else str(m.get_status_display()))
            for m in matches_of(event).filter(round=rnd))
        standings = tuple((f"{r.rank}{'=' if r.shared else ''}", r.entry.name, r.entry.unit, f"{r.wins}–{r.losses}",
                           str(r.points), str(r.buchholz), f"{r.net_levels:+d}") for r in table.rows)
        out.append(SwissRound(heading=heading_for(event, rnd.stage, rnd),
                              title=f"{rnd.stage.label} · {round_label(rnd)}", seed=draw.seed if draw else "",
                              rematches=len(draw.result.get("rematches") or []) if draw else 0, tables=tables,
                              standings=standings, order=" > ".join(table.order_labels), notes=table.notes))
    return SwissData(heading=heading_for(event), rounds=tuple(out))


def render(data, progress=None):
    sheet = styles()
    width, _height = content_size()
    story = [text(_("Swiss pairings and standings"), sheet["title"])]
    if not data.rounds:
        story.append(text(_("No round has been paired yet."), sheet["body"]))
    for i, rnd in enumerate(data.rounds):
        if i:
            story.append(PageBreak())
        story += [HeadingMark(rnd.heading), text(rnd.title, sheet["subtitle"]),
                  text(f"{_('Seed')}{colon()}{rnd.seed}", sheet["small"])]
        if rnd.rematches:
            story.append(text(_("Forced rematches (no pairing avoids them)") + colon() + f"{rnd.rematches}", sheet["small"]))
        story.append(grid_table([_("Table"), _("North–South"), _("East–West"), _("Result")],
                                [list(t) for t in rnd.tables], [w * width for w in (0.1, 0.35, 0.35, 0.2)]))
        story += [CondPageBreak(120), text(_("Standings after %(round)s") % {"round": rnd.title}, sheet["subtitle"]),
                  text(f"{_('Ranking order')}{colon()}{rnd.order}", sheet["small"])]
        story.append(grid_table([_("Place"), _("Entry"), _("Unit"), _("W–L"), _("Points"), _("Buchholz"),
                                 _("Net levels")], [list(s) for s in rnd.standings],
                                [w * width for w in (0.08, 0.28, 0.2, 0.1, 0.1, 0.12, 0.12)]))
        story += [text(note, sheet["small"]) for note in rnd.notes]
    return build_pdf(story, heading=data.heading, title=_("Swiss pairings and standings"))


PRINTOUT = Printout(kind="swiss", title=gettext_lazy("Swiss pairings and standings"), collect=collect,
                    render=render, uses=("round",), stage_kind=Stage.Kind.SWISS)
