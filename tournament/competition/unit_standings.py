"""Unit standings (团体总分) of an event, from its pairs' final places (read only), and the organiser's rules.

The rules come from the profile's ``unit_standings`` section (points per place, best N, women's pair
bonus), overridden per event by the organiser (``Event.unit_scoring``, :func:`set_unit_rules`); the
calculation is the pure :func:`tournament.engines.unit_standings.unit_standings` over
:func:`tournament.competition.placings.final_ranking`. Provisional (暂定) until that ranking is complete.
The lot that ends a tie is drawn with ``Event.unit_scoring["lot_seed"]``, else "<event slug>:团体",
printed under the table.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from common.errors import UserError, gettext_noop
from infra.profile_words import in_language
from tournament.competition.placings import final_ranking
from tournament.engines import unit_standings as pure
from tournament.models import Event, Pair, Player

RULE_KEYS = ("points", "best_n", "women_bonus")
AWARDED_UNITS = 3  # certificates for the top three units


@dataclass(frozen=True)
class CountedPair:
    name: str
    place: int
    points: float


@dataclass(frozen=True)
class UnitLine:
    rank: int
    unit: str
    score: float
    pairs: tuple[CountedPair, ...]
    bonus: int
    firsts: int
    seconds: int
    tie: str


@dataclass(frozen=True)
class UnitStandings:
    lines: tuple[UnitLine, ...]
    complete: bool
    rules: dict
    rules_text: tuple[str, ...]
    lot_seed: str
    offered: bool = True   # False: the event ranks no units (the profile's reading), ``lines`` is empty
    note: str = ""         # the profile's word on where the scale comes from (003: the organiser's own)


def profile_rules(event: Event) -> dict:
    """The profile's ``unit_standings`` section (empty when the profile has none)."""
    return dict((event.profile.data or {}).get("unit_standings") or {})


#: What the unit standings say when the profile and the organiser set no scale (a blank page before).
NOT_RANKED = gettext_lazy("This event ranks no units: its rules give the units no points per place, and the "
                          "organiser has set none.")


def scale_note(event: Event) -> str:
    """The profile's note on the unit scoring in the active language ("" when it has none): 003 writes no unit
    scoring, so its profile says the scale is the organiser's own, or that the event has no unit standings."""
    return str(in_language(profile_rules(event).get("about") or {}, "note"))


def unit_rules(event: Event) -> dict:
    """The rules in force: the profile's, then the organiser's override, checked and completed."""
    override = {k: v for k, v in (event.unit_scoring or {}).items() if k in RULE_KEYS}
    rules = {k: v for k, v in profile_rules(event).items() if k in RULE_KEYS}
    return pure.clean_rules({**rules, **override})


SEED_MAX_LENGTH = 64


def default_lot_seed(event: Event) -> str:
    """The seed of the lot for ties when the organiser gave none. It is part of the event's data (changing
    it would draw existing ties again), so it stays the same in every language."""
    return f"{event.slug}:团体"


def lot_seed(event: Event) -> str:
    return str((event.unit_scoring or {}).get("lot_seed") or default_lot_seed(event))


@transaction.atomic
def set_unit_rules(event: Event, *, points=None, best_n=None, women_bonus=None, seed=None) -> Event:
    """Store the organiser's override (None: keep the profile's value); checked before it is saved."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    override = {}
    if points is not None:
        override["points"] = list(points)
    if best_n is not None:
        override["best_n"] = best_n
    if women_bonus is not None:
        override["women_bonus"] = women_bonus
    pure.clean_rules({**{k: v for k, v in profile_rules(event).items() if k in RULE_KEYS}, **override})
    seed = "" if seed is None else str(seed).strip()
    if len(seed) > SEED_MAX_LENGTH:
        raise UserError(gettext_noop("The seed may have at most %(most)s characters."), field="seed",
                        most=SEED_MAX_LENGTH)
    if seed:
        override["lot_seed"] = seed
    event.unit_scoring = override
    event.save(update_fields=["unit_scoring"])
    return event


def parse_points(text: str) -> list[int] | None:
    """"9-7-6-5-4-3-2-1" (or with commas or spaces) as a list; "" gives None."""
    text = (text or "").strip()
    if not text:
        return None
    parts = [p for p in text.replace(",", " ").replace("，", " ").replace("-", " ").split() if p]
    if not all(p.isdigit() for p in parts):
        raise UserError(gettext_noop("Points per place must be a list of whole numbers of 0 or more."),
                        field="points")
    return [int(p) for p in parts]


def rules_text(rules: dict, seed: str) -> tuple[str, ...]:
    """The calculation's rules in the active language (printed and shown under the table)."""
    lines = [
        _("Points per final place: %(scale)s (places 1 to %(n)s); lower places earn none.")
        % {"scale": "-".join(str(p) for p in rules["points"]), "n": len(rules["points"])},
        _("Pairs sharing a place share equally the points of the places they cover."),
        (_("Every pair of a unit counts.") if not rules["best_n"] else
         _("The best %(n)s pairs of each unit count.") % {"n": rules["best_n"]}),
    ]
    if rules["women_bonus"]:
        lines.append(_("Each women's pair that earns points adds %(bonus)s points to its unit.")
                     % {"bonus": rules["women_bonus"]})
    lines.append(_("Units level on points are ranked by more first places, then more second places, then by "
                   "lot (seed %(seed)s).") % {"seed": seed})
    return tuple(lines)


