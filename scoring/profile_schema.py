"""Profile files: the schema and the cross-field checks (pure; re-exported by :mod:`scoring.profiles`).

``validate_body(data, source)`` returns a normalised deep copy of a profile mapping or raises
:class:`ProfileError` naming the source, the key path and the fault; the organiser choices' readings are
checked by :mod:`scoring.profile_choices` (whose ``validate_profile_dict`` runs both).
"""
from __future__ import annotations

import copy
from typing import Any

from common.errors import UserError, gettext_noop

#: Every level name a ladder may use, in playing order.
ALL_LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER")
#: Lowest and highest defender points a hand can end with (penalties and a multiplied bottom included).
POINTS_MIN, POINTS_MAX = -200, 400

ROTATIONS = ("partner", "next", "same")
TIME_UP_RULES = ("higher_level", "on_stage")
TIE_BREAKS = ("points", "net_levels", "total_levels", "lot", "shared_place", "head_to_head", "buchholz")
FORFEIT_RULES = ("largest_margin", "recorded")
STAGE_KINDS = ("timed_matches", "single_elimination", "round_robin", "groups_round_robin",
               "qualifiers_round_robin", "swiss")
ROLES = ("chief_referee", "table_referee", "referee_group", "arbitration_group", "logistics_group")
AT_TAKEOVER = ("takeover", "declarers_keep")
CLAMP_SCOPES = ("whole_score", "before_bottom")
CHOICE_KEYS = ("choice", "clause", "default", "readings")


class ProfileError(UserError):
    """A profile file or dict is invalid: ``str()`` names the source, the key path and the fault."""

    def __init__(self, source: str, path: str, message: str, **params):
        self.source, self.path = source, path
        super().__init__(message, field=path or None, **params)

    @property
    def text(self) -> str:
        return f"{self.source}: {self.path or '<root>'}: {UserError.text.fget(self)}"

    def __reduce__(self):
        return (_rebuild, (self.source, self.path, self.message, self.params))


def _rebuild(source, path, message, params):
    return ProfileError(source, path, message, **params)


# --------------------------------------------------------------------------------------------
# Schema: a small declarative description of the file, checked by _check().
# Spec forms: "str" "int" "bool" "level" "points" ("enum", choices) ("list", spec)
#             ("map", {key: spec}) ("null", spec)  "any_map"  "default_entry"
#             ("optional", spec): a map's key that may be missing (kept only when given)
# --------------------------------------------------------------------------------------------
_BAND = ("map", {"lo": "points", "hi": "points", "levels": "int"})
_SIDE = ("map", {"bands": ("list", _BAND), "beyond": ("null", ("map", {"every": "points"}))})
_RANK_CAPTURE = ("map", {
    "level": "level", "rank": ("enum", ALL_LEVELS[:-1]), "outcome": ("enum", ("restart", "takeover")),
    "min_points": ("null", "points"), "drop_to_main": "level", "drop_to_other": "level",
    "waive_must_play": "bool",
    "policy": ("null", ("map", {"under": "points", "return_to": "level"})),
})
#: The English twin of a text (``label_en`` beside ``label``): what English pages show, the text when missing.
_ENGLISH = ("optional", "str")
_READING = ("map", {"label": "str", "label_en": _ENGLISH, "set": "any_map"})
CHOICE_SPEC = ("map", {"choice": "str", "clause": "str", "clause_en": _ENGLISH, "default": "str",
                       "readings": ("any_map_of", _READING)})
