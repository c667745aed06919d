"""The placings (the final ranking: each entry's place, 1st..nth) and the award list, derived from the group
and Swiss standings and the knock-out results.

The ranking is final once every stage that has matches is finished: a stage with no draw in force and no
matches (planned, never drawn, or its draw voided) does not count and does not keep the ranking provisional
(:attr:`EventRanking.left_out` names it); while the ranking is provisional, :attr:`EventRanking.open_stages`
names the stages still being played.

Awards (:func:`award_list`): the profile's ``format.awards`` counts are numbers of places, taken in order
(union-games: champion place 1, runner-up place 2, two third places 3–4, four merit awards 5–8, then
commemorative awards). An entry's award is the one whose places hold its place, so entries tied on a place
share one award, and a tie straddling a boundary shares the better one. 冠军, 亚军 and 季军 name places 1, 2
and 3 only: another place inside their range (a 4th place after a third-place match) takes the next award
with places (the merit award), when the profile has one.

A disqualified entry (取消比赛资格: 003 二.4 "取消作弊方比赛资格，对方获胜", 002 十一（五） "取消参赛资格") keeps its results
on record (its opponents' wins, the group and Swiss tables) but takes no place and no award: it is left out of
:attr:`EventRanking.places` and listed after them in :attr:`EventRanking.disqualified`, without a number. The
entries below it move up: in a group or Swiss table it is passed over as an entry placed by a later stage is (its
table-mates below it rank one higher), and in a knock-out the places after its own are one better (a pair
disqualified at 13= leaves the others at 13=, and 17 becomes 16). The documents do not say who takes a
disqualified pair's knock-out place; the places below moving up is the plain reading (tests/RULES_COVERAGE.md).
A suspended pair (停赛, 000 第十七条（八）) is out of the remaining play only: it keeps its place, as a withdrawn
one does. Lifting a disqualification (the pair active again) gives its place back: nothing here is stored.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.naturalsort import natural_key
from tournament.competition import swiss_standings
from tournament.competition.group_standings import event_standings
from tournament.competition.knockout import bracket_state
from tournament.competition.stages import STRUCTURE_DRAWS, profile_format
from tournament.competition.standings_rows import EntryInfo, StageStandings
from tournament.models import Draw, Match, Pair, Stage
from tournament.models.competition import round_words


def _list(names) -> str:
    """Stage names as a sentence lists them, in the page's language ("小组赛、淘汰赛"; "Group stage, Knock-out")."""
    return gettext(", ").join(round_words(name) for name in names)


@dataclass(frozen=True)
class FinalPlace:
    """One entry's placing: its place (1 = first; entries tied share one), and where it was decided."""

    place: int
    entry: EntryInfo
    shared: bool
    how: str  # e.g. "决赛", "小组第3名"


@dataclass(frozen=True)
class Award:
    title: str
    places: tuple[FinalPlace, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class EventRanking:
    """The final ranking as it stands: the places (best first), whether it is final, the stages still being
    played (provisional), the stages left out of it (no draw in force and no matches) and the disqualified
    entries (no place)."""

    places: list
    complete: bool
    open_stages: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    disqualified: tuple[EntryInfo, ...] = ()  # no place, no award: listed after the places, without a number

    @property
    def pair(self) -> tuple[list[FinalPlace], bool]:
        """(places, complete): what :func:`final_ranking` answers, as :func:`award_list` takes it."""
        return self.places, self.complete

    @property
    def provisional_note(self) -> str:
        """"暂定：淘汰赛尚未结束。" naming what keeps the ranking open ("" once it is final)."""
        if self.complete:
            return ""
        if self.open_stages:
            return gettext("Provisional: %(stages)s is not finished yet.") % {"stages": _list(self.open_stages)}
        return gettext("Provisional: the event is not finished yet.")

    @property
    def left_out_note(self) -> str:
        """"未抽签的阶段不计入名次：…" ("" when every stage counts)."""
        if not self.left_out:
            return ""
        return gettext("Not drawn, so not counted in the ranking: %(stages)s.") % {
            "stages": _list(self.left_out)}


def _entry_infos(event) -> dict[int, EntryInfo]:
    return {pid: EntryInfo(pid, name, unit, status in Pair.GONE, status) for pid, name, unit, status in
            event.pairs.values_list("id", "name", "unit__name", "status")}


def _round_robin_places(result: StageStandings, skip: set, first_place: int,
                        infos: dict) -> list[FinalPlace]:
    """Places from round-robin standings: one group ranks directly; in many groups the entries
    with the same group rank share a place."""
    if len(result.groups) == 1:
        return _table_places(result.name, result.groups[0].rows, skip, first_place, infos)
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
                                     gettext("%(stage)s group %(group)s, place %(rank)s")
                                     % {"stage": result.name, "group": name, "rank": row.rank}))
        place += len(block)
    return places


