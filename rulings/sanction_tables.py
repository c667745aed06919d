"""Sanction tables: the per-profile data the sanction engine reads, and their validation (pure).

A table is the mapping under a rule profile's ``sanctions:`` key. Top level:

    source: str                        the rule document it comes from
    other_side_may_choose: bool        may the non-offending side ever choose (options or waive)?
    penalties_waivable_by_agreement: bool   both sides may agree to play without the penalty clauses
    appeal: {deadline_minutes (null: no limit), counted_from (round_results_published | table_end_of_play),
             to, then, clause}
    escalation: {warning_becomes_violation_from, match_forfeit_at_violations, clause,
                 warnings_converted: from_nth | nth_only, counted_per: side | player}   optional
    points_clamp: [low, high]          optional: the score range after penalties
    shared: ...                        ignored: a home for YAML anchors
    offences: {code: node}

A *node* says how one offence turns into an outcome. It is one of:

    bands:   [{from | over, to?, ...node}]   chosen by the lateness (``minutes`` and ``seconds``):
                                       ``from: m`` at least m minutes, ``over: m`` more than m minutes,
                                       ``to: m`` at most m minutes; without ``to`` a band runs up to
                                       the next band's start (ascending, no overlap)
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
                                       other side does not go up (unless ``drop_keeps_levels``)
        drop_keeps_levels: bool        the other side still goes up ``levels`` when the drop applies
        automatic: bool                a match forfeit that applies without the chief referee's
                                       approval (the document makes it automatic, e.g. lateness)
        levels_per_points: int, max_levels: int    levels from the defenders' points at the end of
                                       the hand, to ``gainer`` (union-games bury, 003 一.19)
        levels_from_points: int        the points those levels count from (default 0; 80: the first
                                       level at 120, as the take-over table would; needs levels_per_points)
        points_void, redeal, hand_ends: bool
Any node may carry ``clause`` (innermost wins) and ``note`` (notes add up); an offence also has
``name`` and may carry ``waivable_by_other_side`` and ``cards: {label}`` (which cards the referee counts
for ``per_card``: the console's question, e.g. 003's blocked cards or cards taken back); an option also has ``label`` and ``aliases``. Each of
``name``, ``clause``, ``note`` and ``label`` (and the appeal's and the escalation's ``clause``) may have an
English twin (``name_en``, ``clause_en``, ...) that English pages show (optional: else the Chinese text); a
twin needs its Chinese key.
Only one ``options`` node may lie on any path, so a single ``choice`` string selects it.
"""
from __future__ import annotations

from collections.abc import Mapping

from common.errors import UserError, gettext_noop

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
APPEAL_KEYS = {"deadline_minutes", "counted_from", "to", "then", "clause", "clause_en", "organiser_choice"}
APPEAL_FROM = ("round_results_published", "table_end_of_play")
APPEAL_BODIES = ("chief_referee", "arbitration_group", "referee_group", "organising_committee")
ESCALATION_KEYS = {"warning_becomes_violation_from", "match_forfeit_at_violations", "clause", "clause_en",
                   "warnings_converted", "counted_per"}
ESCALATION_ENUMS = {"warnings_converted": ("from_nth", "nth_only"), "counted_per": ("side", "player")}

STRUCTURE_KEYS = ("options", "by_role", "steps", "bands")
OUTCOME_KEYS = {"kinds", "points", "per_card", "applies_to", "gainer", "levels", "stage",
                "next_declarer", "drop_to", "levels_per_points", "max_levels", "levels_from_points",
                "points_void", "redeal", "hand_ends", "automatic", "drop_keeps_levels"}
META_KEYS = {"clause", "note", "clause_en", "note_en"}
OFFENCE_KEYS = {"name", "name_en", "waivable_by_other_side", "cards"}
CARDS_KEYS = {"label", "label_en"}
OPTION_KEYS = {"label", "label_en", "aliases"}
OPTIONS_KEYS = {"chooser", "default"}
BAND_KEYS = {"from", "over", "to"}
ENUMS = {"applies_to": ("current_hand", "first_hand"), "gainer": ("other", "offender"),
         "stage": ("other",), "next_declarer": ("next", "same", "partner")}
FLAGS = ("points_void", "redeal", "hand_ends", "automatic", "drop_keeps_levels")

