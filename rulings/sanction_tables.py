"""Sanction tables: the per-profile data the sanction engine reads, and their validation (pure).

A table is the mapping under a rule profile's ``sanctions:`` key. Top level:

    source: str                        the rule document it comes from
    other_side_may_choose: bool        may the non-offending side ever choose (options or waive)?
    penalties_waivable_by_agreement: bool   both sides may agree to play without the penalty clauses
    appeal: {deadline_minutes, counted_from, to, then, clause}
    escalation: {warning_becomes_violation_from, match_forfeit_at_violations, clause}   optional
    points_clamp: [low, high]          optional: the score range after penalties
    shared: ...                        ignored: a home for YAML anchors
    offences: {code: node}

A *node* says how one offence turns into an outcome. It is one of:

    bands:   [{from, to?, ...node}]    chosen by ``minutes`` (inclusive integer bands, ascending)
    steps:   [node, ...]               chosen by the side's repeat count of this offence in the match;
                                       the last step repeats
    by_role: {declarers: node, defenders: node}   chosen by the offender's role
    options: {id: node}  + chooser (referee | other_side) + default (an id; null = wait for the side)
    or an outcome:
        kinds: [warning | violation | hand_forfeit | match_forfeit | disqualification]
        points: int (multiple of 5)    or  per_card: int (multiple of 5, needs ``cards``)
        applies_to: current_hand | first_hand
        gainer: other | offender,  levels: int     levels to whom
        stage: other                   the offending declarers step down (only under by_role.declarers)
        next_declarer: next | same | partner
        drop_to: {J: "2", A: J}        when the stage plays a key level it drops there instead and the
                                       other side does not go up
        levels_per_points: int, max_levels: int    levels from the defenders' points at the end of
                                       the hand, to ``gainer`` (union-games bury, 003 一.19)
        points_void, redeal, hand_ends: bool
Any node may carry ``clause`` (innermost wins) and ``note`` (notes add up); an offence also has
``name`` and may carry ``waivable_by_other_side``; an option also has ``label`` and ``aliases``.
Only one ``options`` node may lie on any path, so a single ``choice`` string selects it.
"""
from __future__ import annotations

from collections.abc import Mapping

CONTRACT_CODES = frozenset({
    "late", "left_table", "delay", "out_of_turn", "exposed_card", "failed_throw", "wrong_follow",
    "hidden_card", "card_count", "wrong_bury", "signal", "peeking", "noise", "cheating", "misconduct",
})
# Offences some documents name that the contract list does not: 002 十（六）, 003 一.2.
EXTRA_CODES = frozenset({"bottom_overdrawn", "over_cut"})
CODES = CONTRACT_CODES | EXTRA_CODES

KINDS = frozenset({"warning", "violation", "points", "levels", "step_down", "hand_forfeit",
                   "match_forfeit", "disqualification", "choice"})
DERIVED_KINDS = frozenset({"points", "levels", "step_down", "choice"})  # the engine adds these
EXPLICIT_KINDS = KINDS - DERIVED_KINDS
ROLES = ("declarers", "defenders")
LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER")
CHOOSERS = ("referee", "other_side")

TOP_KEYS = {"source", "other_side_may_choose", "penalties_waivable_by_agreement", "appeal",
            "escalation", "points_clamp", "shared", "offences"}
APPEAL_KEYS = {"deadline_minutes", "counted_from", "to", "then", "clause", "organiser_choice"}
APPEAL_FROM = ("round_results_published",)
APPEAL_BODIES = ("chief_referee", "arbitration_group", "referee_group", "organising_committee")
ESCALATION_KEYS = {"warning_becomes_violation_from", "match_forfeit_at_violations", "clause"}

STRUCTURE_KEYS = ("options", "by_role", "steps", "bands")
OUTCOME_KEYS = {"kinds", "points", "per_card", "applies_to", "gainer", "levels", "stage",
                "next_declarer", "drop_to", "levels_per_points", "max_levels", "points_void",
                "redeal", "hand_ends"}
