"""``draw``: the draw sheet (抽签记录) — every draw of the event with its seed, parameters and result.

Anyone can re-run a draw from this sheet: the pure function of :mod:`tournament.pairings` for the
draw's kind, given the printed parameters and seed, returns the printed result. Superseded draws are
printed too, marked as such, so a redo can be checked against the original.
"""
import json
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.platypus import Spacer

from tournament.models import Draw, Pair, Player
from tournament.printouts.common import Printout, heading_for, local_time
from tournament.printouts.layout import Heading, HeadingMark, build_pdf, content_size, grid_table, styles, text


@dataclass(frozen=True)
class DrawSheet:
    heading: Heading
    title: str
    draw_id: int
    seed: str
    status: str
    made: str
    params: tuple      # (key, JSON text)
    result: tuple      # (key, JSON text)
    legend: tuple      # (id, name)


@dataclass(frozen=True)
class DrawData:
    heading: Heading
    draws: tuple


def collect(event, options):
    """Every draw of the event, in stage and kind order, oldest first."""
    draws = list(Draw.objects.filter(event=event).select_related("stage", "created_by", "superseded_by")
                 .order_by("stage__order", "kind", "created_at", "pk"))
    pairs = dict(Pair.objects.filter(event=event).values_list("pk", "name"))
    players = dict(Player.objects.filter(event=event).values_list("pk", "name"))
    return DrawData(heading=heading_for(event), draws=tuple(_sheet(event, d, pairs, players) for d in draws))


def _sheet(event, draw, pairs, players):
    stage = f" · {draw.stage.name}" if draw.stage_id else ""
    try:
        status = _("superseded by draw #%(id)s") % {"id": draw.superseded_by.pk}
    except Draw.DoesNotExist:
        status = _("in force")
    made = local_time(draw.created_at)
    if draw.created_by_id:
        made += f" · {draw.created_by.get_full_name() or draw.created_by.get_username()}"
    names = players if draw.kind == Draw.Kind.PAIRS else pairs
    numbers = sorted(_ints(draw.result) & set(names))
    return DrawSheet(
        heading=heading_for(event, draw.stage),
        title=f"{draw.get_kind_display()}{stage}",
        draw_id=draw.pk,
        seed=draw.seed,
        status=str(status),
        made=made,
        params=_items(draw.params),
        result=_items(draw.result),
        legend=tuple((n, names[n]) for n in numbers),
    )


def _items(value):
    """Top-level keys of a JSON object with their values as compact JSON text."""
    if not isinstance(value, dict):
        return (("", json.dumps(value, ensure_ascii=False)),)
    return tuple((str(k), json.dumps(v, ensure_ascii=False)) for k, v in value.items())


def _ints(value):
    """Every integer inside a JSON value (the ids a draw result refers to)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return set().union(*(_ints(v) for v in value)) if value else set()
    return set()


def render(data, progress=None):
    """A section per draw: seed, status, parameters, result and the id legend."""
    sheet = styles()
    story = [text(_("Draw sheet"), sheet["title"]),
             text(_("Re-run a draw with the pairing function of its kind, the parameters and the seed below: "
                    "it gives the same result."), sheet["small"])]
    if not data.draws:
        story.append(text(_("No draw has been made yet."), sheet["body"]))
    for draw in data.draws:
        story += [HeadingMark(draw.heading),
                  text(f"#{draw.draw_id} {draw.title}", sheet["subtitle"]),
                  text(f"{_('Draw seed')}: {draw.seed}", sheet["subtitle"]),
                  text(_("Status") + f": {draw.status}    " + _("Made") + f": {draw.made}", sheet["body"]),
                  Spacer(1, 4)]
        rows = [[_("Parameters"), k, v] for k, v in draw.params] + [[_("Result"), k, v] for k, v in draw.result]
        story.append(grid_table([_("Part"), _("Key"), _("Value")], rows, [70, 90, content_size()[0] - 160], font_size=8))
        if draw.legend:
            legend = "; ".join(f"{n} = {name}" for n, name in draw.legend)
            story += [Spacer(1, 4), text(_("Ids") + f": {legend}", sheet["small"])]
    return build_pdf(story, heading=data.heading, title=_("Draw sheet"))


PRINTOUT = Printout(kind="draw", title=gettext_lazy("Draw sheet"), collect=collect, render=render)