SCHEMA = ("map", {
    "slug": "str", "name": "str", "name_en": "str",
    "source": ("map", {"document": "str", "part": "str", "part_en": _ENGLISH, "clauses": "str"}),
    "organiser_defaults": ("list", "default_entry"),
    "cards": ("map", {"decks": "int", "bottom": "int"}),
    "ladder": ("map", {"levels": ("list", "level"), "start": "level"}),
    "scoring": ("map", {
        "takeover_at": "points",
        "at_takeover": ("enum", AT_TAKEOVER),
        "clamp_before_bottom": ("null", ("map", {"min": "points", "max": "points"})),
        # what the clamp bounds: the trick points + penalties before the bottom (before_bottom), or the
        # hand's whole score once a fine was applied, the bottom included (whole_score)
        "clamp_scope": ("enum", CLAMP_SCOPES),
        # do point penalties count toward a J/A drop's minimum points (004 四.5/四.6 捉够80分)?
        "capture_counts_penalties": "bool",
        "defenders": _SIDE, "declarers": _SIDE,
    }),
    "must_play": ("map", {"levels": ("list", "level"), "give_back": "bool",
                          # always_leave: must-play levels an award leaves even when leave_current is false
                          "awards": ("map", {"leave_current": "bool", "give_back": "bool",
                                             "always_leave": ("list", "level")})}),
    "bottom": ("map", {
        "single": "int", "pair": "int", "tractor_base": "int", "tractor_per_pair": "int",
        "trump_only": "bool", "reverse_capture": ("enum", ("none", "subtract")),
        # a throw (甩牌) winning the last trick: null = its largest combination counts; else all its cards,
        # factor base + per_card × cards + per_pair × pairs
        "throw": ("null", ("map", {"base": "int", "per_card": "int", "per_pair": "int"})),
    }),
    "rank_captures": ("list", _RANK_CAPTURE),
    "rotation": ("map", {"declarers_win": ("enum", ROTATIONS), "declarers_lose": ("enum", ROTATIONS),
                         "no_trump_declared": ("null", ("enum", ROTATIONS)),
                         # rebellion: the attackers may call 造反 (004 二.7): the deal is redone and both
                         # sides bid for the stage anew (MatchState.rebel)
                         "rebellion": "bool"}),
    "timing": ("map", {
        "match_minutes": ("null", "int"),
        # redeals_count: does a redeal (000 第五条, nobody declared trump) count among the hands after it?
        "announce": ("null", ("map", {"minutes_before_end": "int", "hands_after": "int",
                                      "hand_in_play_counts": "bool", "redeals_count": "bool"})),
        "time_up": ("list", ("enum", TIME_UP_RULES)),
    }),
    # forfeit_rule: the levels a forfeit or walkover counts for in net/total levels (no document writes
    # them): largest_margin = the group's largest played margin, recorded = the levels recorded with it
    "standings": ("map", {"win": "int", "loss": "int", "tie_break": ("list", ("enum", TIE_BREAKS)),
                          "forfeit_rule": ("enum", FORFEIT_RULES)}),
    "format": ("map", {
        "stages": ("list", ("enum", STAGE_KINDS)), "rank_all_of": ("null", "int"),
        "partners_by_lot": "bool", "seats_by_lot_on_request": "bool",
        "team": ("null", ("map", {"pairs": "int", "women_pairs": "int", "reserve_pairs": "int"})),
        # fourth_place: the award of the 4th place when a 3rd-place match was played (merit | third)
        "awards": ("null", ("map", {"champion": "int", "runner_up": "int", "third": "int",
                                    "merit": "int", "commemorative": "bool",
                                    "fourth_place": ("enum", ("merit", "third"))})),
        "roles": ("list", ("enum", ROLES)),
    }),
})
#: Top-level keys that may be missing (with their default). ``choices``: the organiser's picks.
OPTIONAL_TOP = {"sanctions": {}, "organiser_defaults": [], "choices": {}}
#: Optional top-level keys kept only when the file has them (their schema): the unit (team) standings of a
#: union meet, points per final place (1st, 2nd, ...), the best N pairs per unit that count (null: all),
#: and the bonus for each placed women's pair (see :mod:`tournament.engines.unit_standings`).
OPTIONAL_SECTIONS = {
    # offered: false = the event ranks no units (003 writes no unit scoring); about.note: what the page and
    # the printout say of the scale's source
    "unit_standings": ("map", {"points": ("list", "int"), "best_n": ("null", "int"), "women_bonus": "int",
                               "offered": ("optional", "bool"),
                               "about": ("optional", ("map", {"note": "str", "note_en": _ENGLISH}))}),
}
#: Keys added after profile versions were first stored: a stored version without them reads as it
#: did before they existed (key path → value). Files must still give them.
LATER_KEYS = {"cards": {"decks": 2, "bottom": 8}, "scoring.at_takeover": "takeover",
              "must_play.awards": {"leave_current": False, "give_back": True},
              "must_play.awards.always_leave": [],
              "rotation.no_trump_declared": None, "rotation.rebellion": False,
              "scoring.clamp_scope": "before_bottom",
              "scoring.capture_counts_penalties": True, "timing.announce.redeals_count": True,
              "standings.forfeit_rule": "largest_margin", "format.awards.fourth_place": "merit",
              "bottom.throw": None}


