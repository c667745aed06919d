"""Who may do what with rulings (checked on the server; DRF permission classes and plain helpers).

- A table referee writes only at the tables assigned to them in the current round (a round whose
  results are not yet published); the chief referee writes at every table.
- Organisers assign referees and cannot rule.
- Approvals and first-instance appeal decisions: the chief referee; second instance: arbitration.
- Penalty logs: staff always; the public once the event is published.
"""
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.permissions import BasePermission

from tournament import roles
from tournament.models import Match
from tournament.visibility import is_staff_member


def _roles(user):
    """The user's role names, read once per request (cached on the user object)."""
    if not user.is_authenticated:
        return set()
    cached = getattr(user, "_ruling_roles", None)
    if cached is None:
        cached = roles.user_roles(user)
        user._ruling_roles = cached
    return cached


_ASSIGNED = "#assigned"  # not a group name: marks the row saying the user referees the match


def read_requester(match, user):
    """Read ``user``'s roles and whether ``user`` referees ``match`` in one query, and keep them for the
    request's permission checks (the roles on the user, the assignment on the match)."""
    if not user.is_authenticated:
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
    user._ruling_roles = names & set(roles.ROLE_PERMISSIONS)
    match._assigned_referees = {user.pk: _ASSIGNED in names}
    return match


def _assigned(user, match):
    known = getattr(match, "_assigned_referees", {})
    if user.pk in known:
        return known[user.pk]
    return match.referees.filter(pk=user.pk).exists()


def is_chief(user):
    return user.is_authenticated and (user.is_superuser or roles.CHIEF_REFEREE in _roles(user))


def is_organiser(user):
    return user.is_authenticated and (user.is_superuser or roles.ORGANISER in _roles(user))


def is_arbiter(user):
    return user.is_authenticated and (user.is_superuser or roles.ARBITRATION in _roles(user))


def round_is_current(match):
    """A round stays current for its table referees until its results are published."""
    return match.round.results_published_at is None


def is_assigned(user, match):
    return (user.is_authenticated and roles.TABLE_REFEREE in _roles(user)
            and _assigned(user, match))


def can_rule(user, match):
    """May ``user`` record, preview or void rulings and choices at ``match``?"""
    return is_chief(user) or (is_assigned(user, match) and round_is_current(match))


def can_file_appeal(user, match):
    """Appeals are lodged with the chief referee or the match's own table referee."""
    return is_chief(user) or is_assigned(user, match)


def can_read_log(user, event):
    """Penalty logs: staff always, the public once the event is published."""
    return is_staff_member(user) or event.published


def _match_of(obj):
    """The Match an object belongs to (a Match, a Ruling or an Appeal)."""
    for path in ("match", "ruling.match"):
        target = obj
        try:
            for name in path.split("."):
                target = getattr(target, name)
        except AttributeError:
            continue
        return target
    return obj


class CanRuleAtTable(BasePermission):
    """Record, preview, void, choice: the chief referee, or the table's assigned referee this round."""

    message = "只有本桌当轮指派的裁判员或裁判长可以记录判罚（not your table）"

    def has_permission(self, request, view):
        return request.user.is_authenticated

    def has_object_permission(self, request, view, obj):
        return can_rule(request.user, _match_of(obj))


class CanFileAppeal(BasePermission):
    message = "申诉须由裁判长或本桌裁判员登记（appeals are lodged with a referee）"

    def has_permission(self, request, view):
        return request.user.is_authenticated

    def has_object_permission(self, request, view, obj):
        return can_file_appeal(request.user, _match_of(obj))


class IsChiefReferee(BasePermission):
    message = "只有裁判长可以核准（chief referee only）"

    def has_permission(self, request, view):
        return is_chief(request.user)


class CanDecideAppeal(BasePermission):
    """Instance 1: the chief referee; instance 2: the arbitration group (checked per request)."""

    message = "一审由裁判长决定，二审由仲裁组决定（wrong instance for your role）"

    def has_permission(self, request, view):
        if not request.user.is_authenticated:
            return False
        instance = str(request.data.get("instance", "1")) if hasattr(request, "data") else "1"
        return is_arbiter(request.user) if instance == "2" else is_chief(request.user)


class IsOrganiser(BasePermission):
    message = "只有主办方可以指派裁判员（organisers only）"

    def has_permission(self, request, view):
        return is_organiser(request.user)


class CanReadLog(BasePermission):
    """Penalty logs: staff always, anonymous visitors once the event is published."""

    message = "该赛事尚未公布（not published）"

    def has_object_permission(self, request, view, obj):
        event = obj if hasattr(obj, "published") else _match_of(obj).round.stage.event
        return can_read_log(request.user, event)
