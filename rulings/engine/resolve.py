"""Resolving one offence's node of a sanction table into an outcome, and the outcome's values (pure)."""
from __future__ import annotations

from dataclasses import dataclass, field

from common.errors import UserError, gettext_noop
from rulings.sanction_tables import band_matches

from .phrases import item
from .values import Effect, other_side


@dataclass
class Walk:
    """What resolving one offence collected on the way down its table node."""

    clause: str
    notes: list
    chosen: str | None = None
    chooser: str | None = None
    options: tuple = ()
    labels: dict = field(default_factory=dict)
    used_minutes: bool = False
    used_steps: bool = False
    used_role: bool = False
    pending: bool = False


class Resolver:
    """Walks one offence's node: options by choice, steps by repeat, bands by minutes, by_role."""

    def __init__(self, offence, occurrence, slug):
        self.offence = offence
        self.occurrence = occurrence
        self.slug = slug

    def resolve(self, node, path):
        path.clause = node.get("clause", path.clause)
        if node.get("note"):
            path.notes.append(item("note", text=node["note"]))
        for key, step in (("options", self._option), ("steps", self._step),
                          ("bands", self._band), ("by_role", self._role)):
            if key in node:
                sub = step(node, path)
                return {} if sub is None else self.resolve(sub, path)
        return node

    def _option(self, node, path):
        options = {str(key): value for key, value in node["options"].items()}
        path.chooser = node.get("chooser", "referee")
        path.options = tuple(options)
        path.labels = {key: value["label"] for key, value in options.items()}
        wanted = self.offence.choice
        if wanted is None:
            if node.get("default") is None:
                path.pending = True
                return None
            wanted = str(node["default"])
        path.chosen = self._match_option(options, wanted)
        return options[path.chosen]

    def _match_option(self, options, wanted):
        for key, option in options.items():
            if str(wanted) == key or str(wanted) in map(str, option.get("aliases", [])):
                return key
        raise UserError(gettext_noop("%(value)r is not a sanction to choose for this offence; choose %(allowed)s."),
                        field="choice", value=wanted, allowed="/".join(options))

    def _step(self, node, path):
        path.used_steps = True
        steps = node["steps"]
        return steps[min(self.occurrence, len(steps)) - 1]

    def _band(self, node, path):
        seconds = self.offence.late_seconds
        if seconds is None:
            raise UserError(gettext_noop("This offence needs the number of minutes."), field="minutes")
        path.used_minutes = True
        bands = node["bands"]
        for index, band in enumerate(bands):
            if band_matches(band, seconds, bands[index + 1] if index + 1 < len(bands) else None):
                return band
        path.notes.append(item("below_threshold"))
        return None

    def _role(self, node, path):
        roles = node["by_role"]
        role = self.offence.role
        if role is None and len(roles) == 1:
            return next(iter(roles.values()))
        path.used_role = True
        if role is None:
            raise UserError(gettext_noop("The sanction for this offence depends on whether the offenders are "
                                         "declarers or defenders: give the offenders' role."), field="role")
        if role not in roles:
            raise UserError(gettext_noop("These rules give no sanction for this offence by the side in that role."),
                            field="role")
        return roles[role]


# --- turning an outcome into a Sanction -------------------------------------------------------

def outcome_points(outcome, offence):
    if "per_card" not in outcome:
        return outcome.get("points", 0)
    cards = offence.cards
    if cards is None:
        raise UserError(gettext_noop("This offence needs the number of cards."), field="cards")
    if cards < 1:
        raise UserError(gettext_noop("Enter at least 1 card, not %(value)s."), field="cards", value=cards)
    return outcome["per_card"] * cards


def effect_of(outcome, side):
    def to_side(relative):
        return {"other": other_side(side), "offender": side}.get(relative)

    return Effect(
        stage=to_side(outcome.get("stage")), gainer=to_side(outcome.get("gainer")),
        levels=outcome.get("levels", 0), next_declarer=outcome.get("next_declarer"),
        drop_to=tuple((str(k), str(v)) for k, v in outcome.get("drop_to", {}).items()),
        levels_per_points=outcome.get("levels_per_points"), max_levels=outcome.get("max_levels"),
        levels_from_points=outcome.get("levels_from_points", 0),
        drop_keeps_levels=outcome.get("drop_keeps_levels", False),
        points_void=outcome.get("points_void", False), redeal=outcome.get("redeal", False),
        hand_ends=outcome.get("hand_ends", False),
        applies_to=outcome.get("applies_to", "current_hand"))


def kinds_of(outcome, points, effect, pending):
    kinds = set(outcome.get("kinds", ()))
    if points:
        kinds.add("points")
    if effect.levels or effect.levels_per_points:
        kinds.add("levels")
    if effect.stage:
        kinds.add("step_down")
    if pending:
        kinds.add("choice")
    return kinds
