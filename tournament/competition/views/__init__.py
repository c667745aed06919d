"""Competition pages: the public schedule, group tables, brackets, standings, final ranking and awards, and
their .xlsx downloads. Views are thin: they call the services in :mod:`tournament.competition` and shape
their answers for the templates.

The other pages are its modules `manage` (the organiser's stages, draws, schedule and referees), `find`,
`grid` and `swiss` (so `**.views` in .importlinter covers them all);
no name this module imports may be a submodule's name (importing the submodule would overwrite it)."""
from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Count, Min, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import translation

from tournament import pagecache
from tournament.access import visible_events
from tournament.competition import exports, group_standings, live, placings, rounds, stages
from tournament.competition.knockout import bracket_state
from tournament.competition.rounds import current_clock_round
from tournament.models import Event, Group, Match, Round, Stage
from tournament.models.competition import round_words


# --------------------------------------------------------------------------- helpers
def public_event(request, slug) -> Event:
    event = get_object_or_404(visible_events(request.user).select_related("profile"), slug=slug)
    pagecache.seen(request, event)
    return event


def pair_names(event) -> dict:
    return dict(event.pairs.values_list("pk", "name"))


SCHEDULE_PAGE_SIZE = 200  # tables per page of the public schedule (a city's round has thousands)


class _EventMatches:
    """The event's matches in play order as a sequence the Paginator slices: its length is the sum of the
    rounds' counts, and a slice reads only the rounds it falls in (no OFFSET over a city's 100,000 matches)."""

    def __init__(self, rounds, counts):
        self.rounds, self.counts = rounds, counts

    def __len__(self):
        return sum(self.counts.values())

    def __getitem__(self, window):
        start, stop = window.start or 0, window.stop
        wanted, offset, first = [], 0, None
        for rnd in self.rounds:
            count = self.counts.get(rnd.pk, 0)
            if count and offset + count > start and offset < stop:
                wanted.append(rnd.pk)
                first = offset if first is None else first
            offset += count
        if not wanted:
            return []
        return list(Match.objects.filter(round_id__in=wanted).select_related("ns", "ew", "group__stage")
                    .order_by("round__stage__order", "round__number", "round_id", "table", "pk")
                    [start - first:stop - first])