def _table_places(stage_name: str, rows, skip: set, first_place: int, infos: dict) -> list[FinalPlace]:
    """Places from one standings table (a single group, a Swiss stage) for the entries not placed by a later
    stage (nor disqualified): in the table's order, entries on one rank sharing the place of the first of them
    (shared only with another entry left on that rank)."""
    rows = [r for r in rows if r.entry.pair_id not in skip]
    first_index: dict = {}
    on_rank: dict = defaultdict(int)
    for i, r in enumerate(rows):
        first_index.setdefault(r.rank, i)
        on_rank[r.rank] += 1
    return [FinalPlace(first_place + first_index[r.rank], infos[r.entry.pair_id], r.shared and on_rank[r.rank] > 1,
                       gettext("%(stage)s, place %(rank)s") % {"stage": stage_name, "rank": r.rank}) for r in rows]


def _without_disqualified(places: list[FinalPlace], out: set) -> list[FinalPlace]:
    """A knock-out's places without the disqualified entries (``out``): every place after one of theirs is one
    better per disqualified entry above it, and a place they shared is shared only if two are still on it."""
    gone = sorted(p.place for p in places if p.entry.pair_id in out)
    if not gone:
        return places
    kept = [p for p in places if p.entry.pair_id not in out]
    count: dict = defaultdict(int)
    for p in kept:
        count[p.place] += 1
    return [FinalPlace(p.place - sum(1 for g in gone if g < p.place), p.entry,
                       p.shared and (p.place not in gone or count[p.place] > 1), p.how) for p in kept]


def _swiss_places(stage: Stage, skip: set, first_place: int, infos: dict) -> list[FinalPlace] | None:
    """Places from a finished Swiss stage for the entries not placed by a later stage (None: not finished)."""
    result = swiss_standings.stage_standings(stage)
    if not result.complete:
        return None
    return _table_places(result.name, result.rows, skip, first_place, infos)


def final_ranking(event) -> tuple[list[FinalPlace], bool]:
    """The event's final ranking (best first) and whether it is complete (:func:`event_ranking`)."""
    return event_ranking(event).pair


def _counted_stage_ids(event) -> set:
    """The stages that count: with a match, or with a draw in force (groups, bracket, Swiss round). One EXISTS
    per stage (it stops at the stage's first match), not a scan of a city's 129,024 matches."""
    with_matches = set(Stage.objects.filter(event=event).filter(
        Exists(Match.objects.filter(round__stage=OuterRef("pk")))).values_list("pk", flat=True))
    drawn = {d.stage_id for d in Draw.objects.filter(stage__event=event, kind__in=STRUCTURE_DRAWS,
                                                     superseded_by__isnull=True) if not d.is_void}
    return with_matches | drawn


def _open_stage_ids(event) -> set:
    """The stages with a match still to be played or decided (an EXISTS per stage, as above)."""
    waiting = Q(status__in=(*Match.WAITING, Match.Status.PLAYING)) | Q(status=Match.Status.FINISHED,
                                                                      winner__isnull=True, ew__isnull=False)
    return set(Stage.objects.filter(event=event).filter(
        Exists(Match.objects.filter(waiting, round__stage=OuterRef("pk")))).values_list("pk", flat=True))


def event_ranking(event) -> EventRanking:
    """The event's final ranking (best first), whether it is complete, and what keeps it open.

    The last stage that counts decides the top places (knock-out placements, including placement matches, or
    the round-robin or Swiss standings); entries that went out earlier follow, ranked by the earlier stage. A
    stage with no draw in force and no matches is left out.
    """
    every = list(event.stages.order_by("order"))
    counted = _counted_stage_ids(event) if every else set()
    stages = [s for s in every if s.pk in counted]
    left_out = tuple(s.name for s in every if s.pk not in counted)
    infos = _entry_infos(event)
    out = tuple(sorted((e for e in infos.values() if e.status == Pair.Status.DISQUALIFIED),
                       key=lambda e: natural_key(e.name)))
    if not stages:
        return EventRanking([], False, (), left_out, out)
    places, stopped = _ranking(event, stages, infos)
    if stopped is None:
        return EventRanking(places, True, (), left_out, out)
    still = _open_stage_ids(event) | {stopped.pk}
    return EventRanking(places, False, tuple(s.name for s in stages if s.pk in still), left_out, out)


