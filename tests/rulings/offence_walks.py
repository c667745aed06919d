"""Issue 43: every offence of every profile, under each organiser reading that changes a sanction, walked as the
referee console walks it (``static/js/console.js``): the menu's options when they always apply, else the
ones the preview names; minutes, cards and the role when the menu says the option needs them.

Shared by the fast test (``test_offence_matrix.py``, through the API) and the browser walk
(``test_offence_matrix_browser.py``).
"""
from __future__ import annotations

import dataclasses
import glob
from pathlib import Path

from rulings.presenters import offence_menu
from scoring.profiles import choice_specs, load_profile
from tournament.records.ledger import ledger_for

PROFILES = tuple(sorted(Path(p).stem for p in glob.glob(str(Path(__file__).resolve().parents[2]
                                                             / "fixtures" / "profiles" / "*.yaml"))))


def sanction_choices(slug) -> dict:
    """{organiser choice: its readings other than the default} for the choices that change a sanction (a key
    path under ``sanctions``, but the appeal's)."""
    out = {}
    for name, spec in choice_specs(load_profile(slug).data).items():
        paths = {path for reading in spec["readings"].values() for path in reading["set"]}
        if any(p.startswith("sanctions.") and not p.startswith("sanctions.appeal") for p in paths):
            out[name] = [rid for rid in spec["readings"] if rid != spec["default"]]
    return out


def variants():
    """(profile slug, organiser picks): each profile as shipped, then each other reading of a choice that
    changes a sanction (one at a time, the others as shipped)."""
    for slug in PROFILES:
        yield slug, {}
        for name, readings in sanction_choices(slug).items():
            for rid in readings:
                yield slug, {name: rid}


def internal_words(profile) -> set:
    """What the console must never show of ``profile``: its key, its offences' codes, its options' ids (those
    with letters: 40 is also a number of points)."""
    table = ledger_for(profile).table
    ids = set()

    def options(node):
        for key, sub in node.get("options", {}).items():
            ids.add(str(key))
            options(sub)
        for sub in [*node.get("steps", ()), *node.get("bands", ()), *node.get("by_role", {}).values()]:
            options(sub)

    for node in table["offences"].values():
        options(node)
    words = {profile.slug, profile.slug.split("--")[0], *table["offences"], *ids}
    return {w for w in words if any(c.isalpha() for c in w)}


def variant_id(variant) -> str:
    slug, picks = variant
    return slug + "".join(f"[{k}={v}]" for k, v in picks.items())


def changed_codes(slug, picks) -> set | None:
    """The offences whose sanction a reading changes (None: every one, when it changes the escalation)."""
    if not picks:
        return None
    base, other = load_profile(slug).sanctions, load_profile(slug, picks).sanctions
    if {k: v for k, v in base.items() if k != "offences"} != {k: v for k, v in other.items() if k != "offences"}:
        return None
    return {code for code, node in other["offences"].items() if base["offences"].get(code) != node}


@dataclasses.dataclass(frozen=True)
class Step:
    """One pass through the dialog: what the referee picks (``choice``: a menu option that always applies;
    None: the preview says whether there is one)."""

    code: str
    choice: str | None = None
    minutes: int | None = None
    cards: int | None = None
    role: str | None = None
    pick: str | None = None   # an option the preview offers only in some cases (the third time, ...): pick it


def _bands(node, found):
    """The minutes of each lateness band anywhere under ``node`` (one value inside each)."""
    for band in node.get("bands", ()):
        found.add(band["from"] if "from" in band else band["over"] + 1)
    for key in ("steps", "bands"):
        for sub in node.get(key, ()):
            _bands(sub, found)
    for sub in list(node.get("by_role", {}).values()) + list(node.get("options", {}).values()):
        _bands(sub, found)
    return found


def _repeats(node) -> int:
    """How many times in a row the offence must be recorded to reach every step of its ladder."""
    most = len(node.get("steps", ())) or 1
    for sub in (list(node.get("steps", ())) + list(node.get("bands", ())) + list(node.get("by_role", {}).values())
                + list(node.get("options", {}).values())):
        most = max(most, _repeats(sub))
    return most


def walks(profile, codes=None, *, every_path=True) -> list[list[Step]]:
    """The walks of ``profile`` (a stored RuleProfile), each a list of steps recorded in a row at one
    table by one side. ``every_path``: every option, band and role (else the menu's default path only, the
    smallest band that sanctions, the declarers, and the full ladder of an offence with repeats; an option offered
    in some cases only is walked each way either way)."""
    table = ledger_for(profile).table
    out = []
    for item in offence_menu(profile):
        code = item["code"]
        if codes is not None and code not in codes:
            continue
        node = table["offences"][code]
        choices = ([o["id"] for o in item["options"]] if every_path else [item["default"]]) if item["always"] \
            else [None]
        for choice in choices:
            needs = item["needs"].get(choice or "", item["needs"][""])
            minutes = sorted(_bands(node, set())) if "minutes" in needs else [None]
            minutes = ([0, *minutes] if every_path else minutes[:1]) if minutes != [None] else minutes
            roles = (["declarers", "defenders"] if every_path else ["declarers"]) if "role" in needs else [None]
            cards = 2 if "cards" in needs else None
            picks = [None]
            if not item["always"] and item["options"]:   # offered in some cases only: each is walked
                picks = [o["id"] for o in item["options"]]
            for late in minutes:
                for role in roles:
                    for pick in picks:
                        out.append([Step(code, choice, late, cards, role, pick)] * _repeats(node))
    return out
