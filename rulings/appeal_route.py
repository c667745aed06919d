"""The route of an appeal, as the profile writes it (``sanctions.appeal``: ``to``, ``then``): who sits on
the first instance and on the second (or none: the first is final).

    route(profile) -> list[str]                 the bodies, first instance first
    instances(profile) -> int                   1 (final) or 2
    body_at(profile, instance) -> str | None    the body deciding that instance
    may_decide(user, ruling, instance) -> bool  does ``user`` sit on that body for the ruling's match?
    is_organiser_choice(profile) -> bool        the route is the project's default, chosen by the organiser
    waiting_instance(appeal, profile) -> int | None   the instance still to decide (None: decided)

The bodies (``rulings.sanction_tables.APPEAL_BODIES``) map onto the staff roles through
:mod:`tournament.access`: the chief referee and the referee group are the chief referees, the arbitration
group its members, the organising committee the organisers.
"""
from __future__ import annotations

from common.errors import gettext_noop
from tournament import access
from tournament.records.ledger import ledger_for

# The access action a body's members hold (see tournament.access._BY_ROLE).
_ACTION_OF_BODY = {
    "chief_referee": access.DECIDE_FIRST,
    "referee_group": access.DECIDE_FIRST,
    "arbitration_group": access.DECIDE_SECOND,
    "organising_committee": access.MANAGE,
}

BODY_LABELS = {
    "chief_referee": gettext_noop("Chief referee"),
    "referee_group": gettext_noop("Referee group"),
    "arbitration_group": gettext_noop("Arbitration group"),
    "organising_committee": gettext_noop("Organising committee"),
}

# The outcomes of AppealDecision.Outcome as the pages say them (维持 / 改判 / 撤销).
OUTCOME_LABELS = {"upheld": gettext_noop("Upheld"), "amended": gettext_noop("Amended"),
                  "reversed": gettext_noop("Reversed")}


def _rule(profile):
    return ledger_for(profile).appeal


def route(profile) -> list:
    """The bodies deciding an appeal under ``profile``, first instance first."""
    rule = _rule(profile)
    return [rule.to] + ([rule.then] if rule.then else [])


def instances(profile) -> int:
    return len(route(profile))


def body_at(profile, instance):
    bodies = route(profile)
    return bodies[instance - 1] if 1 <= instance <= len(bodies) else None


def is_organiser_choice(profile) -> bool:
    return bool(_rule(profile).organiser_choice)


def may_decide(user, ruling, instance) -> bool:
    """May ``user`` decide an appeal against ``ruling`` at ``instance`` (by the profile's route)?"""
    body = body_at(ruling.profile, instance)
    return body is not None and access.may(user, _ACTION_OF_BODY[body], match=ruling.match)


def bodies_of(user, event) -> set:
    """The bodies ``user`` sits on in ``event``."""
    return {body for body, action in _ACTION_OF_BODY.items() if access.may(user, action, event=event)}


def waiting_instance(appeal, profile):
    """The instance an appeal waits for: 1 before any decision, 2 after the first where the route has a
    second (open to that body), None when decided at the last instance. Reads the prefetched decisions."""
    decided = {d.instance for d in appeal.decisions.all()}
    for instance in range(1, instances(profile) + 1):
        if instance not in decided:
            return instance
    return None
