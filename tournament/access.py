"""Who may do what: the one answer to "may this user act here?", asked by pages, the API and services.

    may(user, action, *, event=None, match=None) -> bool
    visible_events(user) -> QuerySet of the events the user may read
    load_access(user, match) -> match      roles and the table assignment in one query, kept for the request
    access_columns(), access_params(user), apply_access(user, match)
                                           the same read as columns of a write's match read (config.rowread)

Actions (constants below): reading an event (anonymous visitors: published events only), managing it
(organisers), running the hall clock, approving rulings, deciding first-instance appeals and results the
hands cannot decide (chief referees), closing and reopening a round (chief referees and organisers),
second-instance appeals (the arbitration group), recording hands and rulings at a table (a
chief referee at every table; a table referee at the tables assigned to them while the round's results
are not published), filing an appeal (a chief referee or the table's referee).

Roles are held per event (``tournament.models.EventRole``): a chief referee of event A can do nothing in
event B. Every check names the event (``event=...``) or the match (``match=...``, whose event it is). The
global Django groups of :mod:`tournament.roles` remain as *site-wide* roles (held in every event), kept for
the Django admin and older tests; nothing in the interface or the API grants them. A superuser holds every
role everywhere. A user's roles are read once per request and kept on the user object (per event).
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q

from config.rowread import JoinedRead
from tournament import roles
from tournament.models import Event, EventRole, Match

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
CREATE_EVENT = "create_event"  # no event: a superuser, a site-wide organiser, an account with add_event

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
ACTIONS = (VIEW, RECORD, FILE_APPEAL, CREATE_EVENT, *_BY_ROLE)

_ASSIGNED = "#assigned"  # not a group name: marks the row saying the user referees the match


def site_roles(user) -> set:
    """The site-wide roles ``user`` holds (every role for a superuser, the global groups otherwise)."""
    if not user.is_authenticated or token_event(user) is not None:  # a token holds its event's roles only
        return set()
    cached = getattr(user, "_tournament_roles", None)
    if cached is None:
        cached = set(roles.ROLE_PERMISSIONS) if user.is_superuser else roles.user_roles(user)
        user._tournament_roles = cached
    return cached


def token_event(user):
    """The event an API token limits ``user`` to (None: a login, not limited)."""
    return getattr(user, "token_event_id", None)


def _event_id(event, match):
    if event is not None:
        return event.pk
    known = getattr(match, "_event_id", None)
    if known is None:
        known = Match.objects.filter(pk=match.pk).values_list("round__stage__event_id", flat=True).first()
        match._event_id = known
    return known


def event_roles(user, event_id) -> set:
    """The roles ``user`` holds in the event ``event_id`` itself (kept on the user for the request)."""
    if not user.is_authenticated or event_id is None:
        return set()
    cache = user.__dict__.setdefault("_event_roles", {})
    if event_id not in cache:
        cache[event_id] = set(EventRole.objects.filter(user_id=user.pk, event_id=event_id)
                              .values_list("role", flat=True))
    return cache[event_id]


def roles_of(user, event=None, *, match=None) -> set:
    """The role names ``user`` holds in ``event`` (or at ``match``): the event's roles and the site-wide
    ones. Without an event or a match: the site-wide roles only."""
    held = site_roles(user)
    if event is None and match is None:
        return held
    return held | event_roles(user, _event_id(event, match))


def is_staff(user, event=None) -> bool:
    """Staff of ``event`` (any role there), or of the site when no event is named."""
    if event is None:
        return bool(site_roles(user)) or (user.is_authenticated and EventRole.objects.filter(user_id=user.pk).exists())
    return bool(roles_of(user, event))


def visible_events(user):
    """The events ``user`` may read: published ones, and those where ``user`` holds a role (all of them for
    a superuser or a site-wide role)."""
    events = Event.objects.all()
    if site_roles(user):
        return events
    if not user.is_authenticated:
        return events.filter(published=True)
    if token_event(user) is not None:  # an API token: its own event only
        return events.filter(Q(published=True) | Q(pk=token_event(user), staff__user_id=user.pk)).distinct()
    return events.filter(Q(published=True) | Q(staff__user_id=user.pk)).distinct()


def may_create_events(user) -> bool:
    """A superuser, a site-wide organiser or an account given ``tournament.add_event`` (by a superuser)."""
    if not user.is_authenticated:
        return False
    return bool(site_roles(user) & {roles.ORGANISER}) or user.has_perm("tournament.add_event")


def event_from_kwargs(kwargs):
    """The event a URL names: by ``slug``/``event_slug``, or a stage's ``pk`` (None when there is none)."""
    slug = kwargs.get("slug") or kwargs.get("event_slug")
    if slug:
        return Event.objects.filter(slug=slug).first()
    if kwargs.get("pk") is not None:
        return Event.objects.filter(stages__pk=kwargs["pk"]).first()
    return None