class SanctionTableError(UserError):
    """A sanction table is invalid: ``str()`` is '<source>: sanctions.<path>: <problem>'; ``field`` the path."""

    def __init__(self, source, path, message, **params):
        self.source = source
        super().__init__(message, field=f"sanctions.{path}", **params)

    @property
    def text(self):
        return f"{self.source}: {self.field}: {UserError.text.fget(self)}"

    def __reduce__(self):
        return (_rebuild, (self.source, self.field.removeprefix("sanctions."), self.message, self.params))


def _rebuild(source, path, message, params):
    return SanctionTableError(source, path, message, **params)


class _Checker:
    """Walks one table and raises :class:`SanctionTableError` at the first defect."""

    def __init__(self, source):
        self.source = source
        self.other_side_options = False

    def fail(self, path, message, **params):
        raise SanctionTableError(self.source, path, message, **params)

    def mapping(self, value, path):
        if not isinstance(value, Mapping):
            self.fail(path, gettext_noop("expected a mapping, got %(type)s"), type=type(value).__name__)
        return value

    def known_keys(self, node, allowed, path):
        for key in node:
            if key not in allowed:
                self.fail(f"{path}.{key}", gettext_noop("unknown key"))

    def integer(self, value, path, *, minimum=0, step=1):
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(path, gettext_noop("expected an integer, got %(value)r"), value=value)
        if value < minimum:
            self.fail(path, gettext_noop("must be >= %(minimum)s, got %(value)s"), minimum=minimum, value=value)
        if value % step:
            self.fail(path, gettext_noop("points not a multiple of %(step)s: %(value)s"), step=step, value=value)
        return value

    def text(self, value, path):
        if not isinstance(value, str) or not value.strip():
            self.fail(path, gettext_noop("expected non-empty text"))

    def english(self, node, path, keys):
        """The optional English twins (``name_en``, ``clause_en``, ...) of ``keys``: text, beside their
        Chinese key."""
        for key in keys:
            if f"{key}_en" in node:
                if key not in node:   # an English twin needs the Chinese text it translates
                    self.fail(f"{path}.{key}", gettext_noop("this key is missing"))
                self.text(node[f"{key}_en"], f"{path}.{key}_en")

    def choice_of(self, value, allowed, path):
        if value not in allowed:
            self.fail(path, gettext_noop("unknown value %(value)r: expected %(allowed)s"), value=value,
                      allowed="/".join(allowed))

    # --- top level -------------------------------------------------------------------------

    def table(self, table):
        self.mapping(table, "(top)")
        self.known_keys(table, TOP_KEYS, "(top)")
        for key in ("source", "other_side_may_choose", "appeal", "offences"):
            if key not in table:
                self.fail(key, gettext_noop("missing"))
        self.text(table["source"], "source")
        for key in ("other_side_may_choose", "penalties_waivable_by_agreement"):
            if key in table and not isinstance(table[key], bool):
                self.fail(key, gettext_noop("expected a boolean"))
        self.appeal(table["appeal"])
        if table.get("escalation") is not None:
            self.escalation(table["escalation"])
        if table.get("points_clamp") is not None:
            self.clamp(table["points_clamp"])
        self.offences(table["offences"])
        if self.other_side_options and not table["other_side_may_choose"]:
            self.fail("other_side_may_choose", gettext_noop("the other side chooses somewhere but the flag is false"))

    def appeal(self, appeal):
        self.mapping(appeal, "appeal")
        self.known_keys(appeal, APPEAL_KEYS, "appeal")
        if "deadline_minutes" not in appeal:
            self.fail("appeal.deadline_minutes", gettext_noop("this key is missing"))
        if appeal["deadline_minutes"] is not None:   # null: no time limit (003 二.5, 004 九.6 set none)
            self.integer(appeal["deadline_minutes"], "appeal.deadline_minutes", minimum=1)
        self.choice_of(appeal.get("counted_from"), APPEAL_FROM, "appeal.counted_from")
        self.choice_of(appeal.get("to"), APPEAL_BODIES, "appeal.to")
        if appeal.get("then") is not None:
            self.choice_of(appeal["then"], APPEAL_BODIES, "appeal.then")
        self.text(appeal.get("clause"), "appeal.clause")
        self.english(appeal, "appeal", ("clause",))
        if not isinstance(appeal.get("organiser_choice", False), bool):
            self.fail("appeal.organiser_choice", "应为 true 或 false（expected true or false）")

    def escalation(self, escalation):
        self.mapping(escalation, "escalation")
        self.known_keys(escalation, ESCALATION_KEYS, "escalation")
        for key in ("warning_becomes_violation_from", "match_forfeit_at_violations"):
            if key in escalation:
                self.integer(escalation[key], f"escalation.{key}", minimum=1)
        for key, allowed in ESCALATION_ENUMS.items():
            if key in escalation:
                self.choice_of(escalation[key], allowed, f"escalation.{key}")
        self.english(escalation, "escalation", ("clause",))

    def clamp(self, clamp):
        if not isinstance(clamp, (list, tuple)) or len(clamp) != 2:
            self.fail("points_clamp", gettext_noop("expected [low, high]"))
        low = self.integer(clamp[0], "points_clamp[0]", minimum=-10_000, step=5)
        high = self.integer(clamp[1], "points_clamp[1]", minimum=-10_000, step=5)
        if low >= high:
            self.fail("points_clamp", gettext_noop("low must be below high"))

    def offences(self, offences):
        self.mapping(offences, "offences")
        if not offences:
            self.fail("offences", gettext_noop("no offences"))
        for code, node in offences.items():
            path = f"offences.{code}"
            if code not in CODES:
                self.fail(path, gettext_noop("unknown code %(code)r"), code=code)
            self.mapping(node, path)
            self.text(node.get("name"), f"{path}.name")
            self.english(node, path, ("name",))
            self.text(node.get("clause"), f"{path}.clause")
            if node.get("waivable_by_other_side"):
                self.other_side_options = True
            if "cards" in node:
                self.mapping(node["cards"], f"{path}.cards")
                self.known_keys(node["cards"], CARDS_KEYS, f"{path}.cards")
                self.text(node["cards"].get("label"), f"{path}.cards.label")
                self.english(node["cards"], f"{path}.cards", ("label",))
            self.node(node, path, extra=OFFENCE_KEYS, role=None, in_options=False)

    # --- nodes -----------------------------------------------------------------------------

    def node(self, node, path, *, extra=frozenset(), role, in_options):
        self.mapping(node, path)
        structure = [key for key in STRUCTURE_KEYS if key in node]
        if len(structure) > 1:
            self.fail(path, gettext_noop("more than one of %(allowed)s: %(value)s"), allowed=STRUCTURE_KEYS,
                      value=structure)
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
        self.english(node, path, ("clause", "note"))
        if not structure:
            self.outcome(node, path, role)
        elif structure == ["options"]:
            if in_options:
                self.fail(path, gettext_noop("nested options"))
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
            self.fail(f"{path}.options", gettext_noop("no options"))
        chooser = node.get("chooser", "referee")
        self.choice_of(chooser, CHOOSERS, f"{path}.chooser")
        self.other_side_options |= chooser == "other_side"
        default = node.get("default")
        if default is None and chooser != "other_side":
            self.fail(f"{path}.default", gettext_noop("a referee choice needs a default"))
        if default is not None and str(default) not in {str(k) for k in options}:
            self.fail(f"{path}.default", gettext_noop("default not an option: %(value)r"), value=default)
        seen = {}
        for option_id, option in options.items():
            option_path = f"{path}.options.{option_id}"
            self.mapping(option, option_path)
            self.text(option.get("label"), f"{option_path}.label")
            self.english(option, option_path, ("label",))
            for name in [str(option_id), *option.get("aliases", [])]:
                if str(name) in seen:
                    self.fail(option_path, gettext_noop("duplicate option name or alias %(value)r"), value=name)
                seen[str(name)] = option_id
            self.node(option, option_path, extra=OPTION_KEYS, role=role, in_options=True)

    def by_role(self, roles, path, in_options):
        self.mapping(roles, path)
        if not roles:
            self.fail(path, gettext_noop("no roles"))
        for role, sub in roles.items():
            if role not in ROLES:
                self.fail(f"{path}.{role}", gettext_noop("unknown role %(value)r: expected declarers/defenders"),
                          value=role)
            self.node(sub, f"{path}.{role}", role=role, in_options=in_options)

    def steps(self, steps, path, role, in_options):
        if not isinstance(steps, (list, tuple)) or not steps:
            self.fail(path, gettext_noop("expected a non-empty list"))
        for index, step in enumerate(steps):
            self.node(step, f"{path}[{index}]", role=role, in_options=in_options)

    def bands(self, bands, path, role, in_options):
        if not isinstance(bands, (list, tuple)) or not bands:
            self.fail(path, gettext_noop("expected a non-empty list"))
        previous = None           # (lower bound in seconds, exclusive?), upper bound in seconds or None
        for index, band in enumerate(bands):
            band_path = f"{path}[{index}]"
            self.mapping(band, band_path)
            if ("from" in band) == ("over" in band):
                self.fail(band_path, gettext_noop("one of from / over"))
            key = "from" if "from" in band else "over"
            lower = (self.integer(band[key], f"{band_path}.{key}") * 60, key == "over")
            end = band.get("to")
            if end is not None and self.integer(end, f"{band_path}.to") * 60 < lower[0] + lower[1]:
                self.fail(f"{band_path}.to", gettext_noop("to below from"))
            if previous is not None and not _after(lower, *previous):
                self.fail(band_path, gettext_noop("overlapping minute bands at %(value)s"), value=band[key])
            previous = (lower, None if end is None else end * 60)
            self.node(band, band_path, extra=BAND_KEYS, role=role, in_options=in_options)

    def outcome(self, node, path, role):
        for kind in node.get("kinds", []):
            if kind in DERIVED_KINDS:
                self.fail(f"{path}.kinds", gettext_noop("%(value)r is a derived kind: set the field instead"),
                          value=kind)
            if kind not in EXPLICIT_KINDS:
                self.fail(f"{path}.kinds", gettext_noop("unknown kind %(value)r"), value=kind)
        if "points" in node and "per_card" in node:
            self.fail(path, gettext_noop("both points and per_card"))
        if "points" in node:
            self.integer(node["points"], f"{path}.points", step=5)
        if "per_card" in node:
            self.integer(node["per_card"], f"{path}.per_card", minimum=5, step=5)
        for key, allowed in ENUMS.items():
            if key in node:
                self.choice_of(node[key], allowed, f"{path}.{key}")
        if "stage" in node and role != "declarers":
            self.fail(f"{path}.stage", gettext_noop("a stage change only under by_role.declarers"))
        self.level_gain(node, path)
        for key in FLAGS:
            if key in node and not isinstance(node[key], bool):
                self.fail(f"{path}.{key}", gettext_noop("expected a boolean"))
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
                self.fail(f"{path}.max_levels", gettext_noop("max_levels needs levels_per_points"))
            self.integer(node["max_levels"], f"{path}.max_levels", minimum=1)
        if "levels_from_points" in node:
            if "levels_per_points" not in node:
                self.fail(f"{path}.levels_from_points", gettext_noop("levels_from_points needs levels_per_points"))
            self.integer(node["levels_from_points"], f"{path}.levels_from_points", minimum=0, step=5)
        gains = levels or "levels_per_points" in node
        if gains and "gainer" not in node:
            self.fail(f"{path}.gainer", gettext_noop("levels without gainer"))
        if "gainer" in node and not gains:
            self.fail(f"{path}.levels", gettext_noop("gainer without levels"))


def _after(lower, previous_lower, previous_end):
    """True when a band starting at ``lower`` starts after the previous band (its end, else its start)."""
    if previous_end is not None:
        return lower[0] > previous_end or (lower[0] == previous_end and lower[1])
    return lower > previous_lower


def band_matches(band, seconds, next_band=None):
    """True when a lateness of ``seconds`` falls in ``band`` (see the module docstring)."""
    if "from" in band:
        if seconds < band["from"] * 60:
            return False
    elif seconds <= band["over"] * 60:
        return False
    if band.get("to") is not None:
        return seconds <= band["to"] * 60
    return next_band is None or not band_matches({**next_band, "to": None}, seconds)


def validate_sanctions(mapping, source):
    """Check one sanction table; raise :class:`SanctionTableError` naming ``source``, the key path and the problem."""
    _Checker(source).table(mapping)
    return mapping
