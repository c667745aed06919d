"""Rule profiles: load, validate and precompute the data files in ``fixtures/profiles/``.

Pure module (no Django). A profile file holds every number of a rule document (level ladder,
level table, must-play levels, bottom multipliers, J/A bottom-capture rules, rotation, timing,
standings, format hints and the sanction table); the engine in :mod:`scoring.engine` reads only
the precomputed :class:`Profile` built here, so no rule number lives in code.

Public API:
    load_profile(slug) -> Profile
    profile_from_dict(data, source="<dict>") -> Profile
    validate_profile_dict(data, source) -> dict   (normalised copy; raises ProfileError)
    known_profiles() -> list[str]
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

PROFILE_DIR = Path(__file__).resolve().parent.parent / "fixtures" / "profiles"

#: Every level name a ladder may use, in playing order.
ALL_LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER")
#: Lowest and highest defender points accepted as input (trick points, penalties).
POINTS_MIN, POINTS_MAX = -200, 400

ROTATIONS = ("partner", "next", "same")
TIME_UP_RULES = ("higher_level", "on_stage")
TIE_BREAKS = ("points", "net_levels", "total_levels", "lot", "shared_place", "head_to_head", "buchholz")
STAGE_KINDS = ("timed_matches", "single_elimination", "round_robin", "groups_round_robin",
               "qualifiers_round_robin", "swiss")
ROLES = ("chief_referee", "table_referee", "referee_group", "arbitration_group", "logistics_group")


class ProfileError(ValueError):
    """A profile file or dict is invalid; the message names the source, the key path and the fault."""

    def __init__(self, source: str, path: str, zh: str, en: str):
        self.source, self.path = source, path
        super().__init__(f"{source}: {path or '<根>'}: {zh}（{en}）")


# --------------------------------------------------------------------------------------------
# Schema: a small declarative description of the file, checked by _check().
# Spec forms: "str" "int" "bool" "level" "points" ("enum", choices) ("list", spec)
#             ("map", {key: spec}) ("null", spec)  "any_map"
# --------------------------------------------------------------------------------------------
_BAND = ("map", {"lo": "points", "hi": "points", "levels": "int"})
_SIDE = ("map", {"bands": ("list", _BAND), "beyond": ("null", ("map", {"every": "points"}))})
_RANK_CAPTURE = ("map", {
    "level": "level", "rank": ("enum", ALL_LEVELS[:-1]), "outcome": ("enum", ("restart", "takeover")),
    "min_points": ("null", "points"), "drop_to_main": "level", "drop_to_other": "level",
    "waive_must_play": "bool",
    "policy": ("null", ("map", {"under": "points", "return_to": "level"})),
})
SCHEMA = ("map", {
    "slug": "str", "name": "str", "name_en": "str",
    "source": ("map", {"document": "str", "part": "str", "clauses": "str"}),
    "organiser_defaults": ("list", "str"),
    "ladder": ("map", {"levels": ("list", "level"), "start": "level"}),
    "scoring": ("map", {
        "takeover_at": "points",
        "clamp_before_bottom": ("null", ("map", {"min": "points", "max": "points"})),
        "defenders": _SIDE, "declarers": _SIDE,
    }),
    "must_play": ("map", {"levels": ("list", "level"), "give_back": "bool"}),
    "bottom": ("map", {
        "single": "int", "pair": "int", "tractor_base": "int", "tractor_per_pair": "int",
        "trump_only": "bool", "reverse_capture": ("enum", ("none", "subtract")),
    }),
    "rank_captures": ("list", _RANK_CAPTURE),
    "rotation": ("map", {"declarers_win": ("enum", ROTATIONS), "declarers_lose": ("enum", ROTATIONS)}),
    "timing": ("map", {
        "match_minutes": ("null", "int"),
        "announce": ("null", ("map", {"minutes_before_end": "int", "hands_after": "int",
                                      "hand_in_play_counts": "bool"})),
        "time_up": ("list", ("enum", TIME_UP_RULES)),
    }),
    "standings": ("map", {"win": "int", "loss": "int", "tie_break": ("list", ("enum", TIE_BREAKS))}),
    "format": ("map", {
        "stages": ("list", ("enum", STAGE_KINDS)), "rank_all_of": ("null", "int"),
        "partners_by_lot": "bool", "seats_by_lot_on_request": "bool",
        "team": ("null", ("map", {"pairs": "int", "women_pairs": "int", "reserve_pairs": "int"})),
        "awards": ("null", ("map", {"champion": "int", "runner_up": "int", "third": "int",
                                    "merit": "int", "commemorative": "bool"})),
        "roles": ("list", ("enum", ROLES)),
    }),
})
#: Top-level keys that may be missing (with their default).
OPTIONAL_TOP = {"sanctions": {}, "organiser_defaults": []}
#: Optional top-level keys kept only when the file has them (their schema): the unit (team) standings of a
#: union meet, points per final place (1st, 2nd, ...), the best N pairs per unit that count (null: all),
#: and the bonus for each placed women's pair (see :mod:`tournament.unit_standings`).
OPTIONAL_SECTIONS = {
    "unit_standings": ("map", {"points": ("list", "int"), "best_n": ("null", "int"), "women_bonus": "int"}),
}


def _check(value: Any, spec: Any, path: str, source: str) -> Any:
    """Check ``value`` against ``spec`` and return a normalised copy (levels as strings)."""
    def fail(zh: str, en: str):
        raise ProfileError(source, path, zh, en)

    if spec == "any_map":
        if not isinstance(value, dict):
            fail("应为映射", "must be a mapping")
        return copy.deepcopy(value)
    if spec in ("int", "points"):
        if not isinstance(value, int) or isinstance(value, bool):
            fail(f"应为整数，得到 {value!r}", "must be an integer")
        if spec == "points" and value % 5:
            fail(f"分数 {value} 不是5的倍数", "points must be a multiple of 5")
        return value
    if spec == "bool":
        if not isinstance(value, bool):
            fail(f"应为 true/false，得到 {value!r}", "must be a boolean")
        return value
    if spec == "str":
        if not isinstance(value, str) or not value.strip():
            fail(f"应为非空文字，得到 {value!r}", "must be a non-empty string")
        return value
    if spec == "level":
        level = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        if level not in ALL_LEVELS:
            fail(f"{value!r} 不是级数（2..10、J、Q、K、A、JOKER）", "not a level name")
        return level
    kind = spec[0]
    if kind == "null":
        return None if value is None else _check(value, spec[1], path, source)
    if kind == "enum":
        if value not in spec[1]:
            fail(f"{value!r} 不是允许的取值 {list(spec[1])}", "value not allowed")
        return value
    if kind == "list":
        if not isinstance(value, list):
            fail("应为列表", "must be a list")
        return [_check(v, spec[1], f"{path}[{i}]", source) for i, v in enumerate(value)]
    if kind == "map":
        if not isinstance(value, dict):
            fail("应为映射", "must be a mapping")
        keys = spec[1]
        out = {}
        for key in value:
            if key not in keys:
                raise ProfileError(source, _join(path, key), f"未知的键 {key!r}", "unknown key")
        for key, sub in keys.items():
            if key not in value:
                raise ProfileError(source, _join(path, key), "缺少此键", "missing key")
            out[key] = _check(value[key], sub, _join(path, key), source)
        return out
    raise AssertionError(f"bad schema spec {spec!r}")  # pragma: no cover


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


# --------------------------------------------------------------------------------------------
# Cross-field checks
# --------------------------------------------------------------------------------------------
def validate_profile_dict(data: Any, source: str = "<dict>") -> dict:
    """Validate a profile mapping; return a normalised deep copy or raise :class:`ProfileError`."""
    if not isinstance(data, dict):
        raise ProfileError(source, "", "规则文件应为映射", "a profile must be a mapping")
    body = {k: v for k, v in data.items() if k not in OPTIONAL_TOP and k not in OPTIONAL_SECTIONS}
    for key, default in OPTIONAL_TOP.items():
        body.setdefault(key, copy.deepcopy(data.get(key, default)))
    sanctions = body.pop("sanctions")
    out = _check(body, SCHEMA, "", source)
    for key, spec in OPTIONAL_SECTIONS.items():
        if data.get(key) is not None:
            out[key] = _check(data[key], spec, key, source)
    out["sanctions"] = _check(sanctions if sanctions is not None else {}, "any_map", "sanctions", source)
    _check_ladder(out, source)
    _check_scoring(out["scoring"], source)
    _check_rank_captures(out, source)
    _check_defaults(out, source)
    return out


def _check_ladder(d: dict, source: str) -> None:
    levels = d["ladder"]["levels"]
    if len(levels) < 2:
        raise ProfileError(source, "ladder.levels", "至少需要两个级数", "at least two levels")
    order = [ALL_LEVELS.index(x) for x in levels]
    for i in range(1, len(order)):
        if order[i] <= order[i - 1]:
            raise ProfileError(source, f"ladder.levels[{i}]", f"级数 {levels[i]} 重复或顺序错误",
                               "levels must be unique and in playing order")
    _on_ladder(d["ladder"]["start"], levels, "ladder.start", source)
    for i, lv in enumerate(d["must_play"]["levels"]):
        _on_ladder(lv, levels, f"must_play.levels[{i}]", source)


def _on_ladder(level: str, ladder: list, path: str, source: str) -> None:
    if level not in ladder:
        raise ProfileError(source, path, f"级数 {level} 不在级数阶梯 {ladder} 上", "level not on the ladder")


def _check_scoring(s: dict, source: str) -> None:
    t = s["takeover_at"]
    clamp = s["clamp_before_bottom"]
    if clamp is not None and clamp["min"] >= clamp["max"]:
        raise ProfileError(source, "scoring.clamp_before_bottom", "min 应小于 max", "min must be below max")
    _check_bands(s["defenders"], "scoring.defenders", t, up=True, source=source)
    _check_bands(s["declarers"], "scoring.declarers", t - 5, up=False, source=source)
    decl = s["declarers"]
    lowest = min(b["lo"] for b in decl["bands"])
    if decl["beyond"] is None and (clamp is None or clamp["min"] < lowest):
        raise ProfileError(source, "scoring.declarers.beyond",
                           f"最低档只到 {lowest}，低于此的分数没有对应档位：请给出 beyond",
                           "scores below the lowest band need `beyond` (or a clamp)")
    if s["defenders"]["beyond"] is None:
        raise ProfileError(source, "scoring.defenders.beyond",
                           "最高档以上的分数没有对应档位：请给出 beyond",
                           "scores above the highest band need `beyond`")


def _check_bands(side: dict, path: str, anchor: int, *, up: bool, source: str) -> None:
    """Bands must tile the points from ``anchor`` outwards (up or down) without gap or overlap."""
    bands = side["bands"]
    if not bands:
        raise ProfileError(source, f"{path}.bands", "至少需要一档", "at least one band")
    for i, b in enumerate(bands):
        if b["lo"] > b["hi"]:
            raise ProfileError(source, f"{path}.bands[{i}]", f"lo {b['lo']} 大于 hi {b['hi']}", "lo above hi")
        if b["levels"] < 0:
            raise ProfileError(source, f"{path}.bands[{i}].levels", "级数不能为负", "levels must be >= 0")
    order = sorted(range(len(bands)), key=lambda i: bands[i]["lo"], reverse=not up)
    edge = anchor
    prev_levels = -1
    for i in order:
        b = bands[i]
        start = b["lo"] if up else b["hi"]
        if start != edge:
            what = "重叠" if (start < edge if up else start > edge) else "空档"
            raise ProfileError(source, f"{path}.bands[{i}]",
                               f"档位{what}：此档应从 {edge} 开始，实为 {start}",
                               f"band {'overlap' if what == '重叠' else 'gap'}: expected to start at {edge}")
        if b["levels"] < prev_levels:
            raise ProfileError(source, f"{path}.bands[{i}].levels", "离80分越远，升级数不应减少",
                               "levels must not decrease away from the take-over threshold")
        prev_levels = b["levels"]
        edge = b["hi"] + 5 if up else b["lo"] - 5
    beyond = side["beyond"]
    if beyond is not None and beyond["every"] <= 0:
        raise ProfileError(source, f"{path}.beyond.every", "应为正数", "must be positive")


def _check_rank_captures(d: dict, source: str) -> None:
    ladder = d["ladder"]["levels"]
    seen = set()
    for i, rc in enumerate(d["rank_captures"]):
        p = f"rank_captures[{i}]"
        for key in ("level", "drop_to_main", "drop_to_other"):
            _on_ladder(rc[key], ladder, f"{p}.{key}", source)
        if rc["level"] in seen:
            raise ProfileError(source, f"{p}.level", f"级数 {rc['level']} 重复", "duplicate level")
        seen.add(rc["level"])
        if rc["outcome"] == "takeover" and (rc["min_points"] is None
                                            or rc["min_points"] < d["scoring"]["takeover_at"]):
            raise ProfileError(source, f"{p}.min_points", "outcome 为 takeover 时须不低于上台分数",
                               "a takeover capture needs min_points >= takeover_at")
        if rc["policy"] is not None:
            _on_ladder(rc["policy"]["return_to"], ladder, f"{p}.policy.return_to", source)


def _check_defaults(d: dict, source: str) -> None:
    for i, key_path in enumerate(d["organiser_defaults"]):
        node: Any = d
        for part in key_path.split("."):
            if not isinstance(node, dict) or part not in node:
                raise ProfileError(source, f"organiser_defaults[{i}]", f"键路径 {key_path!r} 不存在",
                                   "key path does not exist")
            node = node[part]


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
    """End-of-round announcement: minutes before the end, hands still to play, hand in play counts."""
    minutes_before_end: int
    hands_after: int
    hand_in_play_counts: bool


@dataclass(frozen=True, slots=True, eq=False)
class Profile:
    """A validated rule profile with lookups precomputed for the engine's hot loop.

    ``data`` is the normalised dict (what the DB stores); ``sanctions`` the raw sanction mapping.
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
    must_play: frozenset
    next_must: tuple          # per ladder index: the first must-play index above it, or -1
    give_back: bool
    mult_single: int
    mult_pair: int
    tractor_base: int
    tractor_per_pair: int
    trump_only: bool
    reverse_subtract: bool
    rank_captures: dict       # ladder index of the declarers' level -> RankCapture
    rotation_win: str
    rotation_lose: str
    match_minutes: int | None
    announce: Announce | None
    time_up: tuple
    standings: dict
    tie_break: tuple
    format: dict
    _table: tuple = field(repr=False)      # (takeover, levels) for POINTS_MIN..POINTS_MAX step 5
    _bands: tuple = field(repr=False)      # (defenders side, declarers side) for points off the table

    def level_index(self, level: Any, field_name: str = "level") -> int:
        """Ladder index of ``level`` ("2".."A"/"JOKER"; ints 2..10 accepted) or ValueError naming the field."""
        try:
            return self.index[level]
        except (KeyError, TypeError):
            pass
        if isinstance(level, int) and not isinstance(level, bool) and str(level) in self.index:
            return self.index[str(level)]
        raise ValueError(f"{field_name}: 级数 {level!r} 不在本规则的级数阶梯上 {list(self.ladder)}"
                         f"（level not on the ladder）")

    def result_for(self, points: int) -> tuple:
        """(defenders take over?, levels gained) for final defender points (a multiple of 5)."""
        i = (points - POINTS_MIN) // 5
        if 0 <= i < len(self._table):
            return self._table[i]
        return _band_result(self._bands, self.takeover_at, points)

    def to_dict(self) -> dict:
        """A deep copy of the normalised profile dict (for storing as JSON)."""
        return copy.deepcopy(self.data)


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
        raise ValueError(f"defender_points: 得分 {points} 低于最低档位（no band for these points）")
    return up, levels + (lo - 5 - points) // every + 1


