"""No module of the project is longer than a reader can hold: at most 450 lines. A module past it is split
along a real seam (what one part does that the other does not), never cut in halves. Migrations are
generated and left out; nothing else is exempt."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("common", "config", "demo", "infra", "rulings", "scoring", "tournament", "tools")
MOST = 450


def _modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.relative_to(ROOT).parts:
                yield path


def test_the_packages_hold_modules():
    assert sum(1 for _ in _modules()) > 100


def test_no_module_is_longer_than_450_lines():
    too_long = {}
    for path in _modules():
        with path.open(encoding="utf-8") as handle:
            lines = sum(1 for _ in handle)
        if lines > MOST:
            too_long[str(path.relative_to(ROOT))] = lines
    assert too_long == {}, f"modules over {MOST} lines (split them along a seam): {too_long}"