def _ranking(event, stages, infos) -> tuple[list[FinalPlace], Stage | None]:
    """The places from the counted ``stages``, last first, and the stage that is not finished (None: all are);
    the disqualified entries take none (the module's note)."""
    out = {pid for pid, e in infos.items() if e.status == Pair.Status.DISQUALIFIED}
    loaded: dict = {}

    def standings(stage_id):
        """A round-robin stage's standings, all of them read at the first need (a knock-out still waiting
        for its qualifiers ends the ranking before any is needed: they read only the complete groups)."""
        if not loaded:
            loaded["all"] = {s.stage_id: s for s in event_standings(event)}
        return loaded["all"].get(stage_id)

    places: list[FinalPlace] = []
    for stage in reversed(stages):
        placed = {p.entry.pair_id for p in places} | out
        if stage.kind == Stage.Kind.ELIMINATION:
            view = bracket_state(stage, loaded["all"].get(stage.source_id) if loaded else None)
            if view is None:
                return places, stage
            labels = {slot.key: slot.label for slot in view.bracket.matches}
            bracket = []
            for p in view.state.placements:
                pair_id = view.pair_of(p.entry)
                if pair_id is not None and pair_id not in placed - out:
                    key = _deciding_match(view, p.entry)
                    bracket.append(FinalPlace(p.place, infos[pair_id], p.shared, round_words(labels.get(key, ""))))
            places.extend(_without_disqualified(bracket, out))
            if not view.state.is_complete:
                return places, stage
        elif stage.kind == Stage.Kind.SWISS:
            swiss = _swiss_places(stage, placed, len(places) + 1, infos)
            if swiss is None:
                return places, stage
            places.extend(swiss)
        else:
            result = standings(stage.pk)
            if result is None or not result.complete:
                return places, stage
            places.extend(_round_robin_places(result, placed, len(places) + 1, infos))
    return places, None


def _deciding_match(view, entry) -> str | None:
    """Key of the last match the entry played in the bracket."""
    last = None
    for key, state in view.state.matches.items():
        if entry in (state.a, state.b):
            last = key
    return last


DEFAULT_AWARDS = {"champion": 1, "runner_up": 1, "third": 2, "merit": 0, "commemorative": False}
# (profile key, title, the one place the title names: 冠军 1st, 亚军 2nd, 季军 3rd; None: any place in its range)
AWARDS = (("champion", _("Champion"), 1), ("runner_up", _("Runner-up"), 2), ("third", _("Third place"), 3),
          ("merit", _("Merit award"), None))


def award_of(place: int, cfg: dict) -> str | None:
    """The profile key of the award a ranking place earns (None: no award): the counts of ``cfg`` are numbers
    of places in order, so every entry on one place (a tie) gets the same award, the better one where the tie
    straddles a boundary; a place inside a title's range that the title does not name (4th, in a range of two
    third places) takes the next award with places, unless ``fourth_place`` is "third" (003's choice
    fourth_after_third_match: both sides of a 3rd-place match take a third place)."""
    end = 0
    for key, _title, named in AWARDS:
        if key == "third" and cfg.get("fourth_place") == "third":
            named = None
        count = int(cfg.get(key) or 0)
        end += count
        if count and place <= end and named in (None, place):
            return key
    return "commemorative" if cfg.get("commemorative") else None


def award_list(event, ranking=None) -> list[Award]:
    """Champion, runner-up, third place(s), merit and commemorative awards per the profile.

    ``format.awards`` of the profile says how many places each award covers (union-games: two third places
    and four merit awards, then commemorative awards); without it: champion, runner-up and the third
    place(s) of the ranking. Entries that share a place share its award (:func:`award_of`).
    ``ranking``: :func:`final_ranking`'s answer when the caller has it.
    """
    places, _complete = ranking or final_ranking(event)
    cfg = profile_format(event.profile).get("awards") or DEFAULT_AWARDS
    holders: dict = defaultdict(list)
    for p in sorted(places, key=lambda p: p.place):
        key = award_of(p.place, cfg)
        if key is not None:
            holders[key].append(p)
    titles = {key: title for key, title, _named in AWARDS} | {"commemorative": _("Commemorative award")}
    return [Award(str(titles[key]), tuple(holders[key])) for key in (*(k for k, _t, _n in AWARDS), "commemorative")
            if holders.get(key)]