META_KEYS = {"clause", "note"}
OFFENCE_KEYS = {"name", "waivable_by_other_side"}
OPTION_KEYS = {"label", "aliases"}
OPTIONS_KEYS = {"chooser", "default"}
BAND_KEYS = {"from", "to"}
ENUMS = {"applies_to": ("current_hand", "first_hand"), "gainer": ("other", "offender"),
         "stage": ("other",), "next_declarer": ("next", "same", "partner")}
FLAGS = ("points_void", "redeal", "hand_ends")

class _Checker:
    """Walks one table and raises ValueError '<source>: <path>: <problem>' at the first defect."""

    def __init__(self, source):
        self.source = source
        self.other_side_options = False

    def fail(self, path, problem):
        raise ValueError(f"制裁表 {self.source}：{path}：{problem}")

    def mapping(self, value, path):
        if not isinstance(value, Mapping):
            self.fail(path, f"应为映射（expected a mapping, got {type(value).__name__}）")
        return value

    def known_keys(self, node, allowed, path):
        for key in node:
            if key not in allowed:
                self.fail(f"{path}.{key}", "未知的键（unknown key）")

    def integer(self, value, path, *, minimum=0, step=1):
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, f"应为整数（expected an integer, got {value!r}）")
        if value < minimum:
            self.fail(path, f"不得小于{minimum}（must be >= {minimum}, got {value}）")
        if value % step:
            self.fail(path, f"须为{step}的倍数（points not a multiple of {step}: {value}）")
        return value

    def text(self, value, path):
        if not isinstance(value, str) or not value.strip():
            self.fail(path, "应为非空文字（expected non-empty text）")

    def choice_of(self, value, allowed, path):
        if value not in allowed:
            self.fail(path, f"取值 {value!r} 无效，应为 {'/'.join(allowed)}（unknown value）")

    # --- top level -------------------------------------------------------------------------

    def table(self, table):
        self.mapping(table, "(top)")
        self.known_keys(table, TOP_KEYS, "(top)")
        for key in ("source", "other_side_may_choose", "appeal", "offences"):
            if key not in table:
                self.fail(key, "缺少必填项（missing）")
        self.text(table["source"], "source")
        for key in ("other_side_may_choose", "penalties_waivable_by_agreement"):
            if key in table and not isinstance(table[key], bool):
                self.fail(key, "应为 true/false（expected a boolean）")
        self.appeal(table["appeal"])
        if table.get("escalation") is not None:
            self.escalation(table["escalation"])
        if table.get("points_clamp") is not None:
            self.clamp(table["points_clamp"])
        self.offences(table["offences"])
        if self.other_side_options and not table["other_side_may_choose"]:
            self.fail("other_side_may_choose", "表中有由非违规方选择的处罚，此处却为 false"
                      "（other side chooses somewhere but the flag is false）")

    def appeal(self, appeal):
        self.mapping(appeal, "appeal")
        self.known_keys(appeal, APPEAL_KEYS, "appeal")
        self.integer(appeal.get("deadline_minutes"), "appeal.deadline_minutes", minimum=1)
        self.choice_of(appeal.get("counted_from"), APPEAL_FROM, "appeal.counted_from")
        self.choice_of(appeal.get("to"), APPEAL_BODIES, "appeal.to")
        if appeal.get("then") is not None:
            self.choice_of(appeal["then"], APPEAL_BODIES, "appeal.then")
        self.text(appeal.get("clause"), "appeal.clause")
        if not isinstance(appeal.get("organiser_choice", False), bool):
            self.fail("appeal.organiser_choice", "应为 true 或 false（expected true or false）")

    def escalation(self, escalation):
        self.mapping(escalation, "escalation")
        self.known_keys(escalation, ESCALATION_KEYS, "escalation")
        for key in ("warning_becomes_violation_from", "match_forfeit_at_violations"):
            if key in escalation:
                self.integer(escalation[key], f"escalation.{key}", minimum=1)

    def clamp(self, clamp):
        if not isinstance(clamp, (list, tuple)) or len(clamp) != 2:
            self.fail("points_clamp", "应为 [下限, 上限]（expected [low, high]）")
        low = self.integer(clamp[0], "points_clamp[0]", minimum=-10_000, step=5)
        high = self.integer(clamp[1], "points_clamp[1]", minimum=-10_000, step=5)
        if low >= high:
            self.fail("points_clamp", "下限须小于上限（low must be below high）")

    def offences(self, offences):
        self.mapping(offences, "offences")
        if not offences:
            self.fail("offences", "至少列出一项违规（no offences）")
        for code, node in offences.items():
            path = f"offences.{code}"
            if code not in CODES:
                self.fail(path, f"未知的违规代码 {code!r}（unknown code）")
            self.mapping(node, path)
            self.text(node.get("name"), f"{path}.name")
            self.text(node.get("clause"), f"{path}.clause")
            if node.get("waivable_by_other_side"):
                self.other_side_options = True
            self.node(node, path, extra=OFFENCE_KEYS, role=None, in_options=False)

    # --- nodes -----------------------------------------------------------------------------

    def node(self, node, path, *, extra=frozenset(), role, in_options):
        self.mapping(node, path)
        structure = [key for key in STRUCTURE_KEYS if key in node]
        if len(structure) > 1:
            self.fail(path, f"只能有一种结构，却有 {structure}（more than one of {STRUCTURE_KEYS}）")
        if not structure:
            allowed = OUTCOME_KEYS
        elif structure == ["options"]:
            allowed = {"options"} | OPTIONS_KEYS
        else:
            allowed = set(structure)
        self.known_keys(node, allowed | META_KEYS | set(extra), path)
        for key in ("clause", "note"):
            if key in node:
                self.text(node[key], f"{path}.{key}")
        if not structure:
            self.outcome(node, path, role)
        elif structure == ["options"]:
            if in_options:
                self.fail(path, "同一路径上只能有一处 options（nested options）")
            self.options(node, path, role)
        elif structure == ["by_role"]:
            self.by_role(node["by_role"], f"{path}.by_role", in_options)
        elif structure == ["steps"]:
            self.steps(node["steps"], f"{path}.steps", role, in_options)
        else:
            self.bands(node["bands"], f"{path}.bands", role, in_options)

    def options(self, node, path, role):
        options = self.mapping(node["options"], f"{path}.options")
        if not options:
            self.fail(f"{path}.options", "至少一个选项（no options）")
        chooser = node.get("chooser", "referee")
        self.choice_of(chooser, CHOOSERS, f"{path}.chooser")
        self.other_side_options |= chooser == "other_side"
        default = node.get("default")
        if default is None and chooser != "other_side":
            self.fail(f"{path}.default", "裁判员选择时须有默认选项（a referee choice needs a default）")
        if default is not None and str(default) not in {str(k) for k in options}:
            self.fail(f"{path}.default", f"默认选项 {default!r} 不在选项中（default not an option）")
        seen = {}
        for option_id, option in options.items():
            option_path = f"{path}.options.{option_id}"
            self.mapping(option, option_path)
            self.text(option.get("label"), f"{option_path}.label")
            for name in [str(option_id), *option.get("aliases", [])]:
                if str(name) in seen:
                    self.fail(option_path, f"选项名 {name!r} 重复（duplicate option name or alias）")
                seen[str(name)] = option_id
            self.node(option, option_path, extra=OPTION_KEYS, role=role, in_options=True)

    def by_role(self, roles, path, in_options):
        self.mapping(roles, path)
        if not roles:
            self.fail(path, "至少一个角色（no roles）")
        for role, sub in roles.items():
            if role not in ROLES:
                self.fail(f"{path}.{role}", f"未知角色 {role!r}，应为 declarers/defenders（unknown role）")
            self.node(sub, f"{path}.{role}", role=role, in_options=in_options)

    def steps(self, steps, path, role, in_options):
        if not isinstance(steps, (list, tuple)) or not steps:
            self.fail(path, "应为非空列表（expected a non-empty list）")
        for index, step in enumerate(steps):
            self.node(step, f"{path}[{index}]", role=role, in_options=in_options)

    def bands(self, bands, path, role, in_options):
        if not isinstance(bands, (list, tuple)) or not bands:
            self.fail(path, "应为非空列表（expected a non-empty list）")
        previous_end = -1
        for index, band in enumerate(bands):
            band_path = f"{path}[{index}]"
            self.mapping(band, band_path)
            if previous_end is None:
                self.fail(band_path, "无上限的分段之后不能再有分段（band after an open-ended band）")
            start = self.integer(band.get("from"), f"{band_path}.from")
            end = band.get("to")
            if end is not None and self.integer(end, f"{band_path}.to") < start:
                self.fail(f"{band_path}.to", "上限小于下限（to below from）")
            if start <= previous_end:
                self.fail(band_path, f"分钟分段重叠或未按升序（overlapping minute bands: {start} <= {previous_end}）")
            previous_end = end
            self.node(band, band_path, extra=BAND_KEYS, role=role, in_options=in_options)

    def outcome(self, node, path, role):
        for kind in node.get("kinds", []):
            if kind in DERIVED_KINDS:
                self.fail(f"{path}.kinds", f"{kind!r} 由引擎推出，请改写相应字段（derived kind, set the field instead）")
            if kind not in EXPLICIT_KINDS:
                self.fail(f"{path}.kinds", f"未知的处罚种类 {kind!r}（unknown kind）")
        if "points" in node and "per_card" in node:
            self.fail(path, "points 与 per_card 只能有一个（both points and per_card）")
        if "points" in node:
            self.integer(node["points"], f"{path}.points", step=5)
        if "per_card" in node:
            self.integer(node["per_card"], f"{path}.per_card", minimum=5, step=5)
        for key, allowed in ENUMS.items():
            if key in node:
                self.choice_of(node[key], allowed, f"{path}.{key}")
        if "stage" in node and role != "declarers":
            self.fail(f"{path}.stage", "只有庄家方违规才会下台，须写在 by_role.declarers 之下"
                      "（stage change only under by_role.declarers）")
        self.level_gain(node, path)
        for key in FLAGS:
            if key in node and not isinstance(node[key], bool):
                self.fail(f"{path}.{key}", "应为 true/false（expected a boolean）")
        if "drop_to" in node:
            drops = self.mapping(node["drop_to"], f"{path}.drop_to")
            for high, low in drops.items():
                self.choice_of(str(high), LEVELS, f"{path}.drop_to")
                self.choice_of(str(low), LEVELS, f"{path}.drop_to.{high}")

    def level_gain(self, node, path):
        levels = self.integer(node.get("levels", 0), f"{path}.levels")
        if "levels_per_points" in node:
            self.integer(node["levels_per_points"], f"{path}.levels_per_points", minimum=5, step=5)
        if "max_levels" in node:
            if "levels_per_points" not in node:
                self.fail(f"{path}.max_levels", "须与 levels_per_points 同用（needs levels_per_points）")
            self.integer(node["max_levels"], f"{path}.max_levels", minimum=1)
        gains = levels or "levels_per_points" in node
        if gains and "gainer" not in node:
            self.fail(f"{path}.gainer", "有升级时须写明谁升级（levels without gainer）")
        if "gainer" in node and not gains:
            self.fail(f"{path}.levels", "写了 gainer 却没有升级数（gainer without levels）")


def validate_sanctions(mapping, source):
    """Check one sanction table; raise ValueError naming ``source``, the key path and the problem."""
    _Checker(source).table(mapping)
    return mapping
