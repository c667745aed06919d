"""Each profile's appeal route (``sanctions.appeal``: to, then), followed by rulings.appeals:
shenzhen 000 第十九条 chief referee → organising committee; union-games 003 二.5 arbitration group, final;
company-league 004 九.6 (and 2008 九.5) referee group, final; two-deck-standard (002 silent) the project
default chief referee → arbitration group, marked as an organiser's choice."""
import pytest
from django.core.exceptions import PermissionDenied

from common.errors import ConflictError, ForbiddenError
from rulings import appeal_route, services
from rulings import appeals as appeals_
from tournament.records import ledger as ledger_

ROUTES = {
    "shenzhen-community": (["chief_referee", "organising_committee"], False, ("chief", "organiser")),
    "union-games": (["arbitration_group"], False, ("arbiter",)),
    "company-league": (["referee_group"], False, ("chief",)),
    "company-league-2008": (["referee_group"], False, ("chief",)),
    "two-deck-standard": (["chief_referee", "arbitration_group"], True, ("chief", "arbiter")),
}
OFFENCES = {
    "shenzhen-community": dict(code="failed_throw", side="NS", cards=2, role="declarers"),
    "union-games": dict(code="exposed_card", side="NS"),
    "company-league": dict(code="peeking", side="NS"),
    "company-league-2008": dict(code="peeking", side="NS"),
    "two-deck-standard": dict(code="exposed_card", side="NS"),
}
NOBODY_ELSE = {"chief", "organiser", "arbiter", "referee"}


@pytest.mark.parametrize("slug", ROUTES)
def test_the_route_is_the_profiles(slug, make_match):
    bodies, organiser_choice, _ = ROUTES[slug]
    profile = make_match(slug).profile
    assert appeal_route.route(profile) == bodies
    assert appeal_route.is_organiser_choice(profile) is organiser_choice


@pytest.mark.parametrize("slug", ROUTES)
def test_appeals_follow_the_route(slug, table, make_match):
    users = table[1]
    match = make_match(slug)
    match.referees.add(users["referee"])
    offence = OFFENCES[slug]
    ruling = services.record_ruling(match, users["referee"], offence.pop("code"), offence.pop("side"), **offence)
    appeal = appeals_.file_appeal(ruling, users["referee"], "NS", "不服")
    deciders = ROUTES[slug][2]
    for instance, decider in enumerate(deciders, start=1):
        for other in NOBODY_ELSE - {decider}:
            with pytest.raises((PermissionDenied, ForbiddenError)):
                appeals_.decide_appeal(appeal, users[other], instance=instance, outcome="reversed")
        assert appeal_route.waiting_instance(appeal, match.profile) == instance
        outcome = "reversed" if instance == len(deciders) else "upheld"
        appeals_.decide_appeal(appeal, users[decider], instance=instance, outcome=outcome)
    assert appeal_route.waiting_instance(appeal, match.profile) is None
    assert ledger_.match_entries(match)[0].state == ledger_.REVERSED
    if len(deciders) == 1:  # final: no second instance, whoever asks
        for who in ("arbiter", "organiser", "chief2"):
            with pytest.raises(ConflictError):
                appeals_.decide_appeal(appeal, users[who], instance=2, outcome="upheld")
