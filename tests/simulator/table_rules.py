"""The table's rules a simulated event exercises beside its hands and rulings (events.Sim calls these steps):
造反 (004 二.7) before a deal, which then shares its number, and a correction of that deal; a sanction waived by
the non-offending side where the profile allows it; a throw (甩牌) winning the last trick; the event's profile
version (shenzhen's before award_at_two was named). Each draws from the simulation's ``extra`` stream, so the
steps the seeds took before stay as they were.
"""
from __future__ import annotations

import copy

from common.seats import side_of
from rulings import services as rulings
from rulings.models import Ruling
from scoring.models import Hand, RuleProfile
from scoring.profile_store import latest_profile
from scoring.services import correct_last_hand, record_hand

from .shapes import OLDER_VERSION_CHOICES, Shape

SEATS = "NESW"


def profile_for(shape: Shape):
    """The version the event is created under: the newest, or (``older_version``) a frozen copy of it as it was
    stored before the named reading (the choice and the keys its readings set taken out), as an event file
    from then brings it."""
    profile = latest_profile(shape.profile)
    if not shape.older_version:
        return profile
    choice = OLDER_VERSION_CHOICES[shape.profile]
    data = copy.deepcopy(profile.data)
    specs = data.get("organiser_defaults", [])
    spec = next(s for s in specs if isinstance(s, dict) and s.get("choice") == choice)
    data["organiser_defaults"] = [s for s in specs if s is not spec]
    for reading in spec["readings"].values():
        for path in reading.get("set", {}):
            *parents, last = path.split(".")
            node = data
            for key in parents:
                node = node.get(key, {})
            node.pop(last, None)
    latest = RuleProfile.objects.filter(slug=profile.slug).order_by("-version").first()
    return RuleProfile.objects.create(slug=profile.slug, version=latest.version + 1, name=profile.name, data=data,
                                      source=profile.source, based_on=profile, imported=True)


def rebellion_left(sim) -> bool:
    return sim.rebellions < sim.shape.rebellions


def rebellion(sim, match, user, replayed) -> bool:
    """While the event has 造反 left to call and the match a declarer: an attacker calls it and any seat wins the
    new bidding; the deal is then recorded under the same number. True when one was stored."""
    state = replayed.state
    if not rebellion_left(sim) or state.declarer is None or not replayed.hands:
        return False
    declaring = side_of(state.declarer)
    caller = sim.extra.choice([seat for seat in SEATS if side_of(seat) != declaring])
    winner = sim.extra.choice(SEATS)
    number = replayed.next_number
    done = sim.attempt(f"造反 before hand {number} at table {match.table}: {caller} calls, {winner} declares",
                       lambda: record_hand(match, user, number=number, outcome="rebel", called_by=caller,
                                           declarer=winner))
    if done is None:
        return False
    sim.rebellions += 1
    return True


def after_rebellion(sim, match, user, written):
    """The deal after the event's first 造反 (``written``) is corrected (its points change): the pages the next
    state opens show the 造反 and the corrected deal under one number."""
    if written is None or sim.seen_rebellion:
        return
    sim.seen_rebellion = True
    hand = written.hand
    points = 40 if hand.defender_points != 40 else 60
    sim.attempt(f"correct hand {hand.number} after the 造反 at table {match.table}", lambda: correct_last_hand(
        match, user, number=hand.number, trump=hand.trump, defender_points=points))


def throw(sim):
    """The last trick of the event's first hand where the profile reads a throw taking the bottom: four cards
    holding a pair, won by the defenders (the same inputs under both readings); else None. The bottom holds no
    points, so the hand's result, and the seed's path after it (seed 4 disqualifies a pair), stay as they were."""
    if not sim.shape.throw_bottom or sim.thrown:
        return None
    sim.thrown = True
    return {"by": "defenders", "shape": "throw", "pairs": 1, "cards": 4}


def waiver(sim, tables, label):
    """Once per event where the profile allows it, before a round's first hand: an offence at its first table
    whose sanction the other side waives (on record, counted toward nothing); the next state opens its pages."""
    code = sim.shape.waiver
    if not code or not tables or sim.seen_waiver:
        return
    match = tables[0]
    side = sim.extra.choice(["NS", "EW"])
    other = "EW" if side == "NS" else "NS"
    done = sim.attempt(f"{label}: {code} by {side} at table {match.table}, waived by {other}",
                       lambda: rulings.record_ruling(match, sim.users["referee"], code, side, cards=1,
                                                     role="defenders", waived_by=other))
    sim.seen_waiver = done is not None


def numbering_facts(event) -> list[tuple[str, str]]:
    """A 造反 holds no number of its own: it has the number of a deal recorded after it (or decided by a ruling),
    or of the deal to come (two queries: the event's current rows and its rulings' hands)."""
    deals, rebels = {}, {}
    rows = (Hand.objects.filter(match__round__stage__event=event, superseded_by__isnull=True)
            .values_list("match_id", "number", "outcome"))
    for match_id, number, outcome in rows:
        (rebels if outcome == "rebel" else deals).setdefault(match_id, set()).add(number)
    for match_id, number in Ruling.objects.filter(match__round__stage__event=event).values_list("match_id",
                                                                                                 "hand_number"):
        deals.setdefault(match_id, set()).add(number)   # a deal a ruling decided may have no row
    problems = []
    for match_id, numbers in rebels.items():
        played = deals.get(match_id, set())
        following = max(played, default=0) + 1
        wrong = sorted(n for n in numbers if n not in played and n != following)
        if wrong:
            problems.append(("hand_numbers", f"match {match_id}: 造反 at {wrong}, deals {sorted(played)}"))
    return problems
