"""Print the pure standings/crosstable timing for 1,024 pairs in 64 groups of 16.

Run from the repo root: ``.venv/bin/python bench/bench_standings_pure.py``.
Every group plays a full round robin (120 matches per group, 7,680 in all);
the figure covers computing the standings and the crosstable of every group
(the issue's target for the whole page including SQL is 0.3 s; the pure part
should be well under 0.1 s).
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.engines.pairings import round_robin  # noqa: E402
from tournament.engines.standings import MatchResult, compute_standings, crosstable  # noqa: E402

LADDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER"]
ORDER = ("points", "net_levels", "total_levels", "lot")


def make_groups(rng: random.Random) -> list[tuple[list[str], list[MatchResult]]]:
    """64 groups of 16 pairs, every match played (a few forfeits)."""
    groups = []
    for g in range(64):
        entries = [f"g{g:02d}-p{i:02d}" for i in range(16)]
        results = []
        for rnd in round_robin(entries):
            for a, b in rnd:
                winner = a if rng.random() < 0.5 else b
                loser_level = LADDER[rng.randrange(len(LADDER) - 1)]
                level_a, level_b = ("JOKER", loser_level) if winner == a else (loser_level, "JOKER")
                results.append(MatchResult(a, b, winner, level_a, level_b, rng.random() < 0.02))
        groups.append((entries, results))
    return groups


def run(groups) -> None:
    for entries, results in groups:
        compute_standings(entries, results, ladder=LADDER, order=ORDER, lot_seed="bench")
        crosstable(entries, results)


def main() -> None:
    groups = make_groups(random.Random(7))
    timings = []
    for _ in range(5):
        start = time.perf_counter()
        run(groups)
        timings.append(time.perf_counter() - start)
    only_standings = min(
        _timed(lambda: [compute_standings(e, r, ladder=LADDER, order=ORDER, lot_seed=1) for e, r in groups])
        for _ in range(5)
    )
    label = "standings only, 1,024 pairs / 64 groups of 16, 7,680 results"
    print(f"{label:<64} {only_standings * 1000:8.2f} ms")
    best = min(timings)
    verdict = "OK" if best < 0.1 else "OVER 0.1 s"
    print(f"{'standings + crosstables, same event':<64} {best * 1000:8.2f} ms  {verdict}")


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