def _check(value: Any, spec: Any, path: str, source: str) -> Any:
    """Check ``value`` against ``spec`` and return a normalised copy (levels as strings)."""
    def fail(message: str, **params):
        raise ProfileError(source, path, message, **params)

    if spec == "any_map":
        if not isinstance(value, dict):
            fail(gettext_noop("must be a mapping"))
        return copy.deepcopy(value)
    if spec == "default_entry":
        return value if isinstance(value, str) and value.strip() else _check(value, CHOICE_SPEC, path, source)
    if spec in ("int", "points"):
        if not isinstance(value, int) or isinstance(value, bool):
            fail(gettext_noop("must be an integer, got %(value)r"), value=value)
        if spec == "points" and value % 5:
            fail(gettext_noop("points %(value)s are not a multiple of 5"), value=value)
        return value
    if spec == "bool":
        if not isinstance(value, bool):
            fail(gettext_noop("must be true or false, got %(value)r"), value=value)
        return value
    if spec == "str":
        if not isinstance(value, str) or not value.strip():
            fail(gettext_noop("must be non-empty text, got %(value)r"), value=value)
        return value
    if spec == "level":
        level = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if level not in ALL_LEVELS:
            fail(gettext_noop("%(value)r is not a level (2..10, J, Q, K, A, JOKER)"), value=value)
        return level
    kind = spec[0]
    if kind == "null":
        return None if value is None else _check(value, spec[1], path, source)
    if kind == "enum":
        if value not in spec[1]:
            fail(gettext_noop("%(value)r is not an allowed value %(allowed)s"), value=value,
                 allowed=list(spec[1]))
        return value
    if kind == "list":
        if not isinstance(value, list):
            fail(gettext_noop("must be a list"))
        return [_check(v, spec[1], f"{path}[{i}]", source) for i, v in enumerate(value)]
    if kind == "any_map_of":
        if not isinstance(value, dict) or not value:
            fail(gettext_noop("must be a non-empty mapping"))
        return {str(k): _check(v, spec[1], _join(path, k), source) for k, v in value.items()}
    if kind == "map":
        if not isinstance(value, dict):
            fail(gettext_noop("must be a mapping"))
        keys = spec[1]
        out = {}
        for key in value:
            if key not in keys:
                raise ProfileError(source, _join(path, key), gettext_noop("unknown key %(key)r"), key=key)
        for key, sub in keys.items():
            optional = isinstance(sub, tuple) and sub[0] == "optional"
            if key not in value:
                if optional:
                    continue
                raise ProfileError(source, _join(path, key), gettext_noop("this key is missing"))
            out[key] = _check(value[key], sub[1] if optional else sub, _join(path, key), source)
        return out
    raise AssertionError(f"bad schema spec {spec!r}")  # pragma: no cover


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


# --------------------------------------------------------------------------------------------
# Cross-field checks
# --------------------------------------------------------------------------------------------
def validate_body(data: Any, source: str) -> dict:
    """Everything but the readings of the organiser choices (also used on a patched copy)."""
    if not isinstance(data, dict):
        raise ProfileError(source, "", gettext_noop("a profile must be a mapping"))
    body = {k: v for k, v in data.items() if k not in OPTIONAL_TOP and k not in OPTIONAL_SECTIONS}
    for key, default in OPTIONAL_TOP.items():
        body.setdefault(key, copy.deepcopy(data.get(key, default)))
    sanctions, picks = body.pop("sanctions"), body.pop("choices")
    if not source.endswith(".yaml"):
        body = copy.deepcopy(body)
        _fill_later_keys(body)
    out = _check(body, SCHEMA, "", source)
    out["sanctions"] = _check(sanctions if sanctions is not None else {}, "any_map", "sanctions", source)
    out["choices"] = _check(picks if picks is not None else {}, "any_map", "choices", source)
    for key, spec in OPTIONAL_SECTIONS.items():
        if data.get(key) is not None:
            out[key] = _check(data[key], spec, key, source)
    _check_cards(out["cards"], source)
    _check_ladder(out, source)
    _check_scoring(out["scoring"], source)
    _check_rank_captures(out, source)
    _check_defaults(out, source)
    return out


def _fill_later_keys(body: dict) -> None:
    """Give a stored profile version the keys added since, with the behaviour it was stored with."""
    for key_path, value in LATER_KEYS.items():
        *parents, last = key_path.split(".")
        node = body
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, dict) and last not in node:
            node[last] = copy.deepcopy(value)


def _check_cards(cards: dict, source: str) -> None:
    if cards["decks"] < 1:
        raise ProfileError(source, "cards.decks", gettext_noop("at least one deck"))
    if not 0 <= cards["bottom"] <= 54 * cards["decks"]:
        raise ProfileError(source, "cards.bottom", gettext_noop("the bottom cannot hold %(value)s cards"),
                           value=cards["bottom"])


def _check_ladder(d: dict, source: str) -> None:
    levels = d["ladder"]["levels"]
    if len(levels) < 2:
        raise ProfileError(source, "ladder.levels", gettext_noop("at least two levels"))
    order = [ALL_LEVELS.index(x) for x in levels]
    for i in range(1, len(order)):
        if order[i] <= order[i - 1]:
            raise ProfileError(source, f"ladder.levels[{i}]",
                               gettext_noop("level %(level)s is repeated or out of order"), level=levels[i])
    _on_ladder(d["ladder"]["start"], levels, "ladder.start", source)
    for i, lv in enumerate(d["must_play"]["levels"]):
        _on_ladder(lv, levels, f"must_play.levels[{i}]", source)


