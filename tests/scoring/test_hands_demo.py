"""Demo hands: recorded through the service at a few tables, idempotently."""
import pytest

from demo.hands import DEMO_HANDS, seed_hands
from scoring import services
from scoring.models import Hand
from tournament import roles
from tournament.models import Match, Round
from tournament.records.adjustments import match_replay, match_state


@pytest.fixture
def event_with_matches(db, make_user):
    """A practice event with five matches in one round (the demo's matches come from demo.event)."""
    from demo.hands import scratch_match

    make_user(roles.CHIEF_REFEREE, username="chief")
    first = scratch_match()
    round_ = first.round
    pairs = list(first.round.stage.event.pairs.all())
    for table in range(2, 6):
        Match.objects.create(round=round_, table=table, ns=pairs[0], ew=pairs[1], profile=first.profile)
    Match.objects.create(round=Round.objects.create(stage=round_.stage, number=2), table=1, ns_source="W:R1-M1",
                         profile=first.profile)   # waiting for entries: never seeded
    return round_.stage.event


def test_seed_hands_records_through_the_engine_and_is_idempotent(event_with_matches):
    recorded = seed_hands(event_with_matches)
    assert recorded == Hand.objects.count() and recorded >= 4 * 2
    seeded = Match.objects.filter(hands__isnull=False).distinct()
    assert seeded.count() == 4
    for match in seeded:
        state = match_state(match)
        assert (match.ns_level, match.ew_level) == (state.levels["NS"], state.levels["EW"])
        assert match.status == Match.Status.PLAYING
        assert all(hand.recorded_by.username == "chief" for hand in match.hands.all())
    assert seed_hands(event_with_matches) == 0 and Hand.objects.count() == recorded


def test_seed_hands_without_a_recorder_does_nothing(db):
    from demo.hands import scratch_match

    match = scratch_match()
    assert seed_hands(match.round.stage.event) == 0 and not Hand.objects.exists()


def test_demo_hands_fit_every_profile(db, make_user):
    """Every scripted hand is valid input under all five profiles."""
    from demo.hands import scratch_match

    chief = make_user(roles.CHIEF_REFEREE)
    for slug in ("shenzhen-community", "two-deck-standard", "union-games", "company-league", "company-league-2008"):
        match = scratch_match(slug)
        assert seed_hands(match.round.stage.event, user=chief) == 2
        assert match_state(match).hand_count == 2
    assert len({hand[:2] for hand in DEMO_HANDS}) == len(DEMO_HANDS)