def profile_from_dict(data: Any, source: str = "<dict>") -> Profile:
    """Validate ``data`` and build the precomputed :class:`Profile`."""
    d = validate_profile_dict(data, source)
    ladder = tuple(d["ladder"]["levels"])
    index = {lv: i for i, lv in enumerate(ladder)}
    must = frozenset(index[x] for x in d["must_play"]["levels"])
    next_must = tuple(min((m for m in must if m > i), default=-1) for i in range(len(ladder)))
    s = d["scoring"]
    bands = (_side_table(s["defenders"]), _side_table(s["declarers"]))
    clamp = s["clamp_before_bottom"]
    lowest_needed = clamp["min"] if clamp else POINTS_MIN
    table = tuple(
        _band_result(bands, s["takeover_at"], p) if p >= lowest_needed else None
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
        must_play=must, next_must=next_must, give_back=d["must_play"]["give_back"],
        mult_single=b["single"], mult_pair=b["pair"], tractor_base=b["tractor_base"],
        tractor_per_pair=b["tractor_per_pair"], trump_only=b["trump_only"],
        reverse_subtract=b["reverse_capture"] == "subtract", rank_captures=captures,
        rotation_win=d["rotation"]["declarers_win"], rotation_lose=d["rotation"]["declarers_lose"],
        match_minutes=t["match_minutes"], announce=Announce(**t["announce"]) if t["announce"] else None,
        time_up=tuple(t["time_up"]), standings=d["standings"],
        tie_break=tuple(d["standings"]["tie_break"]), format=d["format"],
        _table=table, _bands=bands,
    )


def known_profiles() -> list[str]:
    """Slugs of the profile files shipped in ``fixtures/profiles/``."""
    return sorted(p.stem for p in PROFILE_DIR.glob("*.yaml"))


@lru_cache(maxsize=None)
def load_profile(slug: str) -> Profile:
    """Load and validate ``fixtures/profiles/<slug>.yaml`` (cached; the object is immutable)."""
    known = known_profiles()
    if slug not in known:
        raise ValueError(f"slug: 未知的规则 {slug!r}；可用的规则：{', '.join(known)}（unknown profile）")
    path = PROFILE_DIR / f"{slug}.yaml"
    with path.open(encoding="utf-8") as fh:
        try:
            data = yaml.load(fh, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        except yaml.YAMLError as exc:
            raise ProfileError(path.name, "", f"YAML 格式错误：{exc}", "invalid YAML") from exc
    profile = profile_from_dict(data, source=path.name)
    if profile.slug != slug:
        raise ProfileError(path.name, "slug", f"slug {profile.slug!r} 与文件名不符", "slug must match the file name")
    return profile
