"""Profile files: loading, the shipped values, and validation errors naming source and key."""
import copy
import hashlib

import pytest
import yaml

from scoring.profiles import (
    PROFILE_DIR,
    ProfileError,
    known_profiles,
    load_profile,
    profile_from_dict,
    validate_profile_dict,
)

SLUGS = ["company-league", "company-league-2008", "shenzhen-community", "two-deck-standard",
         "union-games"]


def raw(slug):
    with (PROFILE_DIR / f"{slug}.yaml").open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def test_known_profiles():
    assert known_profiles() == SLUGS


def test_unknown_slug_lists_known_ones():
    with pytest.raises(ValueError) as exc:
        load_profile("bridge")
    assert "bridge" in str(exc.value) and all(s in str(exc.value) for s in SLUGS)


@pytest.mark.parametrize("slug", SLUGS)
def test_profile_loads_with_chinese_name_and_source(slug):
    p = load_profile(slug)
    assert p.slug == slug and any("\u4e00" <= c <= "\u9fff" for c in p.name)
    assert p.source["document"].endswith(".txt") and p.sanctions, "every profile carries its sanction table"
    assert p.ladder[0] == "2" and p.ladder[p.start] == "2"


@pytest.mark.parametrize("slug", SLUGS)
def test_round_trip_through_dict(slug):
    p = load_profile(slug)
    again = profile_from_dict(p.to_dict(), source="db")
    assert again.data == p.data and again.ladder == p.ladder
    assert [again.result_for(x) for x in range(-200, 405, 5)] == [p.result_for(x) for x in range(-200, 405, 5)]


def test_shipped_values():
    assert load_profile("company-league").ladder[-1] == "JOKER"
    assert load_profile("shenzhen-community").ladder[-1] == "A"
    assert sorted(load_profile("company-league").data["must_play"]["levels"]) == ["A", "J", "JOKER"]
    assert load_profile("shenzhen-community").data["must_play"]["levels"] == ["2", "J", "A"]
    assert load_profile("company-league-2008").tie_break == ("points", "net_levels", "shared_place")
    assert load_profile("company-league").tie_break == ("points", "net_levels", "total_levels", "lot")
    assert load_profile("company-league").standings["win"] == 3
    sz = load_profile("shenzhen-community")
    assert (sz.match_minutes, sz.announce.minutes_before_end, sz.announce.hands_after,
            sz.announce.hand_in_play_counts) == (90, 30, 3, False)
    two = load_profile("two-deck-standard")
    assert (two.announce.minutes_before_end, two.announce.hands_after) == (10, 1)
    assert "timing.match_minutes" in two.organiser_defaults
    union = load_profile("union-games")
    assert union.match_minutes == 120 and union.announce is None and union.clamp == (0, 200)
    assert union.format["team"] == {"pairs": 3, "women_pairs": 1, "reserve_pairs": 1}
    assert union.format["awards"]["third"] == 2 and union.format["awards"]["merit"] == 4
    assert load_profile("company-league").match_minutes is None
    assert sz.format["rank_all_of"] == 8


def test_sanctions_key_is_accepted_and_kept_raw():
    data = raw("two-deck-standard")
    data["organiser_defaults"] = [e for e in data["organiser_defaults"]   # none may point into the sanctions
                                  if not (isinstance(e, dict) and e["choice"] == "appeal_deadline")]
    data["sanctions"] = {"late": {"minutes": 5, "outcome": "forfeit"}, "scale": [10, 20, 40, 80]}
    p = profile_from_dict(data, source="x.yaml")
    assert p.sanctions == data["sanctions"] and p.to_dict()["sanctions"] == data["sanctions"]
    data["sanctions"] = ["not", "a", "mapping"]
    with pytest.raises(ProfileError, match="sanctions"):
        profile_from_dict(data, source="x.yaml")


def test_loading_never_rewrites_files():
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in PROFILE_DIR.glob("*.yaml")}
    load_profile.cache_clear()
    for slug in SLUGS:
        load_profile(slug)
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in PROFILE_DIR.glob("*.yaml")}
    assert before == after