def appeal_match(appeal_id):
    """The match an appeal is about (None for an unknown appeal: the view answers 404)."""
    return Match.objects.filter(rulings__appeals__pk=appeal_id).select_related("round").first()


def load_access(user, match):
    """Read ``user``'s roles and whether ``user`` referees ``match`` in one query, kept for this request's
    checks (the roles on the user, the assignment on the match). Returns ``match``. (A write reads the
    same columns with its locked match: :func:`access_columns`.)"""
    if not user.is_authenticated or user.is_superuser:
        return match
    read = _ACCESS_READ.get(match.pk, *access_params(user))   # the columns alone, not the match again
    if read is None:
        return match
    for name in _ACCESS_ATTRIBUTES:
        setattr(match, name, getattr(read, name))
    return apply_access(user, match)


def _list_of(vendor, expression):
    """A subquery's values as one comma-separated string (role and group names hold no comma)."""
    return f"string_agg({expression}, ',')" if vendor == "postgresql" else f"group_concat({expression}, ',')"


def access_columns() -> dict:
    """:func:`load_access`'s read as columns of a match's read (``config.rowread.JoinedRead``, the match
    is ``t0``): {attribute: a function of the database vendor giving its SQL}; each takes the user's id
    (:func:`access_params`), and :func:`apply_access` keeps what they read."""
    memberships = get_user_model().groups.through
    group = memberships._meta.get_field("group").related_model
    referees = Match.referees.through
    round_model = Match.round.field.related_model
    stage_model = round_model.stage.field.related_model
    return {
        "access_site": lambda vendor: (
            f"SELECT {_list_of(vendor, 'g.name')} FROM {group._meta.db_table} g "
            f"JOIN {memberships._meta.db_table} m ON m.group_id = g.id WHERE m.user_id = %s"),
        "access_event": lambda vendor: (
            f"SELECT s.event_id FROM {round_model._meta.db_table} r JOIN {stage_model._meta.db_table} s "
            f"ON s.id = r.stage_id WHERE r.id = t0.round_id"),
        "access_roles": lambda vendor: (
            f"SELECT {_list_of(vendor, 'er.role')} FROM {EventRole._meta.db_table} er "
            f"JOIN {stage_model._meta.db_table} s ON s.event_id = er.event_id "
            f"JOIN {round_model._meta.db_table} r ON r.stage_id = s.id WHERE r.id = t0.round_id AND er.user_id = %s"),
        "access_assigned": lambda vendor: (
            f"EXISTS (SELECT 1 FROM {referees._meta.db_table} a WHERE a.match_id = t0.id AND a.user_id = %s)"),
    }


def access_params(user) -> list:
    """The parameters of :func:`access_columns` for ``user`` (an anonymous user reads nothing)."""
    return [user.pk, user.pk, user.pk]


def apply_access(user, match):
    """Keep for this request what :func:`access_columns` read with ``match``, as :func:`load_access`
    does. Returns ``match``."""
    match._event_id = match.access_event
    if not user.is_authenticated or user.is_superuser:
        return match
    user._tournament_roles = set(filter(None, (match.access_site or "").split(","))) & set(roles.ROLE_PERMISSIONS)
    user.__dict__.setdefault("_event_roles", {})[match.access_event] = set(
        filter(None, (match.access_roles or "").split(",")))
    match._assigned_referees = {user.pk: bool(match.access_assigned)}
    return match


_ACCESS_ATTRIBUTES = tuple(access_columns())
_ACCESS_READ = JoinedRead(Match, (), defer=[f.name for f in Match._meta.concrete_fields], extra=access_columns())


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
    """May ``user`` do ``action`` on ``event`` (or at ``match``, whose event it is)?

    The site-wide roles are tried first (no query), then the roles held in the event.
    """
    if action == CREATE_EVENT:
        return token_event(user) is None and may_create_events(user)
    if event is None and match is None:
        raise ValueError(f"{action!r} needs the event or the match it is asked for")
    if token_event(user) is not None and token_event(user) != _event_id(event, match):
        return action == VIEW and _event_of(event, match).published  # outside its event: as anonymous
    if action == VIEW:
        return _event_of(event, match).published or bool(roles_of(user, event, match=match))
    if action not in _BY_ROLE and action not in (RECORD, FILE_APPEAL):
        raise ValueError(f"unknown action {action!r}")
    if not user.is_authenticated:
        return False
    return _granted(user, action, site_roles(user), match) or _granted(
        user, action, roles_of(user, event, match=match), match)


def _granted(user, action, held, match) -> bool:
    if action in _BY_ROLE:
        return bool(held & _BY_ROLE[action])
    if roles.CHIEF_REFEREE in held:
        return True
    if roles.TABLE_REFEREE not in held or match is None or not _assigned(user, match):
        return False
    return action == FILE_APPEAL or match.round.results_published_at is None
