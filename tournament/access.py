"""Who may do what: the one answer to "may this user act here?", asked by pages, the API and services.

    may(user, action, *, event=None, match=None) -> bool
    visible_events(user) -> QuerySet of the events the user may read
    with_access(queryset, user) -> QuerySet   matches read with their event and ``user``'s assignment
    load_access(user, match) -> match      the user's roles and table assignment read once, kept for the request

Actions (constants below): reading an event (anonymous visitors: published events only), managing it
(organisers), running the hall clock, approving rulings, deciding first-instance appeals and results the
hands cannot decide (chief referees), closing and reopening a round (chief referees and organisers),
second-instance appeals (the arbitration group), recording hands and rulings at a table (a
chief referee at every table; a table referee at the tables assigned to them while the round's results
are not published), filing an appeal (a chief referee or the table's referee), a referee's list of their own tables (table and
chief referees), anyone's list of tables (chief referees and organisers).

Roles are held per event (``tournament.models.EventRole``): a chief referee of event A can do nothing in
event B. Every check names the event (``event=...``) or the match (``match=...``, whose event it is). The
global Django groups of :mod:`tournament.roles` remain as *site-wide* roles (held in every event), kept for
the Django admin and older tests; nothing in the interface or the API grants them. A superuser holds every
role everywhere. A user's roles are read once per request and kept on the user object (per event).
"""
from __future__ import annotations

from django.db.models import Exists, F, OuterRef, Q, Value

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
OWN_TABLES = "own_tables"            # a referee's own list of their tables ("my tables")
REFEREE_TABLES = "referee_tables"    # any referee's list of tables (the chief's desk, the organiser)

# Actions that need one of these roles and nothing else.
_BY_ROLE = {
    MANAGE: {roles.ORGANISER},
    RUN_CLOCK: {roles.CHIEF_REFEREE},
    APPROVE: {roles.CHIEF_REFEREE},
    DECIDE_FIRST: {roles.CHIEF_REFEREE},
    DECIDE_SECOND: {roles.ARBITRATION},
    DECIDE_RESULT: {roles.CHIEF_REFEREE},
    CLOSE_ROUND: {roles.CHIEF_REFEREE, roles.ORGANISER},
    OWN_TABLES: {roles.TABLE_REFEREE, roles.CHIEF_REFEREE},
    REFEREE_TABLES: {roles.CHIEF_REFEREE, roles.ORGANISER},
}
ACTIONS = (VIEW, RECORD, FILE_APPEAL, CREATE_EVENT, *_BY_ROLE)

_ASSIGNED = "#assigned"  # not a group name: marks the row saying the user referees the match


def _account_roles(user) -> set:
    """The site-wide roles of ``user``'s account (every role for a superuser, the global groups otherwise)."""
    cached = getattr(user, "_tournament_roles", None)
    if cached is None:
        cached = set(roles.ROLE_PERMISSIONS) if user.is_superuser else roles.user_roles(user)
        user._tournament_roles = cached
    return cached


def site_roles(user) -> set:
    """The site-wide roles ``user`` holds (every role for a superuser, the global groups otherwise); none
    through an API token: an event's token holds its event's roles only, a site-wide token the roles its
    person holds in each event (and :data:`CREATE_EVENT`)."""
    if not user.is_authenticated or token_event(user) is not None or token_site(user):
        return set()
    return _account_roles(user)


def token_event(user):
    """The event an API token limits ``user`` to (None: a login or a site-wide token, not limited to one)."""
    return getattr(user, "token_event_id", None)


def token_site(user) -> bool:
    """Does ``user`` act through a site-wide organiser token (:class:`tournament.models.ApiToken` without an
    event)?"""
    return getattr(user, "token_site", False)


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
        cache[event_id] = set(_event_rows(user, event_id).values_list("role", flat=True))
    return cache[event_id]


def _event_rows(user, event_id):
    return EventRole.objects.filter(user_id=user.pk, event_id=event_id).order_by()