def test_int_levels_are_normalised():
    data = raw("two-deck-standard")
    data["ladder"]["levels"] = [2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K", "A"]
    data["ladder"]["start"] = 2
    p = profile_from_dict(data)
    assert p.ladder[0] == "2" and p.ladder[8] == "10"


def _set(data, path, value):
    *parents, last = path
    node = data
    for key in parents:
        node = node[key]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value


DELETE = object()

BREAKS = [
    # (slug, key path, new value, expected key path in the message, expected words)
    ("shenzhen-community", ["colour"], "red", "colour", "未知的键"),
    ("shenzhen-community", ["scoring", "defenders", "bandz"], [], "scoring.defenders.bandz", "未知的键"),
    ("shenzhen-community", ["rotation"], DELETE, "rotation", "缺少此键"),
    ("shenzhen-community", ["scoring", "takeover_at"], 82, "scoring.takeover_at", "5的倍数"),
    ("shenzhen-community", ["scoring", "defenders", "bands", 1, "lo"], 105,
     "scoring.defenders.bands[1]", "空档"),
    ("shenzhen-community", ["scoring", "defenders", "bands", 1, "lo"], 90,
     "scoring.defenders.bands[1]", "重叠"),
    ("two-deck-standard", ["scoring", "declarers", "bands", 2, "hi"], -5,
     "scoring.declarers.bands[2]", "空档"),
    ("two-deck-standard", ["scoring", "declarers", "bands", 0, "hi"], 80,
     "scoring.declarers.bands[0]", "重叠"),
    ("two-deck-standard", ["scoring", "declarers", "beyond"], None, "scoring.declarers.beyond", "beyond"),
    ("two-deck-standard", ["scoring", "defenders", "bands", 2, "levels"], 0,
     "scoring.defenders.bands[2].levels", "不应减少"),
    ("shenzhen-community", ["must_play", "levels"], ["2", "JOKER"], "must_play.levels[1]", "不在级数阶梯"),
    ("shenzhen-community", ["must_play", "levels"], ["1"], "must_play.levels[0]", "不是级数"),
    ("company-league", ["rank_captures", 0, "drop_to_other"], "ZZ",
     "rank_captures[0].drop_to_other", "不是级数"),
    ("company-league", ["rank_captures", 0, "min_points"], None, "rank_captures[0].min_points", "takeover"),
    ("shenzhen-community", ["ladder", "start"], "JOKER", "ladder.start", "不在级数阶梯"),
    ("shenzhen-community", ["ladder", "levels", 3], "3", "ladder.levels[3]", "重复或顺序错误"),
    ("shenzhen-community", ["bottom", "pair"], "4x", "bottom.pair", "整数"),
    ("shenzhen-community", ["bottom", "reverse_capture"], "maybe", "bottom.reverse_capture", "允许"),
    ("union-games", ["scoring", "clamp_before_bottom", "min"], 300, "scoring.clamp_before_bottom", "min"),
    ("union-games", ["timing", "time_up"], ["coin"], "timing.time_up[0]", "允许"),
    ("company-league", ["organiser_defaults"], ["timing.nothing"], "organiser_defaults[0]", "不存在"),
    ("company-league", ["rotation", "declarers_win"], "left", "rotation.declarers_win", "允许"),
]


@pytest.mark.parametrize("slug,path,value,key,words", BREAKS)
def test_validation_error_names_source_and_key(slug, path, value, key, words):
    data = copy.deepcopy(raw(slug))
    _set(data, path, value)
    with pytest.raises(ProfileError) as exc:
        validate_profile_dict(data, f"{slug}.yaml")
    msg = str(exc.value)
    assert msg.startswith(f"{slug}.yaml: {key}:"), msg
    assert words in msg, msg
    assert isinstance(exc.value, ValueError)


def test_validation_of_non_mapping():
    with pytest.raises(ProfileError, match="bad.yaml"):
        validate_profile_dict(["x"], "bad.yaml")


def test_slug_must_match_file_name(tmp_path, monkeypatch):
    import scoring.profiles as mod
    data = raw("union-games")
    (tmp_path / "other.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(mod, "PROFILE_DIR", tmp_path)
    load_profile.cache_clear()
    try:
        with pytest.raises(ProfileError, match="other.yaml: slug"):
            load_profile("other")
    finally:
        load_profile.cache_clear()


def test_a_version_stored_before_issue_13_reads_as_it_did():
    """Stored versions lack the keys added since (cards, at_takeover, must_play.awards, no_trump_declared)."""
    data = raw("shenzhen-community")
    data["organiser_defaults"] = ["standings"]
    for parent, key in ((data, "cards"), (data["scoring"], "at_takeover"), (data["must_play"], "awards"),
                        (data["rotation"], "no_trump_declared")):
        del parent[key]
    p = profile_from_dict(data, source="shenzhen-community v1")
    assert (p.points_total, p.bottom_max, p.at_takeover_keeps) == (200, 80, False)
    assert (p.award_leaves_must_play, p.award_give_back, p.rotation_no_trump) == (False, True, None)
    with pytest.raises(ProfileError, match="cards"):                    # a file must still say them
        validate_profile_dict(data, "shenzhen-community.yaml")
