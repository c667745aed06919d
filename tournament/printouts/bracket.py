"""``bracket``: each knock-out stage as a drawn tree (对阵图) with seeds, units and results so far.

Up to 64 entries fit an A4 landscape page, up to 128 an A3 portrait page; a larger main bracket is
split into parts of 64 entries (one page each) and a page for the rounds after them, and every
link between pages is marked ("→ 第 N 页" / "← 第 N 页"). Placement matches (3rd place, 5th–8th, …)
follow on a page of their own. The tree is drawn from the Match rows' ``bracket_key``s
("R2-M1", "P3-R1-M1") and sides (``ns``/``ew``, else ``ns_source``/``ew_source``).
"""
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib import colors
from reportlab.platypus import PageBreak

from common.errors import UserError, gettext_noop
from tournament.competition.stages import describe_key
from tournament.engines import brackets
from tournament.models import Draw, Match, Stage
from tournament.printouts.common import Printout, colon, heading_for, in_brackets, matches_of, side_label
from tournament.printouts.layout import FullPage, Heading, HeadingMark, build_pdf, content_size, fit_text

PAGE_ENTRIES = 64        # entries on one page when a bracket is split
A4_ENTRIES = 64          # largest field on A4 landscape
A3_ENTRIES = 128         # largest field on A3 portrait
SHARED_PAGE_ENTRIES = 32  # a main bracket this small shares its page with the placement matches
MAX_COLUMN = 220         # points: columns and rows do not grow past these on a sparse page
MAX_ROW = 36
LOSER_GREY = colors.Color(0.5, 0.5, 0.5)


@dataclass(frozen=True)
class Side:
    """One side of a bracket match: the entry (or where it comes from), its unit and its level."""

    name: str
    unit: str = ""
    level: str = ""
    known: bool = True
    won: bool = False


@dataclass(frozen=True)
class BracketMatch:
    key: str
    round_no: int
    index: int
    a: Side
    b: Side
    note: str = ""


@dataclass(frozen=True)
class Section:
    """The main bracket (prefix "") or a placement section ("P3-"): matches by round and index."""

    prefix: str
    title: str
    first_round_matches: int
    rounds: int
    matches: tuple


@dataclass(frozen=True)
class BracketStage:
    heading: Heading
    title: str
    draw_seed: str
    sections: tuple


@dataclass(frozen=True)
class BracketData:
    heading: Heading
    stages: tuple


def collect(event, options):
    """Every knock-out stage of the event with its matches as they stand."""
    stages = Stage.objects.filter(event=event, kind=Stage.Kind.ELIMINATION).order_by("order")
    keyed = [m for m in matches_of(event).filter(round__stage__in=stages) if m.bracket_key]
    return BracketData(
        heading=heading_for(event),
        stages=tuple(_stage(event, stage, [m for m in keyed if m.round.stage_id == stage.pk]) for stage in stages),
    )


def _stage(event, stage, matches):
    draw = (Draw.objects.filter(stage=stage, kind=Draw.Kind.BRACKET, superseded_by__isnull=True)
            .order_by("-id").first())
    draw = None if draw is None or draw.is_void else draw  # a voided draw: no bracket in force
    by_prefix = {}
    for match in matches:
        prefix, round_no, index = brackets.parse_key(match.bracket_key)
        by_prefix.setdefault(prefix, []).append(_match(match, round_no, index))
    sections = tuple(_section(prefix, items) for prefix, items in sorted(by_prefix.items(), key=_section_order))
    return BracketStage(heading=heading_for(event, stage), title=stage.label,
                        draw_seed=draw.seed if draw else "", sections=sections)


def _section_order(item):
    prefix = item[0]
    return int(prefix[1:-1]) if prefix else 0


def _match(match, round_no, index):
    over = match.is_over
    note = describe_key(match.bracket_key)
    if match.table:
        note += f" · {_('Table')} {match.table}"
    if match.status in (Match.Status.WALKOVER, Match.Status.FORFEIT):
        note += f" · {match.get_status_display()}"
    return BracketMatch(
        key=match.bracket_key, round_no=round_no, index=index,
        a=_side(match.ns, match.ns_source, match.ns_level if over else "", match.winner_id),
        b=_side(match.ew, match.ew_source, match.ew_level if over else "", match.winner_id),
        note=note,
    )


def _side(pair, source, level, winner_id):
    if pair is None:
        return Side(name=side_label(None, source), known=False)
    return Side(name=side_label(pair, source), unit=pair.unit.name, level=level,
                won=winner_id is not None and winner_id == pair.pk)


