"""The shape of a simulated event, drawn from its seed alone (pure: no Django).

``shape_for(seed)`` picks the format and the rule profile round-robin from the seed (seeds 0-6 cover every
format and every profile) and the rest (number of pairs, groups, places played, the organiser's readings,
how often things go wrong) from ``random.Random(seed)``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

PROFILES = ("company-league", "company-league-2008", "shenzhen-community", "two-deck-standard", "union-games")
# (name, Event.format, knock-out places played or None)
FORMATS = (
    ("round_robin", "round_robin", None),
    ("groups_knockout", "groups_elimination", 2),          # final only
    ("groups_knockout_third", "groups_elimination", 4),    # with a 3rd-place match
    ("groups_knockout_5_8", "groups_elimination", 8),      # places 5th-8th played off too
    ("groups_round_robin", "groups_round_robin", None),
    ("swiss_knockout", "elimination", 4),                  # Swiss rounds, then a knock-out of the top N
    ("knockout", "elimination", 4),                        # straight knock-out, byes when not a power of two
)
FORMAT_NAMES = tuple(f[0] for f in FORMATS)


@dataclass(frozen=True)
class Shape:
    seed: int
    format: str
    event_format: str
    places: int | None
    profile: str
    pairs: int
    units: int
    n_groups: int | None
    swiss_rounds: int
    qualifiers: int
    teams: bool                      # union teams with a reserve pair each (substitutions)
    readings: bool                   # the organiser's readings of unclear clauses, not the file's defaults
    players_record: bool = False     # the players enter hands, the opponents confirm (the referee may too)
    mishaps: dict = field(default_factory=dict)   # probabilities of each kind of trouble

    def describe(self) -> str:
        return (f"seed {self.seed}: {self.format} under {self.profile}, {self.pairs} pairs in {self.units} units"
                + (f", {self.n_groups} groups" if self.n_groups else "")
                + (f", {self.swiss_rounds} Swiss rounds" if self.format == "swiss_knockout" else "")
                + (f", places played {self.places}" if self.places else "")
                + (", teams with reserves" if self.teams else "") + (", organiser readings" if self.readings else "")
                + (", players record" if self.players_record else ""))


def shape_for(seed: int, *, big: bool = False) -> Shape:
    """The event of ``seed``: small (3-12 pairs) unless ``big`` (up to 40)."""
    rng = random.Random(f"simulator-{seed}")
    name, event_format, places = FORMATS[seed % len(FORMATS)]
    profile = PROFILES[seed % len(PROFILES)]
    low = {"groups_knockout_5_8": 8, "groups_round_robin": 6, "groups_knockout": 4,
           "groups_knockout_third": 5, "swiss_knockout": 5}.get(name, 3)
    pairs = rng.randint(low, 40 if big else max(low + 3, 9 if name == "groups_knockout_5_8" else 7))
    n_groups = None
    if name.startswith("groups"):
        # groups of unequal size (odd counts: a bye each round), at least 2 per group and enough qualifiers
        most = max(2, pairs // 3)
        n_groups = rng.randint(2, most)
        if name == "groups_knockout_5_8":
            n_groups = max(4, min(n_groups, pairs // 2))
    qualifiers = places or 2
    if name == "swiss_knockout":
        qualifiers = min(pairs - pairs % 2, rng.choice([4, 4, 8])) if pairs >= 8 else 4
    return Shape(
        seed=seed, format=name, event_format=event_format, places=places, profile=profile, pairs=pairs,
        units=rng.randint(2, max(2, min(8, pairs // 2))), n_groups=n_groups,
        swiss_rounds=rng.randint(2, 3 if not big else 5), qualifiers=qualifiers,
        teams=profile == "union-games" and rng.random() < 0.7, readings=rng.random() < 0.5,
        # drawn apart, so that the other draws of a seed stay as they were
        players_record=random.Random(f"simulator-players-{seed}").random() < 0.5,
        mishaps={"late": 0.25, "warning": 0.35, "cheating": 0.2, "withdraw": 0.15, "disqualify": 0.3,
                 "substitute": 0.5, "appeal": 0.5, "reopen": 0.25, "pause": 0.4, "clock": 0.8,
                 "players": 0.7, "dispute": 0.25, "waits": 0.3})
