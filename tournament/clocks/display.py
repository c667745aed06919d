"""The hall display and the chief's overview: every table of a round with its clock, read from a shared cache.

    round_overview(round) -> list[dict]        every table: hands left, ended, winner
    display_data(round_id) -> dict | None      the shared, cached part of the display
    live_clock(data, now=None) -> dict         the per-request part (remaining time)
    live_tables(slug, round_ids, match_ids=None) -> dict   what the live public pages poll (live.json)
"""
from __future__ import annotations

import datetime as dt
import logging

from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from infra import clock
from rulings.models import Ruling
from scoring.models import Hand
from scoring.profile_store import shared_version
from tournament.clocks.records import clock_rule, mark, marks_of, round_with_event
from tournament.competition import allowances, rounds
from tournament.competition.display_cache import display_key, generation_key, whole_key
from tournament.competition.stages import describe_source
from tournament.engines import clock as clocks
from tournament.models import ClockFiring, Match, Round
from tournament.records import snapshots
from tournament.records.adjustments import match_replay

log = logging.getLogger(__name__)

DISPLAY_CACHE_SECONDS = 30          # a safety net: invalidation normally refreshes the display at once
IN_FLIGHT = dt.timedelta(seconds=10)   # a table write's changed_at precedes its commit by less than this
RECORDED_CACHE_SECONDS = 3600       # a table's hands recorded, keyed by its last change: never stale, only evicted
#: What the live public pages show of a table (``static/js/live.js``).
LIVE_FIELDS = ("ns_level", "ew_level", "status", "playing", "ended", "winner", "recorded", "hands_left")


def table_order(row) -> tuple:
    """The order of a round's rows (a display row or a Match): by table, a row without a table number last
    (never compared with a number: a bye has none), then by match."""
    table = row["table"] if isinstance(row, dict) else row.table
    match_id = row["match_id"] if isinstance(row, dict) else row.pk
    return (table is None, table or 0, match_id)


def _round_matches(round_id, changed_since=None) -> list:
    """The round's tables in table order (those changed since ``changed_since``), with their pairs, hand
    allowance and kept state's version (not its data: :func:`_hands_recorded` reads the tables it must).

    A bye is no table (no opponent, no table number, no clock): it is left out, named in ``byes``
    (:func:`_byes`)."""
    matches = Match.objects.filter(round_id=round_id).exclude(status=Match.Status.BYE)
    if changed_since is not None:
        matches = matches.filter(changed_at__gte=changed_since)
    return sorted(matches.select_related("ns", "ew", "hand_allowance", "engine_snapshot")
                  .defer("engine_snapshot__data"), key=table_order)


def _byes(round_id) -> list:
    """The entries that have a bye in the round (their names, in the order of their matches)."""
    byes = Match.objects.filter(round_id=round_id, status=Match.Status.BYE).select_related("ns", "ew").order_by("id")
    return [str(m.ns or m.ew) for m in byes if m.ns_id or m.ew_id]


def _table_rows(matches, marks):
    """One dict per table of the round (for the chief referee's overview and the display), from
    :func:`_round_matches`.

    A table's hands recorded come from its engine state, which costs decoding its kept state (or a replay):
    they are cached per table under :func:`_recorded_key`, so rebuilding a round's display after a hand
    reads the engine state of that one table, not of every table of the round."""
    counts = _hands_recorded(matches)
    rows = []
    for match in matches:
        allowance = getattr(match, "hand_allowance", None)
        over = match.is_over
        recorded = counts.get(match.pk)
        if recorded is not None and allowance is not None:
            allowance = allowances.in_force(allowance, lambda m=match: match_state(_with_records(m)), match)
        rows.append({
            "match_id": match.pk,
            "table": match.table,
            "ns": str(match.ns or ""),   # a side still to be decided: named in the reader's language (_named)
            "ew": str(match.ew or ""),
            "ns_source": match.ns_source or "",
            "ew_source": match.ew_source or "",
            "ns_level": match.ns_level,
            "ew_level": match.ew_level,
            "status": match.status,
            "playing": bool(match.ns_id and match.ew_id) and not over,
            "ended": over,
            "winner": match.winner_side,
            "winner_name": str(match.ns if match.winner_side == "NS" else match.ew) if match.winner_id else "",
            "recorded": recorded,
            "hand_in_play": allowance.hand_in_play if allowance else None,
            "last_hand": allowance.last_hand if allowance else None,
            "hands_left": 0 if over else (clocks.hands_left(recorded or 0, allowance.last_hand) if allowance else None),
            "extra_seconds": clocks.table_extra_seconds(marks, match.pk),
        })
    return rows