def _section(prefix, matches):
    rounds = max(m.round_no for m in matches)
    first = sum(1 for m in matches if m.round_no == 1)
    title = _("Main bracket") if not prefix else _section_title(int(prefix[1:-1]), first)
    return Section(prefix=prefix, title=title, first_round_matches=max(first, 1), rounds=rounds,
                   matches=tuple(sorted(matches, key=lambda m: (m.round_no, m.index))))


def _section_title(place, first_round_matches):
    """A placement section named as the pages name its rounds: "第3–4名决赛", "第5–8名排位赛"."""
    last = place + 2 * max(first_round_matches, 1) - 1
    if last == place + 1:
        return _("Play-off for places %(first)s–%(last)s") % {"first": place, "last": last}
    return _("Placement matches for places %(first)s–%(last)s") % {"first": place, "last": last}


# --------------------------------------------------------------------------- pages
@dataclass(frozen=True)
class TreeView:
    """Which part of a section one page draws: rounds ``first_round``.. of ``rounds``, matches from ``offset``.

    ``incoming[i]`` names the page feeding the i-th entry of the first drawn round (split brackets);
    ``outgoing`` names the page the winner goes on to.
    """

    section: Section
    first_round: int
    rounds: int
    offset: int
    width_matches: int
    incoming: tuple = ()
    outgoing: str = ""


def paper_for(entries):
    """(paper, landscape) for a main bracket of ``entries`` slots."""
    if entries <= A4_ENTRIES:
        return "A4", True
    if entries <= A3_ENTRIES:
        return "A3", False
    return "A4", True


def stage_views(stage, first_page):
    """The pages of one stage as lists of TreeViews (one list per page), numbered from ``first_page``."""
    main = [s for s in stage.sections if not s.prefix]
    placement = [TreeView(s, 1, s.rounds, 0, s.first_round_matches) for s in stage.sections if s.prefix]
    pages = []
    for section in main:
        pages += _main_pages(section, first_page + len(pages))
    small = len(pages) == 1 and main and main[0].first_round_matches * 2 <= SHARED_PAGE_ENTRIES
    if small:
        pages[0] += placement
    elif placement:
        pages.append(placement)
    return pages


def _main_pages(section, first_page):
    entries = section.first_round_matches * 2
    if entries <= A3_ENTRIES:
        return [[TreeView(section, 1, section.rounds, 0, section.first_round_matches)]]
    per_part = PAGE_ENTRIES // 2
    part_rounds = per_part.bit_length()           # 32 matches: rounds 1..6 end in one winner
    parts = section.first_round_matches // per_part
    final_page = first_page + parts
    pages = []
    for p in range(parts):
        out = _("Winner goes on to page %(page)s") % {"page": final_page}
        pages.append([TreeView(section, 1, part_rounds, p * per_part, per_part, outgoing=out)])
    incoming = tuple(_("From page %(page)s") % {"page": first_page + p} for p in range(parts))
    pages.append([TreeView(section, part_rounds + 1, section.rounds - part_rounds, 0, parts // 2,
                           incoming=incoming)])
    return pages


def render(data, progress=None):
    """One or more pages per knock-out stage."""
    if not data.stages:
        raise UserError(gettext_noop("This event has no knock-out stage yet."), field="kind")
    biggest = max((s.first_round_matches * 2 for st in data.stages for s in st.sections if not s.prefix), default=2)
    paper, landscape = paper_for(biggest)
    width, height = content_size(paper, landscape)
    story, page = [], 1
    for stage in data.stages:
        for views in stage_views(stage, page):
            if story:
                story.append(PageBreak())
            story += [HeadingMark(stage.heading),
                      FullPage(lambda c, w, h, v=views, s=stage: draw_page(c, w, h, s, v))]
            page += 1
    return build_pdf(story, heading=data.heading, title=_("Bracket"), paper=paper, landscape=landscape)


def draw_page(canvas, width, height, stage, views):
    """The page title (stage, draw seed) and each view stacked with a height in proportion to its size."""
    title = f"{_('Bracket')} · {stage.title}"
    if stage.draw_seed:
        title += "    " + _("Draw seed") + colon() + f"{stage.draw_seed}"
    fit_text(canvas, title, 0, height - 14, width, 13)
    top = available = height - 24
    weights = [max(v.width_matches, 1) + 1 for v in views]
    for view, weight in zip(views, weights):
        box = available * weight / sum(weights)
        fit_text(canvas, _tree_title(view), 0, top - 10, width, 9)
        draw_tree(canvas, 0, top - 14, width, box - 18, view)
        top -= box