def _on_ladder(level: str, ladder: list, path: str, source: str) -> None:
    if level not in ladder:
        raise ProfileError(source, path, gettext_noop("level %(level)s is not on the ladder %(ladder)s"),
                           level=level, ladder=ladder)


def _check_scoring(s: dict, source: str) -> None:
    t = s["takeover_at"]
    clamp = s["clamp_before_bottom"]
    if clamp is not None and clamp["min"] >= clamp["max"]:
        raise ProfileError(source, "scoring.clamp_before_bottom", gettext_noop("min must be below max"))
    _check_bands(s["defenders"], "scoring.defenders", t, up=True, source=source)
    _check_bands(s["declarers"], "scoring.declarers", t - 5, up=False, source=source)
    decl = s["declarers"]
    lowest = min(b["lo"] for b in decl["bands"])
    if decl["beyond"] is None and (clamp is None or clamp["min"] < lowest):
        raise ProfileError(source, "scoring.declarers.beyond",
                           gettext_noop("the lowest band stops at %(lowest)s and lower points have no band: "
                                        "give beyond"), lowest=lowest)
    if s["defenders"]["beyond"] is None:
        raise ProfileError(source, "scoring.defenders.beyond",
                           gettext_noop("points above the highest band have no band: give beyond"))


def _check_bands(side: dict, path: str, anchor: int, *, up: bool, source: str) -> None:
    """Bands must tile the points from ``anchor`` outwards (up or down) without gap or overlap."""
    bands = side["bands"]
    if not bands:
        raise ProfileError(source, f"{path}.bands", gettext_noop("at least one band"))
    for i, b in enumerate(bands):
        if b["lo"] > b["hi"]:
            raise ProfileError(source, f"{path}.bands[{i}]", gettext_noop("lo %(lo)s is above hi %(hi)s"),
                               lo=b["lo"], hi=b["hi"])
        if b["levels"] < 0:
            raise ProfileError(source, f"{path}.bands[{i}].levels", gettext_noop("levels cannot be negative"))
    order = sorted(range(len(bands)), key=lambda i: bands[i]["lo"], reverse=not up)
    edge = anchor
    prev_levels = -1
    for i in order:
        b = bands[i]
        start = b["lo"] if up else b["hi"]
        if start != edge:
            overlap = start < edge if up else start > edge
            message = (gettext_noop("bands overlap: this band should start at %(edge)s, not %(start)s")
                       if overlap else
                       gettext_noop("gap between bands: this band should start at %(edge)s, not %(start)s"))
            raise ProfileError(source, f"{path}.bands[{i}]", message, edge=edge, start=start)
        if b["levels"] < prev_levels:
            raise ProfileError(source, f"{path}.bands[{i}].levels",
                               gettext_noop("levels must not decrease away from the take-over points"))
        prev_levels = b["levels"]
        edge = b["hi"] + 5 if up else b["lo"] - 5
    beyond = side["beyond"]
    if beyond is not None and beyond["every"] <= 0:
        raise ProfileError(source, f"{path}.beyond.every", gettext_noop("must be positive"))


def _check_rank_captures(d: dict, source: str) -> None:
    ladder = d["ladder"]["levels"]
    seen = set()
    for i, rc in enumerate(d["rank_captures"]):
        p = f"rank_captures[{i}]"
        for key in ("level", "drop_to_main", "drop_to_other"):
            _on_ladder(rc[key], ladder, f"{p}.{key}", source)
        if rc["level"] in seen:
            raise ProfileError(source, f"{p}.level", gettext_noop("level %(level)s is repeated"),
                               level=rc["level"])
        seen.add(rc["level"])
        if rc["outcome"] == "takeover" and (rc["min_points"] is None
                                            or rc["min_points"] < d["scoring"]["takeover_at"]):
            raise ProfileError(source, f"{p}.min_points",
                               gettext_noop("a takeover capture needs min_points of at least takeover_at"))
        if rc["policy"] is not None:
            _on_ladder(rc["policy"]["return_to"], ladder, f"{p}.policy.return_to", source)


def _check_defaults(d: dict, source: str) -> None:
    for i, entry in enumerate(d["organiser_defaults"]):
        if isinstance(entry, str):
            if find_path(d, entry) is MISSING:
                raise ProfileError(source, f"organiser_defaults[{i}]",
                                   gettext_noop("key path %(key)r does not exist"), key=entry)


MISSING = object()  # what find_path answers for a key path that does not exist


def find_path(d: dict, key_path: str) -> Any:
    """The value at a dotted key path, or :data:`MISSING` where the path does not exist."""
    node: Any = d
    for part in key_path.split("."):
        if not isinstance(node, dict) or part not in node:
            return MISSING
        node = node[part]
    return node
