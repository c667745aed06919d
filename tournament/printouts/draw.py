"""``draw``: the draw sheet (抽签记录) — every draw of the event in words, with its seed.

Each draw is told as a sentence and a table: which entry went to which group and place in it, which
bracket slot, which seats, which table number, which partner, with each entry's seed number (种子号).
Superseded draws are printed too, marked as such, so a redo can be checked against the original.
Anyone can re-run a draw: the pure function of :mod:`tournament.engines.pairings` for the draw's kind, given the
recorded parameters and the draw's seed, gives the same result. Under "Data for checking" the sheet prints
those parameters in words and tables a person can check without reading JSON (:mod:`tournament.printouts.draw_checks`).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import Spacer

from common.errors import UserError
from common.names import display_name
from tournament.competition.stages import bracket_from_draw, describe_key, describe_source, group_name
from tournament.models import Draw, Match, Pair, Player
from tournament.printouts.common import Printout, colon, heading_for, local_time
from tournament.printouts.draw_checks import CHECKERS, DrawCheck, DrawTable, check_recorded, check_void, where
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class DrawSheet:
    heading: Heading
    title: str
    draw_id: int
    seed: str
    status: str
    made: str
    summary: str       # what the draw did, in a sentence
    table: DrawTable   # who went where
    check: DrawCheck   # the recorded parameters in words, for re-running the draw


@dataclass(frozen=True)
class DrawData:
    heading: Heading
    draws: tuple


@dataclass(frozen=True)
class _Entry:
    name: str
    unit: str
    seed: str


class _Names:
    """Entries and players of the event by id, as a draw sheet names them."""

    def __init__(self, event):
        self.pairs = {p.pk: _Entry(p.name, p.unit.name, str(p.seed or ""))
                      for p in Pair.objects.filter(event=event).select_related("unit")}
        self.players = {p.pk: _Entry(p.name, p.unit.name, "")
                        for p in Player.objects.filter(event=event).select_related("unit")}

    def pair(self, pk):
        return self.pairs.get(_as_int(pk)) or _Entry(f"#{pk}", "", "")

    def player(self, pk):
        return self.players.get(_as_int(pk)) or _Entry(f"#{pk}", "", "")

    def side(self, value):
        """A bracket or seat side: an entry (with its seed), a qualifier place ("A1"), or a bye."""
        if value is None:
            return str(_("Bye"))
        if isinstance(value, str) and not value.isdigit():
            return describe_source(value)
        entry = self.pair(value)
        return f"[{entry.seed}] {entry.name}" if entry.seed else entry.name


def _as_int(value):
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def collect(event, options):
    """Every draw of the event, in stage and kind order, oldest first."""
    draws = list(Draw.objects.filter(event=event).select_related("stage", "created_by", "superseded_by")
                 .order_by("stage__order", "kind", "created_at", "pk"))
    names = _Names(event)
    match_ids = set()
    for draw in draws:
        match_ids |= _match_ids(draw)
    matches = {m.pk: m for m in Match.objects.filter(pk__in=match_ids).select_related("round")}
    return DrawData(heading=heading_for(event),
                    draws=tuple(_sheet(event, d, names, matches) for d in draws))


def _match_ids(draw):
    """The matches a seats or tables draw names (to print their round and table)."""
    if draw.kind == Draw.Kind.SEATS:
        return {row[0] for row in draw.result.get("seats", ())}
    if draw.kind == Draw.Kind.TABLES:
        return {pk for ids in (draw.params.get("matches") or {}).values() for pk in ids}
    return set()


def _sheet(event, draw, names, matches):
    stage = f" · {draw.stage.label}" if draw.stage_id else ""
    try:
        later = draw.superseded_by
        status = (_("voided by draw #%(id)s") if later.is_void else _("superseded by draw #%(id)s")) % {"id": later.pk}
    except Draw.DoesNotExist:
        status = _("void") if draw.is_void else _("in force")
    made = local_time(draw.created_at)
    if draw.created_by_id:
        made += f" · {display_name(draw.created_by)}"
    describe = _void if draw.is_void else DESCRIBERS.get(draw.kind, _unknown)
    explain = check_void if draw.is_void else CHECKERS.get(draw.kind, check_recorded)
    try:
        summary, table = describe(draw, names, matches)
        check = explain(draw, names, matches)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, UserError):
        summary, table = _unknown(draw, names, matches)  # a record this sheet cannot read: its data below
        check = check_recorded(draw, names, matches)
    return DrawSheet(
        heading=heading_for(event, draw.stage),
        title=f"{draw.get_kind_display()}{stage}",
        draw_id=draw.pk,
        seed=draw.seed,
        status=str(status),
        made=made,
        summary=summary,
        table=table,
        check=check,
    )


# --------------------------------------------------------------------------- one describer per kind
SIDES_SHARES = (0.14, 0.28, 0.15, 0.28, 0.15)
ROUND_SHARES = (0.2, 0.12, 0.34, 0.34)


def _groups(draw, names, matches):
    groups = draw.result["groups"]
    seeded = draw.params.get("seeded", 0)
    count = sum(len(g) for g in groups)
    summary = _("%(count)s entries were drawn into %(groups)s groups; the first %(seeded)s in seed order were "
                "spread over the groups in snake order, and entries of one unit were kept apart where possible.") % {
        "count": count, "groups": len(groups), "seeded": seeded}
    rows = []
    for index, members in enumerate(groups):
        for position, pk in enumerate(members, start=1):
            entry = names.pair(pk)
            rows.append((group_name(index), str(position), entry.name, entry.unit, entry.seed))
    header = (_("Group"), _("Place in group"), _("Entry"), _("Unit"), _("Seed"))
    return summary, DrawTable(tuple(map(str, header)), tuple(rows), (0.1, 0.14, 0.38, 0.28, 0.1))


def _bracket(draw, names, matches):
    bracket = bracket_from_draw(draw)
    first = [slot for slot in bracket.matches if slot.round_no == 1 and not slot.key.startswith("P")]
    if "qualifiers" in draw.params:
        summary = _("The group qualifiers were cross-seeded into the knock-out (a group winner meets a runner-up "
                    "of another group); the names fill in as the groups finish.")
    else:
        entries = len(draw.params.get("entries", ()))
        summary = _("%(count)s entries were placed in a bracket of %(slots)s: seeded entries by seed number, the "
                    "others by lot, entries of one unit apart in the first round.") % {
            "count": entries, "slots": 2 * len(first)}
    rows = []
    for slot in first:
        a = _slot_side(slot.a, names)
        b = _slot_side(slot.b, names)
        rows.append((describe_key(slot.key), *a, *b))
    header = (_("Slot"), _("North–South"), _("Unit"), _("East–West"), _("Unit"))
    return summary, DrawTable(tuple(map(str, header)), tuple(rows), SIDES_SHARES)


def _slot_side(source, names):
    if source.kind == "bye":
        return str(_("Bye")), ""
    value = source.value
    if isinstance(value, str):
        return describe_source(value), ""
    return names.side(value), names.pair(value).unit


def _seats(draw, names, matches):
    rows = []
    for match_id, ns, ew in draw.result["seats"]:
        rnd, table = where(matches.get(match_id), match_id)
        rows.append((rnd, table, names.side(ns), names.side(ew)))
    summary = _("At %(count)s tables the lot decided which entry sits North–South (the other sits East–West).") % {
        "count": len(rows)}
    header = (_("Round"), _("Table"), _("North–South"), _("East–West"))
    return summary, DrawTable(tuple(map(str, header)), tuple(rows), ROUND_SHARES)


def _tables(draw, names, matches):
    numbers = draw.result["tables"]
    rows = []
    for round_key, ids in sorted((draw.params.get("matches") or {}).items(), key=lambda kv: int(kv[0])):
        drawn = sorted(zip(numbers[round_key], ids))
        for number, match_id in drawn:
            match = matches.get(match_id)
            rnd, _table = where(match, match_id)
            sides = (names.side(match.ns_id), names.side(match.ew_id)) if match is not None else ("", "")
            rows.append((rnd, str(number), *sides))
    summary = _("The table numbers of each round were drawn by lot, from table %(first)s on.") % {
        "first": draw.params.get("first_table", 1)}
    header = (_("Round"), _("Table"), _("North–South"), _("East–West"))
    return summary, DrawTable(tuple(map(str, header)), tuple(rows), ROUND_SHARES)


def _swiss(draw, names, matches):
    number = draw.params.get("round")
    tables = iter(draw.result.get("tables", ()))
    rows = []
    for a, b in draw.result["pairs"]:
        if b is None:
            rows.append((str(_("Bye")), names.side(a), names.pair(a).unit, "", ""))
        else:
            rows.append((str(next(tables, "")), names.side(a), names.pair(a).unit, names.side(b), names.pair(b).unit))
    rematches = len(draw.result.get("rematches", ()))
    summary = _("Round %(round)s was paired from the standings after the round before (round 1: seeded entries "
                "first, the others by lot); %(rematches)s pairs meet again.") % {"round": number,
                                                                                  "rematches": rematches}
    header = (_("Table"), _("North–South"), _("Unit"), _("East–West"), _("Unit"))
    return summary, DrawTable(tuple(map(str, header)), tuple(rows), SIDES_SHARES)


def _pairs(draw, names, matches):
    rows = []
    for a, b, pair_id in draw.result["pairs"]:
        first, second = names.player(a), names.player(b)
        rows.append((first.unit, first.name, second.name, names.pair(pair_id).name))
    pools = len(draw.params.get("pools", ()))
    summary = _("%(count)s pairs were drawn by lot from the players who signed up alone, within %(pools)s pools "
                "(same unit, team and reserve list).") % {"count": len(rows), "pools": pools}
    header = (_("Unit"), _("Player"), _("Partner drawn"), _("Entry"))
    return summary, DrawTable(tuple(map(str, header)), tuple(rows), (0.28, 0.2, 0.2, 0.32))


def _void(draw, names, matches):
    voided = draw.supersedes_id
    return (_("Draw #%(id)s was voided: %(reason)s") % {"id": voided, "reason": draw.params.get("reason", "")},
            DrawTable((), ()))


def _unknown(draw, names, matches):
    return _("This draw is printed as recorded (see the data below)."), DrawTable((), ())


DESCRIBERS = {
    Draw.Kind.GROUPS: _groups,
    Draw.Kind.BRACKET: _bracket,
    Draw.Kind.SEATS: _seats,
    Draw.Kind.TABLES: _tables,
    Draw.Kind.SWISS: _swiss,
    Draw.Kind.PAIRS: _pairs,
}


# --------------------------------------------------------------------------- drawing
def _widths(table):
    width = content_size()[0]
    shares = table.shares or [1 / len(table.header)] * len(table.header)
    return [s * width for s in shares]


def render(data, progress=None):
    """A section per draw: seed, status, what happened in a sentence, the table of who went where."""
    sheet = styles()
    story = [text(_("Draw sheet"), sheet["title"]),
             text(_("Every draw of the event with its seed. Re-run a draw with the pairing function of its kind, "
                    "the recorded data and the seed: it gives the same result."), sheet["small"])]
    if not data.draws:
        story.append(text(_("No draw has been made yet."), sheet["body"]))
    for draw in data.draws:
        story += [HeadingMark(draw.heading),
                  text(f"#{draw.draw_id} {draw.title}", sheet["subtitle"]),
                  text(f"{_('Draw seed')}{colon()}{draw.seed}", sheet["subtitle"]),
                  text(_("Status") + colon() + f"{draw.status}    " + _("Made") + colon() + f"{draw.made}", sheet["body"]),
                  Spacer(1, 4),
                  text(draw.summary, sheet["body"]),
                  Spacer(1, 4)]
        if draw.table.rows:
            story.append(grid_table(draw.table.header, draw.table.rows, _widths(draw.table), font_size=9))
        story += [Spacer(1, 4), text(_("Data for checking"), sheet["body"])]
        story += [text(line, sheet["small"]) for line in draw.check.lines]
        for title, table in draw.check.tables:
            story += [Spacer(1, 2), text(title, sheet["small"]),
                      grid_table(table.header, table.rows, _widths(table), font_size=8)]
    return build_pdf(story, heading=data.heading, title=_("Draw sheet"))


PRINTOUT = Printout(kind="draw", title=gettext_lazy("Draw sheet"), collect=collect, render=render)
