"""``penalties``: the penalty log (判罚记录) of one match (``--match``) or of the whole event.

Every ruling in order with the sanction now in force and its state (in force, pending, void,
reversed…), as :mod:`rulings.presenters` derives them by replaying the rulings.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _, gettext_lazy

from .common import Printout, heading_for, local_time, pick_match
from .layout import Heading, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class PenaltyLine:
    table: str
    hand: str
    side: str
    offence: str
    sanction: str
    state: str
    recorded: str


@dataclass(frozen=True)
class PenaltiesData:
    heading: Heading
    scope: str
    lines: tuple


def collect(event, options):
    """The rulings of the match asked for, else of the event."""
    from rulings.presenters import event_log, match_log

    if options.match is not None:
        match = pick_match(event, options.match)
        rulings = match_log(match)["rulings"]
        heading = heading_for(event, match.round.stage, match.round)
        scope = f"{_('Match')} {match.pk} · {_('Table')} {match.table or ''}"
    else:
        rulings = event_log(event)["rulings"]
        heading, scope = heading_for(event), ""
    return PenaltiesData(heading=heading, scope=scope, lines=tuple(_line(r) for r in rulings))


def _line(ruling):
    side = {"NS": _("N–S"), "EW": _("E–W")}.get(ruling["side"], ruling["side"])
    offence = ruling["code"] + (f"（{ruling['clause']}）" if ruling["clause"] else "")
    return PenaltyLine(
        table=str(ruling["table"] or ""),
        hand=str(ruling["hand_number"]),
        side=side,
        offence=offence,
        sanction=str(ruling["explanation"] or ""),
        state=str(ruling["state_label"]),
        recorded=f"{ruling['recorded_by']} {local_time(ruling['recorded_at'], '%H:%M')}",
    )


def render(data, progress=None):
    """One table: table, hand, side, offence, sanction, state, referee and time."""
    sheet = styles()
    width, _height = content_size(landscape=True)
    story = [text(_("Penalties"), sheet["title"])]
    if data.scope:
        story.append(text(data.scope, sheet["subtitle"]))
    if not data.lines:
        story.append(text(_("No penalty has been recorded."), sheet["body"]))
    else:
        header = [_("Table"), _("Hand"), _("Side"), _("Offence"), _("Penalty"), _("Status"), _("Referee")]
        rows = [[ln.table, ln.hand, ln.side, ln.offence, ln.sanction, ln.state, ln.recorded] for ln in data.lines]
        story.append(grid_table(header, rows, [w * width for w in (0.06, 0.06, 0.07, 0.2, 0.37, 0.1, 0.14)],
                                font_size=8))
    return build_pdf(story, heading=data.heading, title=_("Penalties"), landscape=True)


PRINTOUT = Printout(kind="penalties", title=gettext_lazy("Penalties"), collect=collect, render=render,
                    uses=("match",))
