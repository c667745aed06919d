"""Organiser choices: named readings of an unclear clause, each a set of key paths → values (pure).

A profile's ``organiser_defaults`` may hold entries ``{choice, clause, default, readings: {id: {label,
set}}}`` (the clause and each label may have an English twin, ``clause_en`` and ``label_en``, for English
pages). Here they are checked (every reading's paths exist, no two choices set the same key, the default
reading says what a shipped file says, every other reading still makes a valid profile) and applied
(:func:`patch`). Re-exported by :mod:`scoring.profiles`.
"""
from __future__ import annotations

import copy
from typing import Any

from common.errors import gettext_noop

from .profile_schema import MISSING, ProfileError, find_path, validate_body


def validate_profile_dict(data: Any, source: str = "<dict>") -> dict:
    """Validate a profile mapping (its organiser choices too); return a normalised deep copy or raise
    :class:`ProfileError`."""
    out = validate_body(data, source)
    specs = choice_specs(out)
    _check_choices(out, specs, source)
    return out


def choice_specs(d: dict) -> dict:
    """{choice name: spec} for the organiser choices a (validated) profile dict declares."""
    return {e["choice"]: e for e in d["organiser_defaults"] if isinstance(e, dict)}


def _check_choices(d: dict, specs: dict, source: str) -> None:
    setters: dict = {}
    for i, entry in enumerate(d["organiser_defaults"]):
        if not isinstance(entry, dict):
            continue
        path = f"organiser_defaults[{i}]"
        if sum(1 for e in d["organiser_defaults"] if isinstance(e, dict) and e["choice"] == entry["choice"]) > 1:
            raise ProfileError(source, f"{path}.choice", gettext_noop("choice %(name)r is named twice"),
                               name=entry["choice"])
        if entry["default"] not in entry["readings"]:
            raise ProfileError(source, f"{path}.default",
                               gettext_noop("the default %(value)r is not one of the readings %(allowed)s"),
                               value=entry["default"], allowed=list(entry["readings"]))
        for rid, reading in entry["readings"].items():
            for key_path, value in reading["set"].items():
                where = f"{path}.readings.{rid}.set.{key_path}"
                if find_path(d, key_path) is MISSING:
                    raise ProfileError(source, where, gettext_noop("key path %(key)r does not exist"),
                                       key=key_path)
                owner = setters.setdefault(key_path, entry["choice"])
                if owner != entry["choice"]:
                    raise ProfileError(source, where,
                                       gettext_noop("choices %(one)r and %(other)r set the same key"),
                                       one=owner, other=entry["choice"])
                if (rid == entry["default"] and source.endswith(".yaml")   # a shipped file, not an edited copy
                        and _normal(d, key_path, value, source) != find_path(d, key_path)):
                    raise ProfileError(source, where,
                                       gettext_noop("the default reading must say what the file says"))
            if rid != entry["default"]:
                patch(d, {entry["choice"]: rid}, specs, f"{source} ({entry['choice']}={rid})")
    check_picks(d["choices"], specs, source)


def _normal(d: dict, key_path: str, value: Any, source: str) -> Any:
    """``value`` normalised as the profile would hold it at ``key_path``."""
    trial = copy.deepcopy(d)
    node = trial
    parts = key_path.split(".")
    for part in parts[:-1]:
        node = node[part]
    node[parts[-1]] = copy.deepcopy(value)
    return find_path(validate_body(trial, source), key_path)


def check_picks(picks: Any, specs: dict, source: str) -> dict:
    """The organiser's picks {choice: reading}, checked against the declared choices."""
    if not isinstance(picks, dict):
        raise ProfileError(source, "choices", gettext_noop("must be a mapping"))
    for name, rid in picks.items():
        if name not in specs:
            raise ProfileError(source, f"choices.{name}", gettext_noop("unknown choice %(name)r; choices: %(allowed)s"),
                               name=name, allowed=sorted(specs))
        if rid not in specs[name]["readings"]:
            raise ProfileError(source, f"choices.{name}",
                               gettext_noop("%(value)r is not a reading of %(name)s; readings: %(allowed)s"),
                               value=rid, name=name, allowed=list(specs[name]["readings"]))
    return dict(picks)


def patch(d: dict, picks: dict, specs: dict, source: str) -> dict:
    """A validated copy of ``d`` with the picked readings' values set (the default readings are the file)."""
    out = copy.deepcopy(d)
    # a shallower path first: a reading that sets a whole node (003's failed_throw_fine) must not undo another
    # choice's key inside it (failed_throw_cards), whatever the order of the picks
    sets = sorted(((key_path, value) for name, rid in picks.items()
                   for key_path, value in specs[name]["readings"][rid]["set"].items()),
                  key=lambda item: item[0].count("."))
    for key_path, value in sets:
        node = out
        parts = key_path.split(".")
        for part in parts[:-1]:
            node = node[part]
        node[parts[-1]] = copy.deepcopy(value)
    out["choices"] = {}
    result = validate_body(out, source)
    result["choices"] = dict(picks)
    return result
