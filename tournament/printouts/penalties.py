"""``penalties``: the penalty log (判罚记录) of one match (``--match``) or of the whole event.

Every ruling in order with the sanction now in force and its state (in force, pending, void,
reversed…), as :mod:`rulings.presenters` derives them by replaying the rulings.
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from infra.profile_words import english_page, in_language
from rulings.presenters import event_log, match_log
from scoring.models import RuleProfile
from tournament.models import Match
from tournament.printouts.common import (
    Printout,
    heading_for,
    in_brackets,
    listed,
    local_time,
    pick_match,
    round_label,
)
from tournament.printouts.layout import Heading, build_pdf, content_size, grid_table, styles, text
from tournament.records.ledger import ledger_for


@dataclass(frozen=True)
class PenaltyLine:
    round: str
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

    if options.match is not None:
        match = pick_match(event, options.match)
        rulings = match_log(match)["rulings"]
        heading = heading_for(event, match.round.stage, match.round)
        scope = f"{_('Match')} {match.pk} · {_('Table')} {match.table or ''}"
    else:
        rulings = event_log(event)["rulings"]
        heading, scope = heading_for(event), ""
    names = offence_names(rulings)
    rounds = round_labels(r["match"] for r in rulings)
    return PenaltiesData(heading=heading, scope=scope,
                         lines=tuple(penalty_line(r, names, rounds.get(r["match"], "")) for r in rulings))


def round_labels(match_ids):
    """``{match id: "小组赛 · 第1轮"}``: where each match was played (tables repeat from round to round)."""
    matches = Match.objects.filter(pk__in=set(match_ids)).select_related("round__stage")
    return {m.pk: f"{m.round.stage.label} · {round_label(m.round)}" for m in matches}


def offence_names(rulings):
    """``{(profile slug, version, code): name}`` for presenter rulings, from each profile's sanction table.

    The names (迟到, 越序出牌, …) are the ``name`` of each offence under the profile's ``sanctions:``
    key, the same table the sanction engine and the console's offence buttons read (its ``name_en`` in English).
    """

    names = {}
    for slug, version in {(r["profile"], r["profile_version"]) for r in rulings}:
        profile = RuleProfile.objects.filter(slug=slug, version=version).first()
        offences = ledger_for(profile).table["offences"] if profile is not None else {}
        names.update({(slug, version, code): in_language(node, "name") for code, node in offences.items()})
    return names


def offence_label(ruling, names):
    """The offence's name in the ruling's profile (the code when the table has no name), with the clause."""
    name = names.get((ruling["profile"], ruling["profile_version"], ruling["code"]), ruling["code"])
    if not ruling["clause"]:
        return name
    return name + (f" ({ruling['clause']})" if english_page() else f"（{ruling['clause']}）")


def side_name(side):
    """"NS" → 南北, "EW" → 东西."""
    return {"NS": _("N–S"), "EW": _("E–W")}.get(side, side)


def _state_with_appeals(ruling):
    """The ruling's state, with the outcome of each appeal decided (维持 / 改判 / 撤销) and, for a ruling
    given on appeal in place of another, that it is one."""
    state = str(ruling["state_label"])
    outcomes = [str(appeal["decisions"][-1]["outcome_label"]) for appeal in ruling.get("appeals") or ()
                if appeal["decisions"]]
    if outcomes:
        state += in_brackets(_("Appeal: %(outcomes)s") % {"outcomes": listed(outcomes)})
    if ruling.get("amends"):
        state += in_brackets(_("Amended ruling (decided on appeal)"))
    return state


def penalty_line(ruling, names, round_name=""):
    """One presenter ruling (``rulings.presenters.entry_data``) as a printed line."""
    return PenaltyLine(
        round=round_name,
        table=str(ruling["table"] or ""),
        hand=str(ruling["hand_number"]),
        side=side_name(ruling["side"]),
        offence=offence_label(ruling, names),
        sanction=str(ruling["explanation"] or ""),
        state=_state_with_appeals(ruling),
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
        header = [_("Round"), _("Table"), _("Hand"), _("Side"), _("Offence"), _("Penalty"), _("Status"),
                  _("Referee")]
        rows = [[ln.round, ln.table, ln.hand, ln.side, ln.offence, ln.sanction, ln.state, ln.recorded]
                for ln in data.lines]
        shares = (0.12, 0.05, 0.05, 0.06, 0.17, 0.35, 0.08, 0.12)
        story.append(grid_table(header, rows, [w * width for w in shares], font_size=8))
    return build_pdf(story, heading=data.heading, title=_("Penalties"), landscape=True)


PRINTOUT = Printout(kind="penalties", title=gettext_lazy("Penalties"), collect=collect, render=render,
                    uses=("match",))