def _read_roles(user, event_id):
    """Read what ``user`` holds where neither is kept yet for the request: the account's site-wide roles and
    its roles in the event ``event_id``, in one query (the two kinds told apart by a constant column)."""
    if (not user.is_authenticated or event_id is None or user.is_superuser
            or getattr(user, "_tournament_roles", None) is not None or event_id in user.__dict__.get("_event_roles", {})):
        return
    site = roles.role_groups(user).order_by().annotate(held=Value("site")).values_list("held", "name")
    here = _event_rows(user, event_id).annotate(held=Value("event")).values_list("held", "role")
    rows = list(site.union(here, all=True))
    user._tournament_roles = {name for held, name in rows if held == "site"}
    user.__dict__.setdefault("_event_roles", {})[event_id] = {name for held, name in rows if held == "event"}


def roles_of(user, event=None, *, match=None) -> set:
    """The role names ``user`` holds in ``event`` (or at ``match``): the event's roles and the site-wide
    ones. Without an event or a match: the site-wide roles only."""
    if event is None and match is None:
        return site_roles(user)
    event_id = _event_id(event, match)
    _read_roles(user, event_id)
    return site_roles(user) | event_roles(user, event_id)


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
    """A superuser, a site-wide organiser or an account given ``tournament.add_event`` (by a superuser): the
    account's right, also through its site-wide token (never through an event's token: :func:`may`)."""
    if not user.is_authenticated:
        return False
    return bool(_account_roles(user) & {roles.ORGANISER}) or user.has_perm("tournament.add_event")


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


def with_access(queryset, user):
    """Matches read with what the checks of ``user`` need besides the roles: the event's id
    (``access_event``) and whether ``user`` referees the match (``access_assigned``); keep them for the
    request with :func:`remember_access`."""
    assigned = Match.referees.through.objects.filter(match_id=OuterRef("pk"), user_id=user.pk or 0)
    return queryset.annotate(access_event=F("round__stage__event_id"), access_assigned=Exists(assigned))


def remember_access(user, match):
    """Keep for this request what :func:`with_access` read with ``match``. Returns ``match``."""
    match._event_id = match.access_event
    match._assigned_referees = {user.pk: bool(match.access_assigned)}
    return match


def load_access(user, match):
    """Read ``user``'s roles in ``match``'s event and whether ``user`` referees it, kept for this request's
    checks (the roles on the user, the assignment on the match). Returns ``match``."""
    if not user.is_authenticated or (user.is_superuser and site_roles(user)):
        return match
    read = with_access(Match.objects.filter(pk=match.pk), user).values("access_event", "access_assigned").first()
    if read is None:
        return match
    match.access_event, match.access_assigned = read["access_event"], read["access_assigned"]
    remember_access(user, match)
    roles_of(user, match=match)
    return match


def _assigned(user, match) -> bool:
    """Does ``user`` referee ``match``? From the request's read (:func:`with_access`), else one query."""
    known = getattr(match, "_assigned_referees", {})
    if user.pk in known:
        return known[user.pk]
    return match.referees.filter(pk=user.pk).exists()


def _event_of(event, match):
    return event if event is not None else match.round.stage.event


def may(user, action, *, event=None, match=None) -> bool:
    """May ``user`` do ``action`` on ``event`` (or at ``match``, whose event it is)?

    The site-wide roles are tried first (no query), then the roles held in the event.
    """
    if getattr(user, "players_match_id", None) is not None:   # tournament.selfscore.players.writing_for
        return _players_may(user, action, match)
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
    _read_roles(user, _event_id(event, match))
    return _granted(user, action, site_roles(user), match) or _granted(
        user, action, roles_of(user, event, match=match), match)


def _players_may(user, action, match) -> bool:
    """The players' account writing a hand both sides agreed (``tournament.selfscore``): it sees and records at
    that one open match, nothing else."""
    if action not in (VIEW, RECORD) or match is None or match.pk != user.players_match_id:
        return False
    return action == VIEW or match.round.results_published_at is None


def _granted(user, action, held, match) -> bool:
    if action in _BY_ROLE:
        return bool(held & _BY_ROLE[action])
    if roles.CHIEF_REFEREE in held:
        return True
    if roles.TABLE_REFEREE not in held or match is None or not _assigned(user, match):
        return False
    return action == FILE_APPEAL or match.round.results_published_at is None
