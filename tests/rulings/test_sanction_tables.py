"""The five sanction tables validate, and validate_sanctions names source, key path and problem."""
import copy

import pytest

from common.errors import UserError
from rulings.engine import validate_sanctions
from rulings.sanction_tables import CONTRACT_CODES
from scoring.profiles import known_profiles, load_profile
from tests.conftest import refused

SLUGS = ("shenzhen-community", "two-deck-standard", "union-games", "company-league",
         "company-league-2008")


@pytest.mark.parametrize("slug", SLUGS)
def test_table_file_validates(slug):
    table = sanction_table(slug)
    assert validate_sanctions(table, slug) is table
    assert set(table["offences"]) <= CONTRACT_CODES | {"bottom_overdrawn", "over_cut"}


def sanction_table(slug):
    """The sanction table a profile file carries under its ``sanctions:`` key."""
    return load_profile(slug).sanctions


def test_every_profile_file_carries_a_sanction_table():
    assert sorted(known_profiles()) == sorted(SLUGS)
    assert all(sanction_table(slug)["offences"] for slug in SLUGS)


def test_company_league_revisions_share_the_offences():
    assert sanction_table("company-league")["offences"].keys() == \
        sanction_table("company-league-2008")["offences"].keys()


def base():
    return copy.deepcopy(sanction_table("shenzhen-community"))


def set_at(table, path, value):
    *parents, last = path
    node = table
    for key in parents:
        node = node[key]
    if value is DELETE:
        del node[last]
    else:
        node[last] = value
    return table


DELETE = object()

BROKEN = [
    (("offences", "jaywalking"), {"name": "x", "clause": "y", "points": 5}, "offences.jaywalking", "unknown code"),
    (("offences", "cheating", "kinds"), ["banishment"], "offences.cheating.kinds", "unknown kind"),
    (("offences", "cheating", "kinds"), ["points"], "offences.cheating.kinds", "derived kind"),
    (("offences", "failed_throw", "per_card"), 12, "offences.failed_throw.per_card", "not a multiple of"),
    (("offences", "delay", "options", "violation", "points"), 7, "offences.delay.options.violation.points", "not a multiple of"),
    (("offences", "late", "bands"), [{"from": 6, "to": 10, "points": 10}, {"from": 8, "points": 20}],
     "offences.late.bands[1]", "overlapping minute bands"),
    (("offences", "late", "bands"), [{"from": 6, "points": 10}, {"from": 6, "points": 20}],
     "offences.late.bands[1]", "overlapping minute bands"),
    (("offences", "late", "bands"), [{"from": 5, "to": 10, "points": 10}, {"from": 10, "points": 20}],
     "offences.late.bands[1]", "overlapping minute bands"),
    (("offences", "late", "bands"), [{"points": 10}], "offences.late.bands[0]", "one of from / over"),
    (("offences", "late", "bands"), [{"from": 6, "to": 3, "points": 10}], "offences.late.bands[0].to", "to below from"),
    (("offences", "delay", "default"), "scolding", "offences.delay.default", "default not an option"),
    (("offences", "delay", "chooser"), "audience", "offences.delay.chooser", "unknown value"),
    (("offences", "card_count", "by_role", "attackers"), {"points": 10}, "offences.card_count.by_role.attackers", "unknown role"),
    (("offences", "card_count", "by_role", "defenders", "stage"), "other", "offences.card_count.by_role.defenders.stage", "only under by_role.declarers"),
    (("offences", "card_count", "by_role", "declarers", "gainer"), DELETE, "offences.card_count.by_role.declarers.gainer", "levels without gainer"),
    (("offences", "wrong_bury", "by_role", "declarers", "drop_to"), {"J": "1"}, "offences.wrong_bury.by_role.declarers.drop_to.J", "unknown value"),
    (("offences", "cheating", "name"), DELETE, "offences.cheating.name", "non-empty"),
    (("offences", "cheating", "penalty"), 10, "offences.cheating.penalty", "unknown key"),
    (("appeal", "deadline_minutes"), 0, "appeal.deadline_minutes", "must be >= 1"),
    (("escalation", "match_forfeit_at_violations"), "three", "escalation.match_forfeit_at_violations", "expected an integer"),
    (("other_side_may_choose",), False, "other_side_may_choose", "other side chooses"),
    (("points_clamp",), [200, 0], "points_clamp", "low must be below high"),
    (("offences",), {}, "offences", "no offences"),
]


@pytest.mark.parametrize("path, value, key_path, problem", BROKEN, ids=[b[2] + "-" + b[3] for b in BROKEN])
def test_broken_table_names_source_path_and_problem(path, value, key_path, problem):
    table = set_at(base(), path, value)
    with pytest.raises(UserError) as caught:
        validate_sanctions(table, "my-profile.yaml")
    message = str(caught.value)                      # in the active language; the msgid is English
    assert message.startswith(f"my-profile.yaml: sanctions.{key_path}"), message
    english = caught.value.message % caught.value.params
    assert caught.value.field.startswith(f"sanctions.{key_path}") and problem in english, english


def test_nested_options_are_refused():
    table = base()
    table["offences"]["delay"]["options"]["violation"] = {
        "label": "x", "options": {"a": {"label": "a"}}, "default": "a"}
    with pytest.raises(UserError) as caught:
        validate_sanctions(table, "s")
    assert caught.value.message == "nested options"


def test_duplicate_alias_is_refused():
    table = base()
    table["offences"]["delay"]["options"]["violation"]["aliases"] = ["warning"]
    with pytest.raises(UserError) as caught:
        validate_sanctions(table, "s")
    assert caught.value.message.startswith("duplicate option")


def test_referee_choice_needs_a_default():
    table = base()
    table["offences"]["delay"]["default"] = None
    with refused("sanctions.offences.delay.default") as caught:
        validate_sanctions(table, "s")
    assert "needs a default" in caught.value.message