def _recorded_key(match) -> str:
    """What a table's hands recorded are cached under: the match's last change (every write of hands or
    rulings settles the match, which moves ``changed_at``: :meth:`tournament.models.Match.save`) and its
    kept state's version (the last hand and ruling it holds; a row written anywhere else drops it)."""
    snapshot = snapshots.version_of(match)
    return f"clock:display:recorded:{match.pk}:{match.changed_at.isoformat()}:{snapshot}"


def _hands_recorded(matches) -> dict:
    """{match id: hands recorded} of the matches with both entrants (a match that cannot be replayed is left
    out, logged): from the cache per table, the others from their engine state (then cached)."""
    playable = [m for m in matches if m.ns_id and m.ew_id]
    keys = {_recorded_key(m): m for m in playable}
    cached = cache.get_many(list(keys))
    counts = {keys[key].pk: value for key, value in cached.items()}
    fresh = {}
    for match in _with_records_many([m for key, m in keys.items() if key not in cached]):
        try:
            counts[match.pk] = match_state(match).hand_count
        except ValueError:
            log.warning("cannot replay match %s", match.pk, exc_info=True)
            continue
        fresh[_recorded_key(match)] = counts[match.pk]
    if fresh:
        cache.set_many(fresh, RECORDED_CACHE_SECONDS)
    return counts


def _with_records_many(matches) -> list:
    """The matches read again with what :func:`match_state` reads: the kept state, whether there are hands
    or rulings to replay, the process's rule profile."""
    if not matches:
        return []
    fresh = list(Match.objects.filter(pk__in=[m.pk for m in matches]).select_related("ns", "ew", "engine_snapshot")
                 .annotate(has_hands=Exists(Hand.objects.filter(match_id=OuterRef("pk"))),
                           has_rulings=Exists(Ruling.objects.filter(match_id=OuterRef("pk")))))
    for match in fresh:
        match.profile = shared_version(match.profile_id)
    return fresh


def _with_records(match):
    return _with_records_many([match])[0]


def match_state(match):
    """The match's engine state: its kept state (:mod:`tournament.records.snapshots`, the replay as of its last write),
    else a replay of its hands and rulings (none to read when the row's ``has_hands`` and ``has_rulings``
    say so). Reading the kept states of a round's 64 tables takes a few ms, replaying them 250-450 ms."""
    kept = snapshots.kept(match)
    if kept is not None:
        return kept.state
    if not match.has_hands and not match.has_rulings:
        return match_replay(match, entries=[], hands=[]).state
    return match_replay(match).state


def round_overview(rnd) -> list:
    """The chief referee's view of every table: hands recorded, hands left, ended, winner, extra time."""
    rnd = round_with_event(rnd)
    return [_named(row) for row in _table_rows(_round_matches(rnd.pk), marks_of(rnd.pk))]


def _named(row) -> dict:
    """The row with a side still to be decided named in words ("R2-M1 胜者"), never its stored code: the
    shared data keeps the code, each reader gets the words of its language."""
    return {**row, "ns": row["ns"] or describe_source(row["ns_source"]),
            "ew": row["ew"] or describe_source(row["ew_source"])}

