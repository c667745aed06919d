"""``schedule``: rounds, tables, seats and start times (赛程表)."""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import KeepTogether

from tournament.printouts.common import (
    Printout,
    colon,
    heading_for,
    local_time,
    matches_of,
    pick_round,
    players_unless_named,
    position,
    published_label,
    referee_names,
    round_label,
    side_label,
)
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class ScheduleRow:
    """One table of a round: who sits North–South and East–West."""

    table: str
    group: str
    ns: str
    ns_players: str
    ew: str
    ew_players: str
    status: str
    referee: str = ""   # the referee grid's referee(s) of the table, by display name


@dataclass(frozen=True)
class ScheduleRound:
    heading: Heading
    title: str
    start: str
    rows: tuple


@dataclass(frozen=True)
class ScheduleData:
    heading: Heading
    rounds: tuple


def collect(event, options):
    """Every round (or the one asked for) with its tables."""
    matches = matches_of(event)
    if options.round is not None:
        matches = matches.filter(round=pick_round(event, options.round))
    by_round = {}
    for match in matches:
        by_round.setdefault(match.round, []).append(match)
    referees = referee_names(m.pk for rows in by_round.values() for m in rows)
    rounds = tuple(
        ScheduleRound(
            heading=heading_for(event, rnd.stage, rnd if options.round is not None else None),
            title=" · ".join(part for part in (rnd.stage.label, round_label(rnd), published_label(rnd=rnd)) if part),
            start=local_time(rnd.scheduled_start),
            rows=tuple(_row(m, referees.get(m.pk, "")) for m in rows),
        )
        for rnd, rows in by_round.items()
    )
    return ScheduleData(heading=heading_for(event), rounds=rounds)


def _row(match, referee=""):
    return ScheduleRow(
        table=str(match.table or ""),
        group=position(match),
        ns=side_label(match.ns, match.ns_source),
        ns_players=players_unless_named(match.ns),
        ew=side_label(match.ew, match.ew_source),
        ew_players=players_unless_named(match.ew),
        status=str(match.get_status_display()),
        referee=referee,
    )


def render(data, progress=None):
    """One section per round: start time, then a table row per match."""
    sheet = styles()
    width, _height = content_size()
    story = [text(_("Schedule"), sheet["title"])]
    if not data.rounds:
        story.append(text(_("No rounds have been scheduled yet."), sheet["body"]))
    header = [_("Table"), _("Group / position"), _("North–South"), _("East–West"), _("Referee"), _("Status")]
    widths = [w * width for w in (0.07, 0.13, 0.28, 0.28, 0.12, 0.12)]
    for rnd in data.rounds:
        start = f"  {_('Start')}{colon()}{rnd.start}" if rnd.start else ""
        rows = [[r.table, r.group, _two_lines(r.ns, r.ns_players), _two_lines(r.ew, r.ew_players), r.referee,
                 r.status] for r in rnd.rows]
        # a round starts on a new page rather than leave its title and first rows at a page's foot
        story.append(KeepTogether([HeadingMark(rnd.heading), text(rnd.title + start, sheet["subtitle"]),
                                   grid_table(header, rows, widths)]))
    return build_pdf(story, heading=data.heading, title=_("Schedule"))


def _two_lines(name, players):
    return f"{name}\n{players}" if players else name


PRINTOUT = Printout(kind="schedule", title=gettext_lazy("Schedule"), collect=collect, render=render,
                    uses=("round",))
