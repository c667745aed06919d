"""Demo competition for the demo event: a drawn group stage with every group match played, and a
drawn knock-out (eight qualifiers, all eight placed) with its quarter-finals played.

``seed_competition(event)`` is called by ``demo.event.seed_demo()`` after the event exists.
Idempotent: stages, draws and results already there are kept. Results go through the scoring
layer's :func:`scoring.services.record_hand` (hands recorded by a chief referee), so levels, winners
and the bracket's progress are derived exactly as at a real table.
"""
from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from scoring.services import record_hand
from tournament import roles
from tournament.competition import draws, stages
from tournament.models import Draw, Match, Stage
from tournament.records.adjustments import match_replay

DEMO_GROUP_SEED = "demo-2026-groups"
DEMO_BRACKET_SEED = "demo-2026-bracket"
DEMO_RESULT_SEED = "demo-2026-results"
MAX_HANDS = 60
TAKEOVER_POINTS = 200  # the side off stage takes the stage and climbs
CLEAN_SWEEP_POINTS = 0  # the declarers keep the stage and climb


def chief_recorder():
    """The demo's chief referee (may record at every table)."""
    chiefs = get_user_model().objects.filter(Q(event_roles__role=roles.CHIEF_REFEREE) | Q(
        groups__name=roles.CHIEF_REFEREE)).distinct().order_by("username")  # per event, or site-wide in tests
    return (chiefs.filter(username="chief", staff_account__demo=True).first() or chiefs.filter(username="chief").first()
            or chiefs.first())


def play_to_win(match: Match, user, winner_side: str, rng: random.Random) -> None:
    """Record hands through the scoring service until the match is won, mostly by ``winner_side``.

    The chosen side sweeps when it declares and takes the stage when it defends; about one hand in
    seven goes the other way, so final levels (and the tie-breaks) differ from match to match.
    """

    first = "N" if winner_side == "NS" else "E"
    for _ in range(MAX_HANDS):
        match.refresh_from_db()
        if match.is_over:
            return
        replayed = match_replay(match)
        state, number = replayed.state, replayed.next_number
        declarer = state.declarer or first
        declaring = "NS" if declarer in ("N", "S") else "EW"
        helps_winner = rng.random() >= 0.15  # about one hand in seven goes the other way
        points = CLEAN_SWEEP_POINTS if (declaring == winner_side) == helps_winner else TAKEOVER_POINTS
        record_hand(match, user, number=number, trump=rng.choice(["H", "S", "D", "C"]), defender_points=points,
                    declarer=declarer if number == 1 else None)
    raise RuntimeError(f"demo match {match} did not finish within {MAX_HANDS} hands")


def play_matches(matches, user, rng: random.Random) -> int:
    """Play each match not yet over; the better-seeded (lower id) pair wins about two times in three."""
    played = 0
    for match in matches:
        if match.is_over or not (match.ns_id and match.ew_id):
            continue
        favourite_ns = match.ns_id < match.ew_id
        ns_wins = favourite_ns == (rng.random() < 0.67)
        play_to_win(match, user, "NS" if ns_wins else "EW", rng)
        played += 1
    return played


@transaction.atomic
def seed_competition(event) -> dict:
    """Stages, draws and results of the demo competition; returns counts of what was done."""
    user = chief_recorder()
    rng = random.Random(DEMO_RESULT_SEED)
    created = stages.create_stages_from_format(event)
    groups = created[0]
    done = {"group_matches": 0, "knockout_matches": 0}
    if draws.active_draw(groups, Draw.Kind.GROUPS) is None:
        draws.draw_groups(groups, seed=DEMO_GROUP_SEED, user=user)
    if user is None:
        return done
    group_matches = Match.objects.filter(round__stage=groups).order_by("round__number", "table")
    done["group_matches"] = play_matches(group_matches, user, rng)
    knockout = next((s for s in created[1:] if s.kind == Stage.Kind.ELIMINATION), None)
    if knockout is not None:
        if draws.active_draw(knockout, Draw.Kind.BRACKET) is None:
            draws.draw_bracket(knockout, seed=DEMO_BRACKET_SEED, user=user)
        first_round = Match.objects.filter(round__stage=knockout, round__number=1).order_by("table")
        done["knockout_matches"] = play_matches(first_round, user, rng)
    return done