def _women_pairs(event: Event) -> set[int]:
    women = set(Player.objects.filter(event=event, gender="F").values_list("pk", flat=True))
    return {pk for pk, a, b in Pair.objects.filter(event=event).values_list("pk", "player1_id", "player2_id")
            if a in women and b in women}


def event_unit_standings(event: Event) -> UnitStandings:
    """The event's unit standings from the final ranking so far."""
    rules = unit_rules(event)
    seed = lot_seed(event)
    if not event.ranks_units:
        return UnitStandings((), True, rules, (), seed, offered=False, note=scale_note(event) or str(NOT_RANKED))
    places, complete = final_ranking(event)
    unit_of = dict(Pair.objects.filter(event=event).values_list("pk", "unit__name"))
    names = dict(Pair.objects.filter(event=event).values_list("pk", "name"))
    women = _women_pairs(event)
    placed = [pure.PlacedPair(p.entry.pair_id, unit_of.get(p.entry.pair_id) or "", p.place,
                              p.entry.pair_id in women) for p in places]
    units = list(event.units.order_by("name").values_list("name", flat=True))
    table = pure.unit_standings(placed, units, lot_seed=seed, **rules)
    lines = tuple(
        UnitLine(rank=r.rank, unit=str(r.unit), score=pure.plain(r.score),
                 pairs=tuple(CountedPair(names.get(e, ""), place, pure.plain(v)) for e, place, v in r.counted),
                 bonus=r.bonus, firsts=r.firsts, seconds=r.seconds,
                 tie=_tie(r, seed) if complete or r.decided_by != "lot" else "")  # a lot decides once all is played
        for r in table.rows)
    return UnitStandings(lines, complete, rules, rules_text(rules, seed), seed, note=scale_note(event))


def _tie(row: pure.UnitRow, seed: str) -> str:
    if row.decided_by == "firsts":
        return _("more first places")
    if row.decided_by == "seconds":
        return _("more second places")
    if row.decided_by == "lot":
        return _("lot (seed %(seed)s)") % {"seed": seed}
    return ""


def workbook(result: UnitStandings, title: str) -> bytes:
    """The unit standings as .xlsx: Chinese headers, numbers as numbers, the rules below the table."""
    book = Workbook()
    sheet = book.active
    sheet.title = "团体总分"
    sheet.append([title])
    if not result.offered:
        sheet.append([result.note])
        out = io.BytesIO()
        book.save(out)
        return out.getvalue()
    sheet.append(["暂定（赛事尚未结束）" if not result.complete else "最终"])
    header = ["名次", "单位", "总分", "第一名数", "第二名数", "女子对加分", "计分参赛对", "同分决定"]
    sheet.append(header)
    for cell in sheet[3]:
        cell.font = Font(bold=True)
    for line in result.lines:
        pairs = "；".join(f"{p.name} 第{p.place}名 {p.points}分" for p in line.pairs)
        sheet.append([line.rank, line.unit, line.score, line.firsts, line.seconds, line.bonus, pairs, line.tie])
    sheet.append([])
    for text in ((result.note,) if result.note else ()) + result.rules_text:
        sheet.append([text])
    sheet.freeze_panes = "A4"
    for i, width in enumerate((6, 18, 8, 10, 10, 10, 60, 18), start=1):
        sheet.column_dimensions[get_column_letter(i)].width = width
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
