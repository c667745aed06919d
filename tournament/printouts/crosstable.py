"""``crosstable``: each round-robin group's crosstable (对阵成绩表) with points, net levels and places.

The numbers come from :mod:`tournament.competition.group_standings` (derived from the recorded results only).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import CondPageBreak, Spacer

from tournament.competition.group_standings import event_standings
from tournament.models import Stage
from tournament.printouts.common import Printout, heading_for
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class CrossGroup:
    """One group: entry names, the cross cells (row entry against column entry) and each entry's totals."""

    title: str
    names: tuple
    cross: tuple
    points: tuple
    net_levels: tuple
    places: tuple
    progress: str
    notes: tuple


@dataclass(frozen=True)
class CrossStage:
    heading: Heading
    title: str
    groups: tuple


@dataclass(frozen=True)
class CrosstableData:
    heading: Heading
    stages: tuple


def collect(event, options):
    """Every round-robin stage's groups with their crosstables."""

    stages = {s.pk: s for s in Stage.objects.filter(event=event)}
    return CrosstableData(
        heading=heading_for(event),
        stages=tuple(CrossStage(heading=heading_for(event, stages.get(st.stage_id)), title=st.name,
                                groups=tuple(_group(g) for g in st.groups))
                     for st in event_standings(event)),
    )


def _group(table):
    by_entry = {row.entry.pair_id: row for row in table.rows}
    rows = [by_entry.get(e.pair_id) for e in table.entries]
    return CrossGroup(
        title=table.title,
        names=tuple(e.name for e in table.entries),
        cross=tuple(tuple(cells) for cells in table.cross),
        points=tuple(str(r.points) if r else "" for r in rows),
        net_levels=tuple(f"{r.net_levels:+d}" if r else "" for r in rows),
        places=tuple(f"{r.rank}{'=' if r.shared else ''}" if r else "" for r in rows),
        progress=_("%(played)s of %(total)s matches played") % {"played": table.played, "total": table.total},
        notes=tuple(table.notes),
    )


def render(data, progress=None):
    """A table per group: entries down and across, then points, net levels and place."""
    sheet = styles()
    width, _height = content_size(landscape=True)
    story = [text(_("Crosstables"), sheet["title"])]
    if not any(st.groups for st in data.stages):
        story.append(text(_("No round-robin group has been drawn yet."), sheet["body"]))
    for stage in data.stages:
        story += [HeadingMark(stage.heading)]
        for group in stage.groups:
            story += [CondPageBreak(120), text(f"{_heading(stage.title, group.title)}    {group.progress}",
                                               sheet["subtitle"])]
            story.append(_table(group, width))
            story += [text(note, sheet["small"]) for note in group.notes] + [Spacer(1, 6)]
    return build_pdf(story, heading=data.heading, title=_("Crosstables"), landscape=True)


def _table(group, width):
    n = len(group.names)
    header = ["#", _("Entry")] + [str(i + 1) for i in range(n)] + [_("Points"), _("Net levels"), _("Place")]
    rows = [[i + 1, name, *group.cross[i], group.points[i], group.net_levels[i], group.places[i]]
            for i, name in enumerate(group.names)]
    fixed = 0.04 + 0.2 + 3 * 0.07
    cell = (1 - fixed) / max(n, 1)
    widths = [w * width for w in (0.04, 0.2, *([cell] * n), 0.07, 0.07, 0.07)]
    return grid_table(header, rows, widths, font_size=8)


def _heading(stage, group):
    """"小组赛 · A组"; a stage's one group is headed by the stage's name alone (not "循环赛 · 循环赛")."""
    return stage if group == stage else f"{stage} · {group}"


PRINTOUT = Printout(kind="crosstable", title=gettext_lazy("Crosstables"), collect=collect, render=render,
                    stage_kind=Stage.Kind.ROUND_ROBIN)
