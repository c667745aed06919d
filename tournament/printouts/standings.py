"""``standings``: every group's standings with how each tie was broken, then the final ranking (a disqualified
entry after the ranked ones, without a place: :mod:`tournament.competition.placings`).

The numbers come from :mod:`tournament.competition.group_standings` (derived from the recorded results only).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import CondPageBreak, Spacer

from tournament.competition.group_standings import event_standings
from tournament.competition.placings import EventRanking, event_ranking
from tournament.models import Stage
from tournament.printouts.common import Printout, colon, heading_for, in_brackets
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class StandingLine:
    place: str
    name: str
    unit: str
    played: int
    wins: int
    losses: int
    points: str
    net_levels: str
    total_levels: str
    tie: str


@dataclass(frozen=True)
class GroupStandings:
    title: str
    order: str
    lines: tuple
    notes: tuple


@dataclass(frozen=True)
class FinalLine:
    place: str
    name: str
    unit: str
    how: str


@dataclass(frozen=True)
class StandingsData:
    heading: Heading
    stages: tuple      # (Heading, stage title, groups)
    final: tuple
    final_complete: bool
    open_stages: tuple = ()  # the stages still being played (the final ranking is provisional)
    left_out: tuple = ()     # stages with no draw and no matches: not counted


def collect(event, options):
    """Group standings of every round-robin stage and the event's final ranking so far."""

    stages = {s.pk: s for s in Stage.objects.filter(event=event)}
    ranked = event_ranking(event)
    places, complete = ranked.pair
    return StandingsData(
        heading=heading_for(event),
        stages=tuple((heading_for(event, stages.get(st.stage_id)), st.name, tuple(_group(g) for g in st.groups))
                     for st in event_standings(event)),
        final=tuple(FinalLine(place=f"{p.place}{'=' if p.shared else ''}", name=_removed(p.entry), unit=p.entry.unit,
                              how=p.how) for p in places)
        + tuple(FinalLine(place="—", name=_removed(e), unit=e.unit, how=_("No place, no award"))
                for e in ranked.disqualified),
        final_complete=complete, open_stages=ranked.open_stages, left_out=ranked.left_out,
    )


def _removed(entry):
    """The entry's name, with 已退赛 / 停赛 / 取消资格 when it withdrew or the chief referee removed it, as the
    ranking page says."""
    return entry.name + in_brackets(entry.removed_label) if entry.removed_label else entry.name


def _group(table):
    return GroupStandings(
        title=table.title,
        order=" > ".join(table.order_labels),
        lines=tuple(StandingLine(place=f"{r.rank}{'=' if r.shared else ''}", name=_removed(r.entry), unit=r.entry.unit,
                                 played=r.played, wins=r.wins, losses=r.losses, points=str(r.points),
                                 net_levels=f"{r.net_levels:+d}", total_levels=str(r.total_levels),
                                 tie=r.tie_note) for r in table.rows),
        notes=tuple(table.notes),
    )


def render(data, progress=None):
    """The group tables (with a "tie broken by" column), then the final ranking."""
    sheet = styles()
    width, _height = content_size()
    story = [text(_("Standings"), sheet["title"])]
    header = [_("Place"), _("Entry"), _("Unit"), _("Played"), _("Won"), _("Lost"), _("Points"), _("Net levels"),
              _("Total levels"), _("Tie broken by")]
    widths = [w * width for w in (0.06, 0.17, 0.13, 0.06, 0.06, 0.06, 0.07, 0.08, 0.08, 0.23)]
    for heading, title, groups in data.stages:
        story.append(HeadingMark(heading))
        for group in groups:
            story += [CondPageBreak(100), text(_heading(title, group.title), sheet["subtitle"]),
                      text(f"{_('Ranking order')}{colon()}{group.order}", sheet["small"])]
            rows = [[ln.place, ln.name, ln.unit, ln.played, ln.wins, ln.losses, ln.points, ln.net_levels,
                     ln.total_levels, ln.tie] for ln in group.lines]
            story.append(grid_table(header, rows, widths, font_size=8))
            story += [text(note, sheet["small"]) for note in group.notes] + [Spacer(1, 4)]
    story += [HeadingMark(data.heading), CondPageBreak(150), text(_("Final ranking"), sheet["subtitle"])]
    said = EventRanking([], data.final_complete, data.open_stages, data.left_out)
    if not data.final_complete:
        story.append(text(said.provisional_note, sheet["small"]))
    if said.left_out_note:
        story.append(text(said.left_out_note, sheet["small"]))
    if data.final:
        rows = [[ln.place, ln.name, ln.unit, ln.how] for ln in data.final]
        story.append(grid_table([_("Place"), _("Entry"), _("Unit"), _("Decided by")], rows,
                                [w * width for w in (0.1, 0.35, 0.25, 0.3)]))
    return build_pdf(story, heading=data.heading, title=_("Standings"))


def _heading(stage, group):
    """"小组赛 · A组"; a stage's one group is headed by the stage's name alone (not "循环赛 · 循环赛")."""
    return stage if group == stage else f"{stage} · {group}"


PRINTOUT = Printout(kind="standings", title=gettext_lazy("Standings"), collect=collect, render=render)
