"""Database side of scoring: rule-profile versions, and the hands recorded at a table.

Profiles: :func:`sync_profiles` loads ``fixtures/profiles/`` into versioned RuleProfile rows;
:func:`engine_profile` rebuilds the engine's Profile from a stored version (cached in-process).

Hands (append-only :class:`~scoring.models.Hand` rows; a correction is a new version):
    current_hands(match) -> list[Hand]              the latest version of every hand, by number
    load_replay(match, *, hands=None, adjust=None) -> Replay   hands + rulings' adjustments + state, once
    match_state(match, adjustments=None) -> MatchState   the engine state replayed from them
    record_hand(match, user, *, number, trump, defender_points, declarer=None, bottom_points=0,
                last_trick=None, reclaim=False) -> Hand
    correct_last_hand(match, user, *, number, ...same fields...) -> Hand
    record_hand_and_replay / correct_last_hand_and_replay(...same...) -> HandWritten(hand, match, replay)
    hand_history(match) -> list[Hand]               every version, superseded ones included
    refresh_match(match, *, reopen=False, replayed=None) -> MatchState   recompute the Match's derived fields
    can_record(user, match) -> bool; can_view(user, match) -> bool

Levels, declarer and winner are never typed in: after every write the whole match is replayed with
the engine and the Match row's derived fields (ns_level, ew_level, winner, status) are updated in
the same transaction. Writers lock the Match row (``select_for_update``) and the unique constraints
on Hand catch any race left; both become :class:`HandConflict` (HTTP 409).

Hook for the rulings layer
--------------------------
Every replay calls ``rulings.services.adjustments_for(match)`` (imported lazily: rulings imports this
module): it reads the rulings once and returns ``hands -> adjustments`` (see :func:`rulings_hook`),
each ``{hand_number: adjustment}`` with::

    {"penalty_points": int,        # signed, toward the defenders' total of that hand (default 0)
     "award": dict | None,         # kwargs for MatchState.award(...): the hand's outcome was decided
                                   # by a sanction; replaces the normal play (a recorded Hand row for
                                   # that number is then kept for the record but not played)
     "forfeit": dict | None}       # kwargs for MatchState.forfeit_match(...), applied after the hand

Award and forfeit numbers count as hands: the next hand number is one more than the highest
number played or decided by a ruling. Callers may pass ``adjustments`` explicitly (``{}`` for none). After a ruling changes
a match, the rulings layer calls :func:`refresh_match` inside its transaction.

The end of a match by time (announcement, last allowed hand) belongs to the clocks layer; here a
hand is refused once ``match.is_over``.
"""
from __future__ import annotations

import copy
import threading
from dataclasses import dataclass
from pathlib import Path

import yaml
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from config import clock
from config.db import lock_row
from tournament import clock_services

from .engine import LastTrick, MatchState
from .models import Hand, RuleProfile
from .profiles import profile_from_dict

PROFILE_DIR = Path(settings.BASE_DIR) / "fixtures" / "profiles"
LAST_TRICK_KEYS = ("by", "shape", "pairs", "trump", "rank", "main_rank", "buried_by")


