"""Referees at tables: assignment (by role, never at a table where the referee's unit plays), their units."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from common.errors import gettext_noop
from common.names import display_name
from tournament import roles
from tournament.access import roles_of
from tournament.competition.stages import CompetitionError
from tournament.models import Event, Match, Pair, RefereeUnit, Round


def referees_of(event: Event):
    """The people who may referee a table at the event: its chief and table referees (and the holders of
    the site-wide referee roles), by display name."""
    users = get_user_model().objects
    per_event = users.filter(event_roles__event=event,
                             event_roles__role__in=[roles.TABLE_REFEREE, roles.CHIEF_REFEREE])
    site_wide = users.filter(groups__name__in=[roles.TABLE_REFEREE, roles.CHIEF_REFEREE])
    return (per_event | site_wide).distinct().order_by("first_name", "username")


def referee_units(event_id: int, user_ids) -> dict:
    """user id -> unit id for the referees given (only those with a unit recorded)."""
    return dict(RefereeUnit.objects.filter(event_id=event_id, user_id__in=list(user_ids))
                .values_list("user_id", "unit_id"))


def match_units(match: Match) -> set:
    """Unit ids of the entries known at the match."""
    ids = [pid for pid in (match.ns_id, match.ew_id) if pid]
    return set(Pair.objects.filter(pk__in=ids).values_list("unit_id", flat=True))


def check_referees_allowed(match: Match, user_ids) -> None:
    """Refuse a referee whose unit plays at this table (CompetitionError naming the referee field)."""
    event_id = Round.objects.filter(pk=match.round_id).values_list("stage__event_id", flat=True).get()
    units = match_units(match)
    clash = [uid for uid, unit in referee_units(event_id, user_ids).items() if unit in units]
    if clash:
        names = ", ".join(display_name(u) for u in get_user_model().objects.filter(pk__in=clash))
        raise CompetitionError(gettext_noop("Referee %(names)s belongs to a unit playing at this table and "
                                            "cannot referee it."), field="referee", names=names)


@transaction.atomic
def assign_referee(match: Match, user) -> None:
    """Add a table referee to a match: only a referee of the event (a table or chief referee), never one
    whose unit plays there. The one path the organiser's page and the API take."""
    if not roles_of(user, match=match) & {roles.TABLE_REFEREE, roles.CHIEF_REFEREE}:
        raise CompetitionError(gettext_noop("Only referees can be assigned to a table."), field="referee")
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status in Match.OVER:
        raise CompetitionError(gettext_noop("This match is over: its referees can no longer change."),
                               field="match")
    match.referees.add(user)  # refused by guard_referee_units when the referee's unit plays here


@transaction.atomic
def remove_referee(match: Match, user) -> None:
    """Take a referee off a match; refused once the match is over (who refereed it is part of its record).
    The one path the organiser's schedule page takes."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.status in Match.OVER:
        raise CompetitionError(gettext_noop("This match is over: its referees can no longer change."),
                               field="match")
    match.referees.remove(user)


def guard_referee_units(sender, instance, action, reverse, pk_set, **kwargs):
    """``m2m_changed`` on Match.referees (connected in TournamentConfig.ready): refuse adding a referee
    whose unit plays at that table, from either side of the relation. An integrity guard like a
    constraint: the relation itself never holds such a pair, whoever writes it."""
    if action != "pre_add" or not pk_set:
        return
    if reverse:  # user.assigned_matches.add(match, ...)
        for match in Match.objects.filter(pk__in=pk_set):
            check_referees_allowed(match, [instance.pk])
    else:
        check_referees_allowed(instance, pk_set)


def referees_changed(sender, instance, action, reverse, pk_set, **kwargs):
    """``m2m_changed`` on Match.referees (connected in TournamentConfig.ready): the match read lists its
    referees, so a change of them moves the match's ``changed_at`` (the lists' ``changed_since``)."""
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    if reverse:
        Match.objects.filter(pk__in=pk_set or ()).update()
    else:
        Match.objects.filter(pk=instance.pk).update()


@transaction.atomic
def set_referee_unit(event: Event, user, unit) -> RefereeUnit:
    """Record (or change) the unit a referee belongs to at this event.

    Refused while the referee is assigned to a match where that unit plays.
    """
    if unit.event_id != event.pk:
        raise CompetitionError(gettext_noop("The unit must belong to this event."), field="unit")
    clash = Match.objects.filter(referees=user, round__stage__event=event).filter(
        Q(ns__unit=unit) | Q(ew__unit=unit)).exists()
    if clash:
        raise CompetitionError(gettext_noop("This referee is assigned to a match where %(unit)s plays: remove the "
                                            "assignment first."), field="unit", unit=unit.name)
    row, _ = RefereeUnit.objects.update_or_create(user=user, event=event, defaults={"unit": unit})
    return row


def drop_conflicting_referees(match_ids) -> int:
    """Remove referees whose unit now plays at a match (after the bracket filled it); returns how many."""
    through = Match.referees.through
    links = list(through.objects.filter(match_id__in=list(match_ids))
                 .values_list("id", "match_id", "user_id", "match__ns__unit_id", "match__ew__unit_id",
                              "match__round__stage__event_id"))
    if not links:
        return 0
    units = dict(((e, u), unit) for e, u, unit in RefereeUnit.objects.filter(
        user_id__in={link[2] for link in links}).values_list("event_id", "user_id", "unit_id"))
    bad = [link[0] for link in links if units.get((link[5], link[2])) in (link[3], link[4])
           and units.get((link[5], link[2])) is not None]
    through.objects.filter(id__in=bad).delete()
    return len(bad)

