"""A unit team's reserve pair brought in after the draw (003 二.2 "每队可报参赛运动员正选3对6名 … 候补1对2名").

An organiser or a chief referee swaps the team's reserve pair in for one of its playing pairs: the reserve
takes the pair's place in every match not yet begun (the bracket names the pair holding each drawn slot,
the group and schedule rows are rewritten: :func:`tournament.competition.results.entry_substituted`);
matches already begun keep the pair that played them. The pair that went out becomes the team's reserve,
so it can be brought back the same way. Append-only: a PairSubstitution row says who, when and why.

    substitute_reserve(pair_out, pair_in, user, *, reason="") -> PairSubstitution
    reserves_for(pair) -> list[Pair]             the reserve pairs that may come in for ``pair``
    substitutions_of(event) -> list[PairSubstitution]
"""
from __future__ import annotations

from django.db import transaction

from common.errors import ConflictError, ForbiddenError, UserError, gettext_noop
from infra import clock
from tournament import access
from tournament.competition import results
from tournament.models import Event, Pair, PairSubstitution

REASON_MAX = 500


def may_substitute(user, event) -> bool:
    """Organisers and chief referees of the event bring in a reserve pair."""
    return access.may(user, access.MANAGE, event=event) or access.may(user, access.APPROVE, event=event)


def reserves_for(pair) -> list:
    """The active reserve pairs of ``pair``'s team (none when the pair has no team or is itself a reserve)."""
    if pair.team_id is None or pair.reserve:
        return []
    return list(Pair.objects.filter(team_id=pair.team_id, reserve=True, status=Pair.Status.ACTIVE)
                .exclude(pk=pair.pk).order_by("name"))


def substitutions_of(event) -> list:
    return list(PairSubstitution.objects.filter(event=event).select_related("pair_out", "pair_in", "decided_by")
                .order_by("decided_at", "id"))


@transaction.atomic
def substitute_reserve(pair_out, pair_in, user, *, reason="") -> PairSubstitution:
    """Bring the team's reserve ``pair_in`` in for ``pair_out`` (an organiser or a chief referee)."""
    event = Event.objects.select_for_update().get(pk=pair_out.event_id)
    if not may_substitute(user, event):
        raise ForbiddenError(gettext_noop("Only an organiser or a chief referee may bring in a reserve pair."))
    if len(reason or "") > REASON_MAX:
        raise UserError(gettext_noop("The reason may be at most %(max)s characters."), field="reason", max=REASON_MAX)
    pair_out = Pair.objects.select_for_update().get(pk=pair_out.pk)
    pair_in = Pair.objects.select_for_update().filter(pk=pair_in.pk).first() if pair_in is not None else None
    if pair_in is None or pair_in.event_id != event.pk:
        raise UserError(gettext_noop("Choose the team's reserve pair."), field="pair_in")
    if pair_out.team_id is None or pair_out.reserve:
        raise UserError(gettext_noop("Only a playing pair of a team can be replaced by the team's reserve."),
                        field="pair_out")
    if pair_in.team_id != pair_out.team_id or not pair_in.reserve:
        raise UserError(gettext_noop("%(name)s is not a reserve pair of the same team."), field="pair_in",
                        name=pair_in.name)
    for pair, field in ((pair_out, "pair_out"), (pair_in, "pair_in")):
        if pair.status != Pair.Status.ACTIVE:
            raise ConflictError(gettext_noop("%(name)s is already out of the event (%(status)s)."), field=field,
                                name=pair.name, status=pair.get_status_display())
    pair_out.reserve, pair_in.reserve = True, False
    pair_out.save(update_fields=["reserve"])
    pair_in.save(update_fields=["reserve"])
    row = PairSubstitution.objects.create(event=event, pair_out=pair_out, pair_in=pair_in, reason=(reason or "").strip(),
                                          decided_by=user, decided_at=clock.now())
    results.entry_substituted(pair_out, pair_in)
    return row
