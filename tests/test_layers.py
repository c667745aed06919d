"""The layers a reader sees in the folders hold: few packages use each other both ways, and a hand POST, once
its view runs, stays within the hand's app and the tournament app (whose records layer, ``tournament.records``,
reads the match's hands, rulings and kept state, and whose result service settles the match).

The pairs are counted as a reader meets them: two top-level packages, or two subpackages of one package, each
importing the other directly (``tools.import_contracts.mutual_pairs``). The trace counts the project's
top-level packages whose code runs after the view is entered (``sys.setprofile``); ``infra`` and ``common``
serve every app and are not counted.
"""
import json
import sys
from pathlib import Path

import grimp
import pytest

from scoring import services
from tests.scoring.test_hands_support import hand_body, match, referee  # noqa: F401  (fixtures)
from tools.import_contracts import mutual_pairs

ROOTS = ["common", "config", "demo", "infra", "rulings", "scoring", "tournament"]
NOT_COUNTED = {"infra", "common"}
PROJECT = Path(__file__).resolve().parent.parent


def test_at_most_five_pairs_of_packages_import_each_other_both_ways():
    pairs = set(mutual_pairs(grimp.build_graph(*ROOTS), ROOTS))
    assert len(pairs) <= 5, sorted(pairs)
    # the write path's own apps: the records layer sits below both services, never beside them
    assert not {pair for pair in pairs if "tournament.records" in pair}, sorted(pairs)


def _apps_after_view(call):
    """(the project's top-level packages whose code ran once the view module's code was entered, the modules
    of each) while ``call()`` runs."""
    view = str(PROJECT / "scoring" / "api.py")
    seen, entered = {}, []

    def profile(frame, event, arg):
        if event != "call":
            return
        filename = frame.f_code.co_filename
        if frame.f_code.co_name == "<module>":   # an import's own run (the URL patterns' first load, say)
            return
        if not entered:
            if filename == view:
                entered.append(True)
            else:
                return
        path = Path(filename)
        if not path.is_relative_to(PROJECT) or ".venv" in path.parts or path.parts[len(PROJECT.parts)] == "tests":
            return
        parts = path.relative_to(PROJECT).with_suffix("").parts
        seen.setdefault(parts[0], set()).add(".".join(part for part in parts if part != "__init__"))

    sys.setprofile(profile)
    try:
        response = call()
    finally:
        sys.setprofile(None)
    assert entered, "the view never ran"
    return response, {app: modules for app, modules in seen.items() if app not in NOT_COUNTED}


def _played(match, referee, hands):
    for number in range(1, hands + 1):
        services.record_hand(match, referee, number=number, trump="H", defender_points=120,
                             declarer="N" if number == 1 else None)


def _post(client, match, number):
    return lambda: client.post(f"/api/matches/{match.pk}/hands/", data=json.dumps(hand_body(number, 120)),
                               content_type="application/json", HTTP_IDEMPOTENCY_KEY=f"layers-{number}")


@pytest.mark.django_db
def test_a_hand_post_enters_two_apps_the_hands_and_the_tournaments(client, match, referee):
    """The table page's hand POST on a match with its kept state (every hand after the first, no ruling
    waiting): the hand service, the records layer, the clock, access and the result service."""
    _played(match, referee, 1)
    client.force_login(referee)
    assert _post(client, match, 2)().status_code == 201   # the first request loads the URL patterns' modules
    response, apps = _apps_after_view(_post(client, match, 3))
    assert response.status_code == 201, response.content
    assert set(apps) <= {"scoring", "tournament"}, apps
    assert any(module.startswith("tournament.records") for module in apps["tournament"]), apps


@pytest.mark.django_db
def test_a_hand_a_ruling_waits_for_also_runs_the_sanction_engine_and_nothing_else_of_rulings(client, match,
                                                                                          referee):
    """A ruling waiting for the hand in play: the hand replays the match's rulings through the penalty ledger,
    the sanction engine of ``rulings.engine`` (a contract name, so it stays in the rulings app); no ruling
    service, presenter or other module of the rulings app runs."""
    from rulings import services as rulings_

    _played(match, referee, 1)
    client.force_login(referee)
    assert _post(client, match, 2)().status_code == 201   # the first request loads the URL patterns' modules
    rulings_.record_ruling(match, referee, "delay", "NS")   # on hand 3, the hand in play: it waits for it
    response, apps = _apps_after_view(_post(client, match, 3))
    assert response.status_code == 201, response.content
    assert set(apps) <= {"scoring", "tournament", "rulings"}, apps
    engine = {m for m in apps.get("rulings", set()) if m == "rulings.engine" or m.startswith("rulings.engine.")}
    assert apps.get("rulings", set()) - engine <= {"rulings.sanction_tables"}, apps
