"""Print timings of the pure Swiss pairing (tournament.engines.swiss.swiss_round).

Run from the repo root: ``.venv/bin/python bench/bench_swiss.py``.
Targets: one round of 64 entries under 0.5 s, 512 under 2 s, 4,096 under
30 s. For each size six fields are paired (n and n-1 entries, after 4, 5 and
6 simulated Swiss rounds, paired by swiss_round itself; random results from
a fixed seed: win 1, draw 1/2 about one game in ten, loss 0, bye 1); the
slowest pairing is printed beside the target. Exits non-zero if a target is
missed.
"""
from __future__ import annotations

import random
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournament.engines.swiss import swiss_round  # noqa: E402

ROUNDS_BEFORE = (4, 5, 6)
SIZES = [(64, 0.5), (512, 2.0), (4096, 30.0)]


def simulate(n: int, rounds: int, seed: int) -> dict:
    """A field of ``n`` entries after ``rounds`` Swiss rounds: the inputs of the next round."""
    rng = random.Random(seed)
    entries = list(range(1, n + 1))
    units = {e: (None if rng.random() < 0.1 else f"unit-{rng.randrange(max(2, n // 8))}")
             for e in entries}
    rating = {e: rng.random() for e in entries}  # fixed tie-break: the seeding order
    scores = {e: Fraction(0) for e in entries}
    played: set = set()
    had_bye: set = set()
    for r in range(rounds):
        ranking = sorted(entries, key=lambda e: (-scores[e], -rating[e]))
        pairs = swiss_round(ranking, scores, played, had_bye=had_bye, units=units, seed=r)
        for a, b in pairs:
            if b is None:
                had_bye.add(a)
                scores[a] += 1
                continue
            played.add(frozenset({a, b}))
            roll = rng.random()
            if roll < 0.1:
                scores[a] += Fraction(1, 2)
                scores[b] += Fraction(1, 2)
            else:
                scores[a if roll < 0.55 else b] += 1
    ranking = sorted(entries, key=lambda e: (-scores[e], -rating[e]))
    return {"ranking": ranking, "scores": scores, "played": played,
            "had_bye": had_bye, "units": units}


def main() -> int:
    missed = 0
    for n, target in SIZES:
        times = []
        rematches = 0
        for rounds in ROUNDS_BEFORE:
            for size in (n, n - 1):  # an even and an odd field (the odd one has a bye)
                field = simulate(size, rounds, seed=size * 10 + rounds)
                start = time.perf_counter()
                pairs = swiss_round(field["ranking"], field["scores"], field["played"],
                                    had_bye=field["had_bye"], units=field["units"], seed=rounds)
                times.append(time.perf_counter() - start)
                rematches += sum(1 for a, b in pairs
                                 if b is not None and frozenset({a, b}) in field["played"])
        slowest = max(times)
        verdict = "OK" if slowest < target else f"OVER {target:g} s"
        missed += slowest >= target
        name = f"swiss_round, {n:,} entries (slowest of {len(times)} fields)"
        print(f"{name:<48} {slowest:8.3f} s  (target {target:g} s)  {verdict}"
              f"   median {sorted(times)[len(times) // 2]:.3f} s, rematches: {rematches}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