def _tree_title(view):
    """The section's title; a split bracket's pages add "part N" or "final rounds"."""
    title = view.section.title
    if view.outgoing:
        part = _("part %(number)s") % {"number": view.offset // view.width_matches + 1}
        return f"{title} · {part}"
    if view.incoming:
        return title + " · " + _("final rounds")
    return title


def draw_tree(canvas, x0, top, width, height, view):
    """Draw the rounds of ``view`` as a tree: a line per side, joined towards the winner column."""
    slots = view.width_matches * 2
    row = min(height / slots, MAX_ROW)
    col = min(width / (view.rounds + 1), MAX_COLUMN)
    size = max(4.5, min(9, row * 0.55))
    by_pos = {(m.round_no, m.index): m for m in view.section.matches}
    ys = [top - (j + 0.5) * row for j in range(slots)]
    canvas.saveState()
    canvas.setLineWidth(0.6)
    for step in range(view.rounds):
        round_no = view.first_round + step
        x = x0 + step * col
        offset = view.offset >> step
        for i in range(len(ys) // 2):
            match = by_pos.get((round_no, offset + i))
            ya, yb = ys[2 * i], ys[2 * i + 1]
            _draw_side(canvas, x, ya, col, size, match.a if match else None, _incoming(view, step, 2 * i))
            _draw_side(canvas, x, yb, col, size, match.b if match else None, _incoming(view, step, 2 * i + 1))
            canvas.line(x + col, ya, x + col, yb)
            if match is not None:
                canvas.setFillColor(LOSER_GREY)  # under the line the winner moves on to, clear of names and levels
                fit_text(canvas, match.note, x + col + 3, (ya + yb) / 2 - size * 0.8 - 1, col * 0.9, size * 0.8)
                canvas.setFillColor(colors.black)
        ys = [(ys[2 * i] + ys[2 * i + 1]) / 2 for i in range(len(ys) // 2)]
    _draw_winner(canvas, x0 + view.rounds * col, ys[0], col, size, view)
    canvas.restoreState()


def _incoming(view, step, slot):
    """The "from page N" note for a first-column slot of a split bracket's last page."""
    if step == 0 and view.incoming and slot < len(view.incoming):
        return view.incoming[slot]
    return ""


def _draw_side(canvas, x, y, col, size, side, incoming):
    """One side's line with the name above it (grey while unknown, bold line for the winner)."""
    if side is None:
        side = Side(name="", known=False)
    name = side.name if not side.unit or side.unit in side.name else side.name + in_brackets(side.unit)
    if incoming:
        name = f"{name}  ← {incoming}" if name else f"← {incoming}"
    canvas.setLineWidth(1.6 if side.won else 0.6)
    canvas.line(x, y, x + col, y)
    canvas.setLineWidth(0.6)
    canvas.setFillColor(colors.black if side.known else LOSER_GREY)
    level_width = col * 0.18 if side.level else 0
    fit_text(canvas, name, x + 2, y + 1.5, col - 4 - level_width, size)
    if side.level:
        fit_text(canvas, side.level, x + col - level_width, y + 1.5, level_width - 2, size, align="right")
    canvas.setFillColor(colors.black)


def _draw_winner(canvas, x, y, col, size, view):
    """The column after the last drawn round: the section's winner, or where the winner goes on to."""
    last = next((m for m in view.section.matches
                 if m.round_no == view.first_round + view.rounds - 1 and m.index == view.offset >> (view.rounds - 1)),
                None)
    winner = ""
    if last is not None:
        winner = next((s.name for s in (last.a, last.b) if s.won), "")
    label = view.outgoing or (_("Winner") if not view.section.prefix else "")
    canvas.setLineWidth(1.6 if winner else 0.6)
    canvas.line(x, y, x + col, y)
    fit_text(canvas, winner or label, x + 2, y + 1.5, col - 4, size)
    if winner and label:
        fit_text(canvas, f"→ {label}" if view.outgoing else label, x + 2, y - 2 * size - 3, col - 4, size * 0.8)


PRINTOUT = Printout(kind="bracket", title=gettext_lazy("Bracket"), collect=collect, render=render,
                    stage_kind=Stage.Kind.ELIMINATION)
