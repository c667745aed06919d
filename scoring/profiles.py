"""Rule profiles: load, validate and precompute the data files in ``fixtures/profiles/``.

Pure module (no Django). A profile file holds every number of a rule document (level ladder,
level table, must-play levels, bottom multipliers, J/A bottom-capture rules, rotation, timing,
standings, format hints and the sanction table); the engine in :mod:`scoring.engine` reads only
the precomputed :class:`Profile` built here, so no rule number lives in code.

Public API:
    load_profile(slug, choices=None) -> Profile
    profile_from_dict(data, source="<dict>", choices=None) -> Profile
    validate_profile_dict(data, source) -> dict   (normalised copy; raises ProfileError)
    known_profiles() -> list[str]
The schema and its checks live in :mod:`scoring.profile_schema`, the organiser choices in
:mod:`scoring.profile_choices` (both re-exported here).

Organiser choices: a profile names the readings it had to choose (``organiser_defaults`` entries with
``choice``, ``clause``, ``readings`` and ``default``); ``choices={"name": "reading"}`` (or the dict's own
``choices`` key, which is how a stored version keeps them) builds the profile with those readings' values.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from common.errors import UserError, gettext_noop

from .profile_choices import check_picks, choice_specs, patch, validate_profile_dict
from .profile_schema import (
    ALL_LEVELS,
    AT_TAKEOVER,
    CHOICE_SPEC,
    OPTIONAL_TOP,
    POINTS_MAX,
    POINTS_MIN,
    ROLES,
    ROTATIONS,
    SCHEMA,
    STAGE_KINDS,
    TIE_BREAKS,
    TIME_UP_RULES,
    ProfileError,
)

__all__ = ["ALL_LEVELS", "AT_TAKEOVER", "CHOICE_SPEC", "OPTIONAL_TOP", "POINTS_MAX", "POINTS_MIN", "ROLES",
           "ROTATIONS", "SCHEMA", "STAGE_KINDS", "TIE_BREAKS", "TIME_UP_RULES", "PROFILE_DIR", "Announce",
           "Profile", "ProfileError", "RankCapture", "known_profiles", "load_profile", "profile_from_dict",
           "validate_profile_dict", "max_bottom_points"]

PROFILE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "profiles"
#: Cards per deck worth 10 (four K, four 10) and worth 5 (four 5).
TENS_PER_DECK, FIVES_PER_DECK = 8, 4

# --------------------------------------------------------------------------------------------
# The precomputed profile object
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RankCapture:
    """A J/A bottom-capture rule, with levels as ladder indexes."""
    level: int
    rank: str
    restart: bool            # True: outcome "restart"; False: "takeover"
    min_points: int | None
    drop_main: int
    drop_other: int
    waive_must_play: bool
    policy_under: int | None
    policy_return: int | None


@dataclass(frozen=True, slots=True)
class Announce:
    """End-of-round announcement: minutes before the end, hands still to play, hand in play counts, a
    redeal counts among those hands."""
    minutes_before_end: int
    hands_after: int
    hand_in_play_counts: bool
    redeals_count: bool


@dataclass(frozen=True, slots=True, eq=False)
class Profile:
    """A validated rule profile with lookups precomputed for the engine's hot loop.

    ``data`` is the normalised dict with the picked readings applied and the picks under ``choices``
    (what the DB stores; reading it again gives the same profile); ``sanctions`` the raw sanction mapping.
    Levels are handled as indexes into ``ladder`` inside the engine.
    """
    slug: str
    name: str
    name_en: str
    source: dict
    data: dict
    sanctions: dict
    organiser_defaults: tuple
    ladder: tuple
    index: dict
    start: int
    top: int
    takeover_at: int
    clamp: tuple | None
    clamp_whole: bool              # the clamp bounds the whole score of a fined hand (bottom included)
    must_play: frozenset
    next_must: tuple          # per ladder index: the first must-play index above it, or -1
    give_back: bool
    award_leaves_must_play: bool   # a sanction's level award may leave the must-play level stood on
    award_give_back: bool          # levels an award cannot take come off the other side
    award_always_leaves: frozenset  # must-play level indexes an award leaves even so (000: 2)
    capture_counts_penalties: bool  # point penalties count toward a J/A drop's minimum (004 捉够80分)
    points_total: int              # card points in the decks (100 a deck)
    bottom_max: int                # the most points the bottom's cards can hold
    at_takeover_keeps: bool        # exactly takeover_at points: the declarers keep the stage, no level
    mult_single: int
    mult_pair: int
    tractor_base: int
    tractor_per_pair: int
    trump_only: bool
    throw_all_cards: tuple | None  # a throw's bottom factor (base, per card, per pair); None: its largest combination
    reverse_subtract: bool
    rank_captures: dict       # ladder index of the declarers' level -> RankCapture
    rotation_win: str
    rotation_lose: str
    rotation_no_trump: str | None  # who declares after a deal where nobody declared trump (None: not a hand)
    rebellion: bool                # the attackers may call 造反 (004 二.7): the stage is bid for anew
    match_minutes: int | None
    announce: Announce | None
    time_up: tuple
    standings: dict
    tie_break: tuple
    format: dict
    choices: dict             # organiser choice name -> the reading in force
    choice_specs: dict        # organiser choice name -> {choice, clause, default, readings}
    _table: tuple = field(repr=False)      # (takeover, levels) for POINTS_MIN..POINTS_MAX step 5
    _bands: tuple = field(repr=False)      # (defenders side, declarers side) for points off the table

    def level_index(self, level: Any, field_name: str = "level") -> int:
        """Ladder index of ``level`` ("2".."A"/"JOKER"; ints 2..10 accepted) or UserError naming the field."""
        try:
            return self.index[level]
        except (KeyError, TypeError):
            pass
        if isinstance(level, int) and not isinstance(level, bool) and str(level) in self.index:
            return self.index[str(level)]
        raise UserError(gettext_noop("Level %(level)r is not on this profile's ladder %(ladder)s."),
                        field=field_name, level=level, ladder=list(self.ladder))

    def result_for(self, points: int) -> tuple:
        """(defenders take over?, levels gained) for final defender points (a multiple of 5)."""
        i = (points - POINTS_MIN) // 5
        if 0 <= i < len(self._table):
            return self._table[i]
        return _band_result(self._bands, self.takeover_at, points)

    def to_dict(self) -> dict:
        """A deep copy of the normalised profile dict (for storing as JSON; the picks under ``choices``)."""
        return copy.deepcopy(self.data)

    def reading(self, name: str) -> str:
        """The reading in force for organiser choice ``name``."""
        return self.choices[name]


def _side_table(side: dict) -> tuple:
    bands = tuple(sorted((b["lo"], b["hi"], b["levels"]) for b in side["bands"]))
    every = side["beyond"]["every"] if side["beyond"] else None
    return bands, every


def _band_result(bands: tuple, takeover_at: int, points: int) -> tuple:
    """Look ``points`` up in the bands, extending them by ``beyond`` when outside."""
    up = points >= takeover_at
    rows, every = bands[0] if up else bands[1]
    for lo, hi, levels in rows:
        if lo <= points <= hi:
            return up, levels
    if up:
        lo, hi, levels = rows[-1]
        return up, levels + (points - hi - 5) // every + 1
    lo, hi, levels = rows[0]
    if every is None:
        raise UserError(gettext_noop("No band of the level table holds %(points)s points."),
                        field="defender_points", points=points)
    return up, levels + (lo - 5 - points) // every + 1


def max_bottom_points(decks: int, bottom: int) -> int:
    """The most points ``bottom`` cards can hold with ``decks`` decks: tens first, then fives."""
    tens = min(bottom, TENS_PER_DECK * decks)
    fives = min(bottom - tens, FIVES_PER_DECK * decks)
    return 10 * tens + 5 * fives


def profile_from_dict(data: Any, source: str = "<dict>", choices: dict | None = None) -> Profile:
    """Validate ``data`` and build the precomputed :class:`Profile`.

    ``choices`` ({choice name: reading}) override the organiser choices' defaults and the picks the
    dict itself holds under ``choices``.
    """
    base = validate_profile_dict(data, source)
    specs = choice_specs(base)
    # explicit picks always apply (a default picked again restores the file's value in an edited copy)
    picks = check_picks({**base["choices"], **(choices or {})}, specs, source)
    base["choices"] = picks
    d = patch(base, picks, specs, source) if picks else base
    ladder = tuple(d["ladder"]["levels"])
    index = {lv: i for i, lv in enumerate(ladder)}
    must = frozenset(index[x] for x in d["must_play"]["levels"])
    next_must = tuple(min((m for m in must if m > i), default=-1) for i in range(len(ladder)))
    s = d["scoring"]
    bands = (_side_table(s["defenders"]), _side_table(s["declarers"]))
    clamp = s["clamp_before_bottom"]
    lowest_needed = clamp["min"] if clamp else POINTS_MIN
    keeps = s["at_takeover"] == "declarers_keep"
    table = tuple(
        ((False, 0) if keeps and p == s["takeover_at"] else _band_result(bands, s["takeover_at"], p))
        if p >= lowest_needed else None
        for p in range(POINTS_MIN, POINTS_MAX + 5, 5)
    )
    b, t = d["bottom"], d["timing"]
    captures = {}
    for rc in d["rank_captures"]:
        pol = rc["policy"]
        captures[index[rc["level"]]] = RankCapture(
            level=index[rc["level"]], rank=rc["rank"], restart=rc["outcome"] == "restart",
            min_points=rc["min_points"], drop_main=index[rc["drop_to_main"]],
            drop_other=index[rc["drop_to_other"]], waive_must_play=rc["waive_must_play"],
            policy_under=pol["under"] if pol else None,
            policy_return=index[pol["return_to"]] if pol else None,
        )
    return Profile(
        slug=d["slug"], name=d["name"], name_en=d["name_en"], source=d["source"], data=d,
        sanctions=d["sanctions"], organiser_defaults=tuple(d["organiser_defaults"]),
        ladder=ladder, index=index, start=index[d["ladder"]["start"]], top=len(ladder) - 1,
        takeover_at=s["takeover_at"], clamp=(clamp["min"], clamp["max"]) if clamp else None,
        clamp_whole=s["clamp_scope"] == "whole_score",
        must_play=must, next_must=next_must, give_back=d["must_play"]["give_back"],
        award_leaves_must_play=d["must_play"]["awards"]["leave_current"],
        award_give_back=d["must_play"]["awards"]["give_back"],
        award_always_leaves=frozenset(index[lv] for lv in d["must_play"]["awards"]["always_leave"]),
        capture_counts_penalties=s["capture_counts_penalties"],
        points_total=100 * d["cards"]["decks"],
        bottom_max=max_bottom_points(d["cards"]["decks"], d["cards"]["bottom"]),
        at_takeover_keeps=keeps,
        mult_single=b["single"], mult_pair=b["pair"], tractor_base=b["tractor_base"],
        tractor_per_pair=b["tractor_per_pair"], trump_only=b["trump_only"],
        throw_all_cards=None if b["throw"] is None else (b["throw"]["base"], b["throw"]["per_card"],
                                                         b["throw"]["per_pair"]),
        reverse_subtract=b["reverse_capture"] == "subtract", rank_captures=captures,
        rotation_win=d["rotation"]["declarers_win"], rotation_lose=d["rotation"]["declarers_lose"],
        rotation_no_trump=d["rotation"]["no_trump_declared"], rebellion=d["rotation"]["rebellion"],
        match_minutes=t["match_minutes"], announce=Announce(**t["announce"]) if t["announce"] else None,
        time_up=tuple(t["time_up"]), standings=d["standings"],
        tie_break=tuple(d["standings"]["tie_break"]), format=d["format"],
        choices={name: picks.get(name, spec["default"]) for name, spec in specs.items()}, choice_specs=specs,
        _table=table, _bands=bands,
    )


def known_profiles() -> list[str]:
    """Slugs of the profile files shipped in ``fixtures/profiles/``."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.yaml"))


def load_profile(slug: str, choices: dict | None = None) -> Profile:
    """Load and validate ``fixtures/profiles/<slug>.yaml`` (cached; the object is immutable).

    ``choices`` ({choice name: reading}) pick other readings than the file's defaults.
    """
    return _load(slug, tuple(sorted((choices or {}).items())))


@lru_cache(maxsize=None)
def _load(slug: str, choices: tuple) -> Profile:
    known = known_profiles()
    if slug not in known:
        raise UserError(gettext_noop("Unknown rule profile %(slug)r; the profiles are: %(known)s."),
                        field="slug", slug=slug, known=", ".join(known))
    path = PROFILE_DIR / f"{slug}.yaml"
    with path.open(encoding="utf-8") as fh:
        try:
            data = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError as exc:
            raise ProfileError(path.name, "", gettext_noop("invalid YAML: %(error)s"), error=str(exc)) from exc
    profile = profile_from_dict(data, source=path.name, choices=dict(choices))
    if profile.slug != slug:
        raise ProfileError(path.name, "slug", gettext_noop("slug %(slug)r does not match the file name"),
                           slug=profile.slug)
    return profile


load_profile.cache_clear = _load.cache_clear
load_profile.cache_info = _load.cache_info
