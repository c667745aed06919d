"""Print timings of the pure pairing functions.

Run from the repo root: ``.venv/bin/python bench/bench_pairings.py``.
Targets (issue 4): elimination_slots for 1,024 entries from 100 units under
0.1 s; round_robin of 64 under 10 ms.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.engines.pairings import draw_groups, elimination_slots, round_robin  # noqa: E402


def best_of(fn, repeat: int = 5) -> float:
    """Fastest of ``repeat`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    rng = random.Random(2024)
    entries = [f"pair-{i:04d}" for i in range(1024)]
    unit = {e: f"unit-{rng.randrange(100):03d}" for e in entries}
    few_units = {e: f"unit-{rng.randrange(3)}" for e in entries}
    figures = [
        ("elimination_slots, 1,024 entries from 100 units", 0.1,
         best_of(lambda: elimination_slots(entries, unit=unit.__getitem__))),
        ("elimination_slots, 1,000 entries from 3 units (many clashes)", 0.1,
         best_of(lambda: elimination_slots(entries[:1000], unit=few_units.__getitem__))),
        ("round_robin, 64 entries", 0.01, best_of(lambda: round_robin(entries[:64]))),
        ("draw_groups, 1,024 entries, 64 groups, 100 units, 64 seeded", None,
         best_of(lambda: draw_groups(entries, 64, "bench", unit.__getitem__, seeded=64))),
    ]
    for name, target, seconds in figures:
        verdict = "" if target is None else ("  OK" if seconds < target else f"  OVER {target:g} s")
        print(f"{name:<64} {seconds * 1000:8.2f} ms{verdict}")


if __name__ == "__main__":
    main()