def display_data(round_id) -> dict | None:
    """Everything the displays of a round share, from the cache. None: no such round.

    On a miss one poll rebuilds it (a short cache lock) while the others keep serving the previous
    copy, so hundreds of displays polling right after a recorded hand do not all rebuild at once. A copy
    built before a change of the round itself (its clock, its closure: ``cache.invalidate`` moves the round's
    generation) is never served: the poll then rebuilds, so no display says "closed" after a reopening, or
    the round's clock still running after its closure, while the others rebuild. After a
    write that moved only tables (:func:`tournament.competition.display_cache.tables_changed`) the rebuild reads those
    tables again and keeps the other rows of the previous copy (:func:`build_display_data`).
    """
    key = display_key(round_id)
    found = cache.get_many([key, generation_key(round_id)])
    data, generation = found.get(key), found.get(generation_key(round_id)) or 0
    if data is not None and data.get("generation", 0) == generation:
        return data
    rebuilding = cache.add(f"{key}:rebuilding", 1, 10)
    if not rebuilding:
        stale = cache.get(f"{key}:stale")
        if stale is not None and stale.get("generation", 0) == generation:   # only tables moved since: served
            return stale
    try:
        whole = cache.get(whole_key(round_id)) is not None
        cache.delete(whole_key(round_id))   # taken before reading: a round change from now on sets it again
        stale = cache.get(f"{key}:stale")
        previous = None if whole or stale is None or stale.get("generation", 0) != generation else stale
        data = build_display_data(round_id, previous=previous)
        if data is not None:
            data["generation"] = generation   # read before the database: a change since makes it stale
            cache.set_many({key: data, f"{key}:stale": data}, DISPLAY_CACHE_SECONDS)
    finally:
        if rebuilding:
            cache.delete(f"{key}:rebuilding")
    return data


def build_display_data(round_id, previous=None) -> dict | None:
    """The shared display data straight from the database (plain values, ready for the cache).

    ``previous``: the copy built last, when only tables changed since (their Match rows moved their
    ``changed_at``): the tables changed since it was built (less :data:`IN_FLIGHT`, for a write that
    committed after it) are read again and the others' rows kept; a copy older than
    :data:`DISPLAY_CACHE_SECONDS` is not used (the bound on a writer that moved a table without saying so).
    """
    now = clock.now()
    rnd = Round.objects.select_related("stage__event__profile").filter(pk=round_id).first()
    if rnd is None:
        return None
    event = rnd.stage.event
    try:
        rule = clock_rule(rnd)
    except ValueError as exc:
        rule, rule_error = None, str(exc)
    else:
        rule_error = ""
    marks = marks_of(round_id)
    firings = dict(ClockFiring.objects.filter(round_id=round_id).values_list("kind", "fired_at"))
    clock_started = any(m.kind == clocks.START for m in marks)
    whole_at = _whole_at(previous, now)
    if whole_at is None:
        matches = _round_matches(round_id)
        tables = _table_rows(matches, marks)
        begun = matches
        whole_at = now.isoformat()
        byes = _byes(round_id)
    else:
        changed = _round_matches(round_id, changed_since=dt.datetime.fromisoformat(previous["as_of"]) - IN_FLIGHT)
        fresh = {row["match_id"]: row for row in _table_rows(changed, marks)}
        kept = [row for row in previous["tables"] if row["match_id"] not in fresh]
        tables = sorted([*kept, *fresh.values()], key=table_order)
        begun = [*changed, *([_Begun()] if previous["round_status"] == rounds.IN_PROGRESS else [])]
        byes = previous["byes"] if "byes" in previous else _byes(round_id)   # a round's byes change with its draw only
    status = rounds.round_status(rnd, clock_started=clock_started, matches=begun)
    return {
        "as_of": now.isoformat(),
        "whole_at": whole_at,
        "round_status": status,
        "clock_started": clock_started,
        "round": {"id": rnd.pk, "name": str(rnd), "event_slug": event.slug, "event_name": event.name,
                  "published": event.published},
        "closed_at": _iso(rnd.results_published_at),
        "rule": None if rule is None else {
            "match_seconds": rule.match_seconds, "announce_before_seconds": rule.announce_before_seconds,
            "hands_after": rule.hands_after, "hand_in_play_counts": rule.hand_in_play_counts},
        "rule_error": rule_error,
        "marks": [(m.kind, m.at, m.seconds, m.table) for m in marks],
        "firings": firings,
        "tables": tables,
        "byes": byes,
    }


class _Begun:
    """Stands for the tables of a round already in progress (a round that began stays begun)."""

    started_at = True
    status = None


def _whole_at(previous, now):
    """When ``previous`` was last read whole, if it may still be built on (else None: read every table)."""
    if not previous or "whole_at" not in previous:
        return None
    whole_at = previous["whole_at"]
    if now - dt.datetime.fromisoformat(whole_at) > dt.timedelta(seconds=DISPLAY_CACHE_SECONDS):
        return None
    return whole_at


def _iso(value):
    return value.isoformat(timespec="milliseconds") if value is not None else None


