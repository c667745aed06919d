"""The final ranking (places) and the award list, derived from the standings and the knock-out results."""
from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext_lazy as _

from tournament.competition import swiss_standings
from tournament.competition.progress import bracket_state
from tournament.competition.ranking import Award, EntryInfo, FinalPlace, StageStandings, event_standings
from tournament.competition.stages import profile_format
from tournament.models import Pair, Stage


def _entry_infos(event) -> dict[int, EntryInfo]:
    return {pid: EntryInfo(pid, name, unit, status in Pair.GONE, status) for pid, name, unit, status in
            event.pairs.values_list("id", "name", "unit__name", "status")}


def _round_robin_places(result: StageStandings, skip: set, first_place: int,
                        infos: dict) -> list[FinalPlace]:
    """Places from round-robin standings: one group ranks directly; in many groups the entries
    with the same group rank share a place."""
    if len(result.groups) == 1:
        rows = [r for r in result.groups[0].rows if r.entry.pair_id not in skip]
        first_index: dict = {}
        for i, r in enumerate(rows):
            first_index.setdefault(r.rank, i)
        return [FinalPlace(first_place + first_index[r.rank], infos[r.entry.pair_id], r.shared,
                           f"{result.name}第{r.rank}名") for r in rows]
    places = []
    by_rank = defaultdict(list)
    for table in result.groups:
        rest = [r for r in table.rows if r.entry.pair_id not in skip]
        for i, row in enumerate(rest):
            by_rank[i].append((table.name, row))
    place = first_place
    for i in sorted(by_rank):
        block = by_rank[i]
        for name, row in block:
            places.append(FinalPlace(place, infos[row.entry.pair_id], len(block) > 1,
                                     f"{result.name}{name}组第{row.rank}名"))
        place += len(block)
    return places


def final_ranking(event) -> tuple[list[FinalPlace], bool]:
    """The event's final ranking (best first) and whether it is complete.

    The last stage decides the top places (knock-out placements, including placement matches, or
    the round-robin standings); entries that went out earlier follow, ranked by the earlier stage.
    """
    stages = list(event.stages.order_by("order"))
    if not stages:
        return [], False
    infos = _entry_infos(event)
    loaded: dict = {}

    def standings(stage_id):
        """A round-robin stage's standings, all of them read at the first need (a knock-out still waiting
        for its qualifiers ends the ranking before any is needed: they read only the complete groups)."""
        if not loaded:
            loaded["all"] = {s.stage_id: s for s in event_standings(event)}
        return loaded["all"].get(stage_id)

    places: list[FinalPlace] = []
    complete = True
    for stage in reversed(stages):
        placed = {p.entry.pair_id for p in places}
        if stage.kind == Stage.Kind.ELIMINATION:
            view = bracket_state(stage, loaded["all"].get(stage.source_id) if loaded else None)
            if view is None:
                return places, False
            labels = {slot.key: slot.label for slot in view.bracket.matches}
            for p in view.state.placements:
                pair_id = view.pair_of(p.entry)
                if pair_id is not None and pair_id not in placed:
                    key = _deciding_match(view, p.entry)
                    places.append(FinalPlace(p.place, infos[pair_id], p.shared, labels.get(key, "")))
            if not view.state.is_complete:
                return places, False
        elif stage.kind == Stage.Kind.SWISS:
            swiss = swiss_standings.final_places(stage, placed, len(places) + 1, infos)
            if swiss is None:
                return places, False
            places.extend(swiss)
        else:
            result = standings(stage.pk)
            if result is None or not result.complete:
                return places, False
            places.extend(_round_robin_places(result, placed, len(places) + 1, infos))
    return places, complete


def _deciding_match(view, entry) -> str | None:
    """Key of the last match the entry played in the bracket."""
    last = None
    for key, state in view.state.matches.items():
        if entry in (state.a, state.b):
            last = key
    return last


def award_list(event, ranking=None) -> list[Award]:
    """Champion, runner-up, third place(s), merit and commemorative awards per the profile.

    ``format.awards`` of the profile says how many of each (union-games: two joint thirds and four
    merit awards); without it: champion, runner-up and the third place(s) of the ranking.
    ``ranking``: :func:`final_ranking`'s answer when the caller has it.
    """
    places, _complete = ranking or final_ranking(event)
    cfg = profile_format(event.profile).get("awards") or {"champion": 1, "runner_up": 1, "third": 2,
                                                           "merit": 0, "commemorative": False}
    awards = []
    for title, place in ((_("Champion"), 1), (_("Runner-up"), 2)):
        holders = tuple(p for p in places if p.place == place)
        if holders:
            awards.append(Award(str(title), holders))
    thirds = tuple(p for p in places if p.place == 3)[: cfg.get("third", 0)]
    if thirds:
        awards.append(Award(str(_("Third place")), thirds))
    rest = [p for p in places if p.place > 3 or (p.place == 3 and p not in thirds)]
    merit = tuple(rest[: cfg.get("merit", 0)])
    if merit:
        awards.append(Award(str(_("Merit award")), merit))
    if cfg.get("commemorative") and rest[len(merit):]:
        awards.append(Award(str(_("Commemorative award")), tuple(rest[len(merit):])))
    return awards