def schedule_page(event, page_number, per_page=None):
    """One page of the public schedule, in a fixed number of queries whatever the event's size.

    Returns ``(page, rounds, jumps)``: the Paginator page of matches (in play order), the rounds on this
    page each with its matches on it (a round without matches on the page where it would start), and
    every round with the page it starts on (the round links above the list). The page's matches are read
    from the rounds it covers only.
    """
    rounds = list(Round.objects.filter(stage__event=event).select_related("stage")
                  .order_by("stage__order", "number", "pk"))
    counts = dict(Match.objects.filter(round__stage__event=event).order_by().values_list("round_id")
                  .annotate(n=Count("pk")))
    per_page = per_page or SCHEDULE_PAGE_SIZE
    page = Paginator(_EventMatches(rounds, counts), per_page).get_page(page_number)
    pages = page.paginator.num_pages
    on_page: dict = {}
    for match in page.object_list:
        on_page.setdefault(match.round_id, []).append(match)
    shown, jumps, offset = [], [], 0
    for rnd in rounds:
        count = counts.get(rnd.pk, 0)
        jumps.append((rnd, min(pages, offset // per_page + 1)))
        if on_page.get(rnd.pk) or (count == 0 and jumps[-1][1] == page.number):
            shown.append((rnd, on_page.get(rnd.pk, [])))
        offset += count
    return page, shown, jumps


def bracket_columns(stage, names):
    """The bracket for display: main-bracket rounds as columns, placement matches grouped below."""
    view = bracket_state(stage)
    if view is None:
        return None
    main, placement = {}, {}
    for slot in view.bracket.matches:
        row = view.rows.get(slot.key)
        if row is None:
            continue
        item = {
            "key": slot.key, "label": slot.label, "row": row, "table": row.table, "status": row.get_status_display(),
            "ns": names.get(row.ns_id) or stages.describe_source(row.ns_source),
            "ew": names.get(row.ew_id) or stages.describe_source(row.ew_source),
            "ns_won": row.winner_id is not None and row.winner_id == row.ns_id,
            "ew_won": row.winner_id is not None and row.winner_id == row.ew_id,
            "known": bool(row.ns_id and row.ew_id),
        }
        target = placement if slot.key.startswith("P") else main
        target.setdefault(slot.round_no if target is main else slot.label, []).append(item)
    columns = [{"name": _round_name(view, n), "matches": items} for n, items in sorted(main.items())]
    places = [{"name": round_words(label), "matches": items} for label, items in placement.items()]
    return {"columns": columns, "placements": places, "draw": view.draw}


def _round_name(view, number):
    return round_words(next((s.label for s in view.bracket.matches
                             if s.round_no == number and not s.key.startswith("P")), ""))


# --------------------------------------------------------------------------- public pages
@pagecache.public_page
def public_schedule(request, slug):
    """The schedule one page of tables at a time, with a link to the page where each round starts."""
    event = public_event(request, slug)
    page, rounds, jumps = schedule_page(event, request.GET.get("page"))
    return render(request, "tournament/competition/schedule.html",
                  {"event": event, "rounds": rounds, "page": page, "jumps": jumps, "tab": "schedule",
                   "live_rounds": live.live_round_ids(rounds),
                   "clock_round": current_clock_round(event)})


def _current_group_matches(event, group_ids) -> tuple[dict, list[int]]:
    """Group id -> the group's matches in its stage's current round (the first with a table still to
    finish), for the groups ``group_ids``, and those rounds' ids (two queries)."""
    open_rounds = (Match.objects.filter(round__stage__event=event, group__isnull=False)
                   .exclude(status__in=Match.OVER).values("round__stage_id").annotate(number=Min("round__number")))
    current = Q(pk__in=[])
    for row in open_rounds:
        current |= Q(round__stage_id=row["round__stage_id"], round__number=row["number"])
    by_group: dict = {}
    rounds = set()
    for m in (Match.objects.filter(current, group_id__in=list(group_ids)).select_related("round", "ns", "ew", "group__stage")
              .order_by("round__number", "table", "pk")):
        by_group.setdefault(m.group_id, []).append(m)
        rounds.add(m.round_id)
    return by_group, sorted(rounds)


GROUPS_PAGE_ENTRIES = 256  # entries per page of the group tables: 64 groups of 4 on one page, or 4 groups of 64


def group_pages(event, per_page=None) -> list[list[tuple]]:
    """The event's round-robin groups (id, name, stage id) cut into pages of about ``per_page`` entries (a
    group is never split; one query)."""
    per_page = per_page or GROUPS_PAGE_ENTRIES
    pages, size = [[]], 0
    for row in (Group.objects.filter(stage__event=event, stage__kind=Stage.Kind.ROUND_ROBIN)
                .order_by("stage__order", "order", "pk").annotate(n=Count("memberships"))
                .values_list("pk", "name", "stage_id", "n")):
        if pages[-1] and size + row[3] > per_page:
            pages.append([])
            size = 0
        pages[-1].append(row[:3])
        size += row[3]
    return pages


@pagecache.public_page
def public_groups(request, slug):
    """The group tables and crosstables, a page of groups at a time (a city's event has 64 groups of 64)."""
    event = public_event(request, slug)
    pages = group_pages(event)
    page = Paginator(pages, 1).get_page(request.GET.get("page"))
    shown = [g[0] for g in page.object_list[0]] if page.object_list else []
    by_group, live_rounds = _current_group_matches(event, shown)
    published = rounds.published_rounds(event)
    stage_tables = [(st, [(g, by_group.get(g.group_id, [])) for g in st.groups], published.get(st.stage_id, []))
                    for st in group_standings.event_standings(event, shown)]
    jumps = [(pk, name, number) for number, groups in enumerate(pages, start=1) for pk, name, _stage in groups]
    return render(request, "tournament/competition/groups.html",
                  {"event": event, "stages": stage_tables, "tab": "groups", "live_rounds": live_rounds,
                   "page": page, "jumps": jumps if len(pages) > 1 else []})


@pagecache.public_page
def public_bracket(request, slug):
    event = public_event(request, slug)
    names = pair_names(event)
    published = rounds.published_rounds(event)
    knockouts = [(s, bracket_columns(s, names), published.get(s.pk, []))
                 for s in event.stages.filter(kind=Stage.Kind.ELIMINATION)]
    rows = {}
    for _stage, bracket, _published in knockouts:
        for section in (bracket or {}).get("columns", []) + (bracket or {}).get("placements", []):
            for item in section["matches"]:
                rows[item["row"].pk] = item["row"]
    return render(request, "tournament/competition/bracket.html",
                  {"event": event, "knockouts": knockouts, "tab": "bracket",
                   "live_rounds": sorted({m.round_id for m in rows.values()
                                          if not m.is_over and m.status != Match.Status.PENDING})[:live.MAX_ROUNDS]})


@pagecache.public_page
def public_standings(request, slug):
    event = public_event(request, slug)
    ranked = placings.event_ranking(event)
    places, complete = ranked.pair
    published = rounds.published_rounds(event)
    stages_published = [(s.label, published[s.pk]) for s in event.stages.order_by("order") if s.pk in published]
    return render(request, "tournament/competition/standings.html",
                  {"event": event, "places": places, "complete": complete, "stages_published": stages_published,
                   "provisional_note": ranked.provisional_note, "left_out_note": ranked.left_out_note,
                   "disqualified": ranked.disqualified,
                   "awards": placings.award_list(event, (places, complete)), "tab": "standings"})


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _xlsx(event, build, name):
    """An .xlsx download of the event, its headers and notes in Chinese whatever the page's language."""
    with translation.override("zh-hans"):
        content = build(event)
    response = HttpResponse(content, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{name}.xlsx"'
    return response


def standings_xlsx(request, slug):
    """The final ranking, group tables and Swiss standings as .xlsx (the pages' columns)."""
    return _xlsx(public_event(request, slug), exports.standings_workbook, "standings")


def crosstables_xlsx(request, slug):
    """Every group's crosstable as .xlsx, a sheet per group."""
    return _xlsx(public_event(request, slug), exports.crosstables_workbook, "crosstables")