def banner_text(rule) -> str:
    """The announcement banner: what every table must do now."""
    if rule["hand_in_play_counts"]:
        return _("Announcement: including the hand in play, every table plays %(n)s more hand(s).") % {
            "n": rule["hands_after"]}
    return _("Announcement: the hand in play does not count; every table then plays %(n)s more hand(s).") % {
        "n": rule["hands_after"]}


CLOSED = "closed"   # the clock's status once the round is closed (its results published)


def _with_states(data, tables) -> list:
    """The rows with what each table shows (``rounds.table_status``: never ahead of its round)."""
    status, started = data.get("round_status", rounds.NOT_STARTED), data.get("clock_started", False)
    return [{**_named(row), "state": rounds.table_status(status, clock_started=started, over=row["ended"],
                                                         begun=bool(row["recorded"]) or row["status"] in Match.PLAYED)}
            for row in tables]


def live_clock(data, now=None) -> dict:
    """The JSON a display polls: the shared data read at ``now`` (remaining time, per-table ends).

    ``round_status`` is the round's one status (:func:`tournament.competition.rounds.round_status`); the
    clock's own ``status`` says where the hall clock stands. A round played without its clock ever starting
    is in progress with the clock not started: the displays then show the round's status, not a full
    countdown."""
    now = now or clock.now()
    base = {"server_now": _iso(now), "round": data["round"], "rule_error": data["rule_error"],
            "round_status": data.get("round_status", rounds.NOT_STARTED), "byes": data.get("byes", [])}
    if data.get("closed_at"):
        # the round's one status (tournament.competition.rounds.round_status): closed by the chief, the clock
        # stops and every display shows the round's results; no table's time is shown (none is "time up": the
        # round may close with an hour left)
        tables = [{**row, "remaining_seconds": None, "ends_at": None} for row in _with_states(data, data["tables"])]
        return {**base, "round_status": rounds.CLOSED, "status": CLOSED, "closed_at": data["closed_at"],
                "tables": tables, "announced": False, "banner": "", "time_up": True, "remaining_seconds": None,
                "ends_at": None, "announce_at": None, "length_seconds": None}
    if data["rule"] is None:
        return {**base, "status": clocks.NOT_STARTED, "tables": _with_states(data, data["tables"]),
                "announced": False, "banner": "", "time_up": False, "remaining_seconds": None, "ends_at": None,
                "announce_at": None, "length_seconds": None}
    rule = clocks.ClockRule(**data["rule"])
    marks = [mark(*m) for m in data["marks"]]
    hall = clocks.read(rule, marks, now)
    announced_at = data["firings"].get("announce")
    tables = []
    for row in _with_states(data, data["tables"]):
        mine = clocks.read(rule, marks, now, table=row["match_id"]) if row["extra_seconds"] else hall
        tables.append({**row, "remaining_seconds": round(mine.remaining, 3), "ends_at": _iso(mine.ends_at)})
    return {
        **base,
        "status": hall.status,
        "length_seconds": hall.length,
        "remaining_seconds": round(hall.remaining, 3),
        "remaining_text": clocks.format_remaining(hall.remaining),
        "ends_at": _iso(hall.ends_at),
        "announce_at": _iso(hall.announce_at),
        "announced": announced_at is not None,
        "announced_at": _iso(announced_at),
        "time_up": "end" in data["firings"] or hall.end_due,
        "banner": banner_text(data["rule"]) if announced_at is not None else "",
        "hands_after": rule.hands_after,
        "tables": tables,
    }


def live_tables(slug, round_ids, match_ids=None) -> dict:
    """The tables of the event's rounds ``round_ids`` (other events' rounds are left out), only those of
    ``match_ids`` when given: {"published": bool, "tables": {match id: {...}}}, from the shared display data."""
    wanted = None if match_ids is None else set(match_ids)
    tables, published = {}, True
    for round_id in round_ids:
        data = display_data(round_id)
        if data is None or data["round"]["event_slug"] != slug:
            continue
        published = published and data["round"]["published"]
        for row in data["tables"]:
            if wanted is None or row["match_id"] in wanted:
                tables[str(row["match_id"])] = {name: row[name] for name in LIVE_FIELDS}
    return {"published": published, "tables": tables}
