"""Who may do what: the one answer to "may this user act here?", asked by pages, the API and services.

    may(user, action, *, event=None, match=None) -> bool
    visible_events(user) -> QuerySet of the events the user may read
    load_access(user, match) -> match      roles and the table assignment in one query, kept for the request

Actions (constants below): reading an event (anonymous visitors: published events only), managing it
(organisers), running the hall clock, approving rulings, deciding first-instance appeals and results the
hands cannot decide (chief referees), closing and reopening a round (chief referees and organisers),
second-instance appeals (the arbitration group), recording hands and rulings at a table (a
chief referee at every table; a table referee at the tables assigned to them while the round's results
are not published), filing an appeal (a chief referee or the table's referee).

A user's roles are read once per request and kept on the user object; a superuser holds every role.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import connection

from tournament import roles
from tournament.models import Event, Match

VIEW = "view"
MANAGE = "manage"
RUN_CLOCK = "run_clock"
RECORD = "record"
APPROVE = "approve"
FILE_APPEAL = "file_appeal"
DECIDE_FIRST = "decide_first"
DECIDE_SECOND = "decide_second"
DECIDE_RESULT = "decide_result"
CLOSE_ROUND = "close_round"

# Actions that need one of these roles and nothing else.
_BY_ROLE = {
    MANAGE: {roles.ORGANISER},
    RUN_CLOCK: {roles.CHIEF_REFEREE},
    APPROVE: {roles.CHIEF_REFEREE},
    DECIDE_FIRST: {roles.CHIEF_REFEREE},
    DECIDE_SECOND: {roles.ARBITRATION},
    DECIDE_RESULT: {roles.CHIEF_REFEREE},
    CLOSE_ROUND: {roles.CHIEF_REFEREE, roles.ORGANISER},
}
ACTIONS = (VIEW, RECORD, FILE_APPEAL, *_BY_ROLE)

_ASSIGNED = "#assigned"  # not a group name: marks the row saying the user referees the match


def roles_of(user) -> set:
    """The role names ``user`` holds (every role for a superuser, none for an anonymous visitor)."""
    if not user.is_authenticated:
        return set()
    cached = getattr(user, "_tournament_roles", None)
    if cached is None:
        cached = set(roles.ROLE_PERMISSIONS) if user.is_superuser else roles.user_roles(user)
        user._tournament_roles = cached
    return cached


def is_staff(user) -> bool:
    """Staff of the system: an authenticated user holding a role (or a superuser)."""
    return bool(roles_of(user))


def visible_events(user):
    """The events ``user`` may read: all of them for staff, published ones for everybody else."""
    events = Event.objects.all()
    return events if is_staff(user) else events.filter(published=True)


def load_access(user, match):
    """Read ``user``'s roles and whether ``user`` referees ``match`` in one query, kept for this request's
    checks (the roles on the user, the assignment on the match). Returns ``match``."""
    if not user.is_authenticated or user.is_superuser:
        return match
    memberships = get_user_model().groups.through
    group = memberships._meta.get_field("group").related_model
    referees = Match.referees.through
    sql = (f'SELECT g.name FROM {group._meta.db_table} g JOIN {memberships._meta.db_table} m ON m.group_id = g.id '
           f'WHERE m.user_id = %s UNION ALL SELECT %s FROM {referees._meta.db_table} '
           f'WHERE match_id = %s AND user_id = %s')
    with connection.cursor() as cursor:
        cursor.execute(sql, [user.pk, _ASSIGNED, match.pk, user.pk])
        names = {name for (name,) in cursor.fetchall()}
    user._tournament_roles = names & set(roles.ROLE_PERMISSIONS)
    match._assigned_referees = {user.pk: _ASSIGNED in names}
    return match


def _assigned(user, match) -> bool:
    """Does ``user`` referee ``match``? From the request's read (:func:`load_access`) or the lock's
    annotation (``writer_assigned``) when there is one, else one query."""
    known = getattr(match, "_assigned_referees", {})
    if user.pk in known:
        return known[user.pk]
    if getattr(match, "writer_id", None) == user.pk and hasattr(match, "writer_assigned"):
        return match.writer_assigned
    return match.referees.filter(pk=user.pk).exists()


def _event_of(event, match):
    return event if event is not None else match.round.stage.event


def may(user, action, *, event=None, match=None) -> bool:
    """May ``user`` do ``action`` on ``event`` (or at ``match``, whose event it is)?"""
    if action == VIEW:
        return _event_of(event, match).published or is_staff(user)
    held = roles_of(user)
    if action in _BY_ROLE:
        return bool(held & _BY_ROLE[action])
    if action not in (RECORD, FILE_APPEAL):
        raise ValueError(f"unknown action {action!r}")
    if roles.CHIEF_REFEREE in held:
        return True
    if roles.TABLE_REFEREE not in held or match is None or not _assigned(user, match):
        return False
    return action == FILE_APPEAL or match.round.results_published_at is None