# --------------------------------------------------------------------------------------------
# Rule profiles
# --------------------------------------------------------------------------------------------
def read_profile_files():
    """Every profile file under fixtures/profiles/, as {slug: (data, file name)}."""
    from .profiles import validate_profile_dict

    found = {}
    for path in sorted(PROFILE_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        validate_profile_dict(data, path.name)
        found[data["slug"]] = (data, path.name)
    return found


@transaction.atomic
def sync_profiles():
    """Store each profile file as a RuleProfile version; a changed file becomes a new version.

    Returns the list of RuleProfile rows created. Existing versions are never modified, so events
    that froze an older version keep it.
    """
    created = []
    for slug, (data, filename) in read_profile_files().items():
        latest = RuleProfile.objects.select_for_update().filter(slug=slug).order_by("-version").first()
        if latest is not None and latest.data == data:
            continue
        created.append(
            RuleProfile.objects.create(
                slug=slug,
                version=(latest.version + 1) if latest else 1,
                name=data["name"],
                data=data,
                source=f"fixtures/profiles/{filename}",
                based_on=latest,
            )
        )
    return created


def latest_profile(slug):
    """The newest stored version of a profile (loading the files first if none is stored)."""
    profile = RuleProfile.objects.filter(slug=slug).order_by("-version").first()
    if profile is None:
        sync_profiles()
        profile = RuleProfile.objects.filter(slug=slug).order_by("-version").first()
    if profile is None:
        raise ValueError(f"未知的规则配置：{slug} (unknown rule profile)")
    return profile


_profile_cache: dict = {}
_profile_lock = threading.Lock()


def engine_profile(rule_profile: RuleProfile):
    """The engine Profile built from a stored version's JSON, cached per row while its data is unchanged."""
    cached = _profile_cache.get(rule_profile.pk)
    if cached is not None and cached[0] == rule_profile.data:
        return cached[1]
    profile = profile_from_dict(rule_profile.data, f"{rule_profile.slug} v{rule_profile.version}")
    with _profile_lock:
        _profile_cache[rule_profile.pk] = (copy.deepcopy(rule_profile.data), profile)
    return profile


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------
class HandConflict(Exception):
    """The match changed under the request (the number is taken, the match is over): HTTP 409."""


class HandRefused(PermissionDenied):
    """The user may not record hands at this table: HTTP 403."""


class HandNotAllowed(ValueError):
    """The hand asked for cannot be corrected (only the last one can): HTTP 400, naming the field."""


# --------------------------------------------------------------------------------------------
# Permissions
# --------------------------------------------------------------------------------------------
def can_record(user, match) -> bool:
    """Chief referees at every table; a table referee only at the matches they are assigned to, and
    only while the match's round is current (its results not yet published)."""
    if not user.is_authenticated:
        return False
    if user.has_perm("tournament.rule_all_tables"):
        return True
    return (user.has_perm("tournament.record_hands") and match.round.results_published_at is None
            and _referees(match, user))


def _referees(match, user) -> bool:
    """Is ``user`` assigned to ``match``? Read with the lock (``writer_assigned``) when the lock asked."""
    if getattr(match, "writer_id", None) == user.pk:
        return match.writer_assigned
    return match.referees.filter(pk=user.pk).exists()


def can_view(user, match) -> bool:
    """Staff see every match; anonymous visitors and others only the matches of published events."""
    from tournament.visibility import is_staff_member

    return match.round.stage.event.published or is_staff_member(user)  # published: no query for the user


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------
def current_hands(match) -> list:
    """The current (not superseded) version of every hand of the match, in hand order."""
    return list(
        Hand.objects.filter(match=match, superseded_by__isnull=True)
        .select_related("recorded_by").order_by("number")
    )


def hand_history(match) -> list:
    """Every version of every hand, oldest first per number, with ``superseded_by`` loaded (who/when)."""
    return list(
        Hand.objects.filter(match=match)
        .select_related("recorded_by", "superseded_by", "superseded_by__recorded_by")
        .order_by("number", "version")
    )


def rulings_hook(match):
    """A function ``hands -> {number: adjustment}`` for ``match``, reading the match's rulings once.

    The rulings layer's ``adjustments_for(match)``: the rulings are replayed once and the adjustments
    recomputed for any list of current hands (e.g. before and after a write). Imported here, lazily,
    because rulings.services imports this module.
    """
    from rulings.services import adjustments_for

    adjust = adjustments_for(match)
    return lambda hands=None: dict(adjust(hands) or {})


def rulings_adjustments(match, hands=None) -> dict:
    """The rulings layer's per-hand adjustments (``hands``: the current hands when already read)."""
    return rulings_hook(match)(hands)


def last_trick_from(data, trump):
    """Build the engine's LastTrick from the stored JSON (None when not entered); no-trump makes every J main."""
    if not data:
        return None
    unknown = set(data) - set(LAST_TRICK_KEYS)
    if unknown:
        raise ValueError(f"last_trick: 未知的项 {sorted(unknown)}（unknown keys）")
    kwargs = {key: data[key] for key in LAST_TRICK_KEYS if data.get(key) is not None}
    if "by" not in kwargs or "shape" not in kwargs:
        raise ValueError("last_trick: 须给出 by 和 shape（by and shape are required）")
    return LastTrick(**kwargs, no_trump=trump == Hand.Trump.NO_TRUMP)


def _play(state, hand_inputs, adjustment):
    """Apply one hand (a Hand row or a dict of its inputs) to ``state``, honouring a ruling's adjustment."""
    fresh = isinstance(hand_inputs, dict)   # inputs not stored yet: a given declarer is checked
    get = hand_inputs.get if fresh else lambda key, default=None: getattr(hand_inputs, key, default)
    award = adjustment.get("award")
    if award:
        state = state.award(**award)
    elif hand_inputs is not None:
        state = state.play(
            defender_points=get("defender_points"),
            declarer=get("declarer_seat") if fresh or state.declarer is None else None,
            bottom_points=get("bottom_points", 0),
            last_trick=last_trick_from(get("last_trick"), get("trump")),
            penalty_points=adjustment.get("penalty_points", 0),
            reclaim=bool(get("reclaim", False)),
        )
    if adjustment.get("forfeit"):
        state = state.forfeit_match(**adjustment["forfeit"])
    return state


def ruled_numbers(adjustments) -> set:
    """Hand numbers a ruling decided without play (an award or a forfeit): they count as hands."""
    return {n for n, adj in adjustments.items() if adj.get("award") or adj.get("forfeit")}


def replay(match, hands, adjustments, extra=None):
    """The engine state after ``hands`` (+ ``extra``: {number: inputs} not stored yet) and the awards."""
    rows = {hand.number: hand for hand in hands}
    rows.update(extra or {})
    numbers = sorted(set(rows) | ruled_numbers(adjustments))
    state = MatchState.new(engine_profile(match.profile))
    for number in numbers:
        state = _play(state, rows.get(number), adjustments.get(number, {}))
    return state


@dataclass(frozen=True)
class Replay:
    """A match replayed once: its current hands, the rulings' adjustments and the engine state from both.

    Computed once per request and passed along (to the write, the derived fields and the API answer)
    so nothing replays the match twice.
    """

    hands: list
    adjustments: dict
    state: MatchState

    @property
    def numbers(self) -> list:
        """Every hand number played or decided by a ruling, in order."""
        return sorted({h.number for h in self.hands} | ruled_numbers(self.adjustments))

    @property
    def next_number(self) -> int:
        """One more than the highest hand number played or decided by a ruling."""
        return max(self.numbers, default=0) + 1


def load_replay(match, *, hands=None, adjust=None) -> Replay:
    """Read the current hands (unless given) and replay them with the rulings' adjustments.

    ``adjust``: a function ``hands -> adjustments`` (default: :func:`rulings_hook`), or ``{}`` for none.
    """
    hands = current_hands(match) if hands is None else hands
    adjust = rulings_hook(match) if adjust is None else adjust
    adjustments = adjust(hands) if callable(adjust) else adjust
    return Replay(hands, adjustments, replay(match, hands, adjustments))


def match_state(match, adjustments=None):
    """The engine MatchState replayed from the current hands (and the rulings' adjustments)."""
    return load_replay(match, adjust=adjustments).state


def next_hand_number(match, hands=None, adjustments=None) -> int:
    """One more than the highest hand number played or decided by a ruling."""
    hands = current_hands(match) if hands is None else hands
    adjustments = rulings_adjustments(match, hands) if adjustments is None else adjustments
    return max({h.number for h in hands} | ruled_numbers(adjustments), default=0) + 1


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------
def _lock_match(match, writer=None):
    """Lock the Match row for this transaction and return it fresh.

    ``writer``: the user about to write; whether they referee the match is read with the row
    (``writer_assigned``), and so is the clock state :func:`tournament.clock_services.hands_left` needs.
    The lock also serialises writers on SQLite (:func:`config.db.lock_row`).
    """
    from tournament.models import Match

    queryset = clock_services.with_clock_state(Match.objects.select_related("profile", "ns", "ew", "round"))
    if writer is not None and writer.is_authenticated:
        assigned = Match.referees.through.objects.filter(match_id=OuterRef("pk"), user_id=writer.pk)
        queryset = queryset.annotate(writer_assigned=Exists(assigned))
    locked = lock_row(queryset, match.pk)
    if hasattr(locked, "writer_assigned"):
        locked.writer_id = writer.pk
    return locked


def _check_writer(match, user):
    if not can_record(user, match):
        raise HandRefused(_("Only this table's referees and the chief referees may record hands here."))


def _taken(number):
    """The 409 for a hand number somebody else recorded first."""
    return HandConflict(_("Hand %(number)s was already recorded, probably by another referee; reload the table.")
                        % {"number": number})


def _check_number(number, expected):
    """The submitted hand number must be the next one: lower is a conflict (409), higher a bad input."""
    if not isinstance(number, int) or isinstance(number, bool):
        raise ValueError(f"number: 副数应为整数，得到 {number!r}（number must be an integer）")
    if number < expected:
        raise _taken(number)
    if number > expected:
        raise ValueError(f"number: 下一副应为第{expected}副，不是第{number}副（out of sequence）")


def _hand_inputs(trump, defender_points, declarer=None, bottom_points=0, last_trick=None, reclaim=False):
    """The referee's inputs for one hand as a dict (the fields a Hand row stores)."""
    if trump not in Hand.Trump.values:
        raise ValueError(f"trump: 未知的主牌 {trump!r}，应为 {'/'.join(Hand.Trump.values)}（unknown trump）")
    if last_trick is not None and not isinstance(last_trick, dict):
        raise ValueError("last_trick: 应为对象（must be an object）")
    return {
        "trump": trump, "defender_points": defender_points, "declarer_seat": declarer,
        "bottom_points": bottom_points, "last_trick": dict(last_trick) if last_trick else None,
        "reclaim": bool(reclaim),
    }


def _store(match, user, number, inputs, state, adjustment, supersedes=None):
    """Create the Hand row from the inputs and the engine's result of that hand (the state's last)."""
    result = state.hands[-1]
    levels = state.levels
    hand = Hand.objects.create(
        match=match, number=number, supersedes=supersedes,
        version=supersedes.version + 1 if supersedes else 1,
        declarer_seat=result.declarer_seat or inputs["declarer_seat"] or "",
        trump=inputs["trump"], defender_points=inputs["defender_points"],
        bottom_points=inputs["bottom_points"], last_trick=inputs["last_trick"], reclaim=inputs["reclaim"],
        penalty_points=adjustment.get("penalty_points", 0),
        level_played=result.declarer_level_before, final_points=result.defender_points,
        declarer_keeps=result.declarer_keeps, ns_level=levels["NS"], ew_level=levels["EW"],
        next_declarer=result.next_declarer or "", match_won=result.match_won,
        explanation=list(result.explanation), recorded_by=user, recorded_at=clock.now(),
    )
    Hand.superseded_by.related.set_cached_value(hand, None)  # a new version is current: no query to ask
    return hand


def _apply_derived(match, state, reopen=False):
    """Write the replayed levels, winner and status onto the (locked) Match row."""
    from tournament.models import Match

    now = clock.now()
    match.ns_level, match.ew_level = state.levels["NS"], state.levels["EW"]
    fields = ["ns_level", "ew_level"]
    if state.winner is not None:
        match.winner = match.ns if state.winner == "NS" else match.ew
        match.status = Match.Status.FINISHED
        match.finished_at = match.finished_at or now
        fields += ["winner", "status", "finished_at"]
    elif reopen and match.status == Match.Status.FINISHED:
        match.winner, match.status, match.finished_at = None, Match.Status.PLAYING, None
        fields += ["winner", "status", "finished_at"]
    elif state.hand_count and match.status in (Match.Status.SCHEDULED, Match.Status.PENDING):
        match.status = Match.Status.PLAYING
        fields.append("status")
    if state.hand_count and match.started_at is None:
        match.started_at = now
        fields.append("started_at")
    match.save(update_fields=fields)
    clock_services.check_match_end(match, state=state)  # the last allowed hand ends the match
    round_id = match.round_id
    transaction.on_commit(lambda: clock_services.invalidate_display(round_id))


@dataclass(frozen=True)
class HandWritten:
    """A stored hand with what its write computed: the locked Match (derived fields written) and the
    match replayed after the write, so the caller answers without reading or replaying again."""

    hand: Hand
    match: object
    replay: Replay


def _replay_after(match, adjust, hands, adjustments, state):
    """The Replay once ``hands`` (the current hands after a write) are stored.

    The rulings' adjustments are recomputed for the new hands (a ruling may depend on the hand's
    declarer or score); the engine replays again only when they changed, else ``state`` stands.
    """
    after = adjust(hands)
    return Replay(hands, after, state if after == adjustments else replay(match, hands, after))


def record_hand(match, user, *, number, trump, defender_points, declarer=None, bottom_points=0,
                last_trick=None, reclaim=False) -> Hand:
    """Record the next hand of ``match`` and update the match's derived levels, winner and status.

    Raises HandRefused (user not allowed), HandConflict (``number`` already recorded), or
    ValueError naming the field (out of sequence, match over, bad input: the engine's messages).
    """
    return record_hand_and_replay(match, user, number=number, trump=trump, defender_points=defender_points,
                                  declarer=declarer, bottom_points=bottom_points, last_trick=last_trick,
                                  reclaim=reclaim).hand


def record_hand_and_replay(match, user, *, number, trump, defender_points, declarer=None, bottom_points=0,
                           last_trick=None, reclaim=False) -> HandWritten:
    """:func:`record_hand`, returning the stored hand with the locked match and the replay after it."""
    inputs = _hand_inputs(trump, defender_points, declarer, bottom_points, last_trick, reclaim)
    try:
        with transaction.atomic():
            match = _lock_match(match, writer=user)
            _check_writer(match, user)
            hands = current_hands(match)
            adjust = rulings_hook(match)
            adjustments = adjust(hands)
            _check_number(number, next_hand_number(match, hands, adjustments))
            if match.is_over:
                raise HandConflict(_("The match is over; no more hands can be recorded."))
            if clock_services.hands_left(match, recorded=number - 1) == 0:
                raise HandConflict(_("This table has played every hand allowed after the announcement."))
            state = replay(match, hands, adjustments, {number: inputs})
            hand = _store(match, user, number, inputs, state, adjustments.get(number, {}))
            after = _replay_after(match, adjust, [*hands, hand], adjustments, state)
            _apply_derived(match, after.state)  # a ruling waiting for this hand's score now applies
            return HandWritten(hand, match, after)
    except IntegrityError as exc:
        raise _taken(number) from exc


def correct_last_hand(match, user, *, number, trump, defender_points, declarer=None, bottom_points=0,
                      last_trick=None, reclaim=False) -> Hand:
    """Store a new version of the last hand (``number`` must be it) and replay the match.

    Refused for a match ended by walkover, forfeit or bye, and once the round's results are published.
    A correction may reopen a match that the corrected hand had won.
    """
    return correct_last_hand_and_replay(match, user, number=number, trump=trump, defender_points=defender_points,
                                        declarer=declarer, bottom_points=bottom_points, last_trick=last_trick,
                                        reclaim=reclaim).hand


def correct_last_hand_and_replay(match, user, *, number, trump, defender_points, declarer=None, bottom_points=0,
                                 last_trick=None, reclaim=False) -> HandWritten:
    """:func:`correct_last_hand`, returning the new version with the locked match and the replay after it."""
    from tournament.models import Match

    inputs = _hand_inputs(trump, defender_points, declarer, bottom_points, last_trick, reclaim)
    try:
        with transaction.atomic():
            match = _lock_match(match, writer=user)
            _check_writer(match, user)
            if match.status in (Match.Status.WALKOVER, Match.Status.FORFEIT, Match.Status.BYE) or \
                    match.round.results_published_at is not None:
                raise HandConflict(_("This match can no longer be corrected."))
            hands = current_hands(match)
            adjust = rulings_hook(match)
            adjustments = adjust(hands)
            if not hands or number != hands[-1].number:
                last = hands[-1].number if hands else 0
                if number < last:
                    raise HandNotAllowed(f"number: 只能更正最后一副（第{last}副），不是第{number}副"
                                         f"（only the last hand can be corrected）")
                raise HandConflict(_("Hand %(number)s is not the last recorded hand; reload the table.")
                                   % {"number": number})
            old = hands[-1]
            before = replay(match, hands, adjustments)
            if inputs["declarer_seat"] is None and number == 1:
                inputs["declarer_seat"] = old.declarer_seat
            state = replay(match, hands[:-1], adjustments, {number: inputs})
            hand = _store(match, user, number, inputs, state, adjustments.get(number, {}), supersedes=old)
            after = _replay_after(match, adjust, [*hands[:-1], hand], adjustments, state)
            _apply_derived(match, after.state, reopen=before.winner is not None)
            return HandWritten(hand, match, after)
    except IntegrityError as exc:
        raise HandConflict(_("Hand %(number)s was corrected by someone else at the same time; reload the table.")
                           % {"number": number}) from exc


def refresh_match(match, *, reopen=False, replayed=None):
    """Replay the match and rewrite its derived fields (for the rulings layer after a ruling).

    ``reopen=True``: a match marked finished whose replay no longer has a winner goes back to playing
    (say so only when the finish came from the hands or rulings, not from the clock). Returns the state.
    ``replayed``: a :class:`Replay` the caller computed while holding the lock on ``match`` (in the same
    transaction); its state is written on that very instance and nothing is read or locked again.
    """
    if replayed is not None:
        _apply_derived(match, replayed.state, reopen=reopen)
        return replayed.state
    with transaction.atomic():
        match = _lock_match(match)
        state = match_state(match)
        _apply_derived(match, state, reopen=reopen)
        return state
