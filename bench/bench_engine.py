"""Bench: replay 100,000 random legal hands through MatchState.play per rule profile.

Run from the repository root:  .venv/bin/python bench/bench_engine.py [hands] [seed]
Prints hands per second per profile (target: at least 50,000 on one core). A new match is started
whenever one is won. The random hands are generated before timing; only play() is timed.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import SEATS, LastTrick, MatchState  # noqa: E402
from scoring.profiles import known_profiles, load_profile  # noqa: E402

RANKS = ("3", "7", "10", "J", "Q", "K", "A")


def random_hand(rng: random.Random, reverse_capture: bool) -> tuple:
    """(first-hand declarer seat, play() keyword arguments) for one plausible hand."""
    points = min(200, max(0, int(rng.gauss(75, 40)) // 5 * 5))
    bottom = rng.randrange(0, min(40, 200 - points) + 5, 5)
    roll = rng.random()
    last = None
    if roll < 0.25:
        shape = rng.choice(("single", "single", "pair", "tractor"))
        pairs = rng.choice((2, 3)) if shape == "tractor" else 1
        last = LastTrick("defenders", shape, pairs, rng.random() < 0.7, rng.choice(RANKS))
    elif roll < 0.3 and reverse_capture:
        last = LastTrick("declarers", "pair", 1, True, None, buried_by="defenders")
    elif roll < 0.9:
        last = LastTrick("declarers", "single")
    kwargs = {"defender_points": points, "bottom_points": bottom, "last_trick": last}
    if rng.random() < 0.05:
        kwargs["penalty_points"] = rng.choice((-20, -10, 10, 20))
    return rng.choice(SEATS), kwargs


def replay(profile, hands) -> tuple:
    """Play ``hands`` through MatchState, restarting when a match is won; (seconds, matches won)."""
    state = MatchState.new(profile)
    fresh = state
    matches = 0
    start = time.perf_counter()
    for seat, kwargs in hands:
        if state.declarer is None:
            state = state.play(declarer=seat, **kwargs)
        else:
            state = state.play(**kwargs)
        if state.winner is not None:
            matches += 1
            state = fresh
    return time.perf_counter() - start, matches


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    n = int(argv[0]) if argv else 100_000
    seed = int(argv[1]) if len(argv) > 1 else 1
    print(f"MatchState.play: {n:,} random hands per profile (seed {seed})")
    for slug in known_profiles():
        profile = load_profile(slug)
        rng = random.Random(seed)
        hands = [random_hand(rng, profile.reverse_subtract) for _ in range(n)]
        seconds, matches = replay(profile, hands)
        print(f"  {slug:22s} {n / seconds:>10,.0f} hands/s   ({matches:,} matches won, {seconds:.3f} s)")


if __name__ == "__main__":
    main()
