"""The public pages of an event, cached for anonymous visitors: the one owner of "the event's public pages changed".

    changed(event_id)                  the event's public pages changed: its generation is bumped on commit
    changed_round(round_id)            the same, from a round (a result, a round's time, a closure)
    public_page(view)                  decorator: an anonymous GET of the page is served from the cache
    seen(request, event)               the view names the event it shows (the decorator keys on its id)

Every cached copy is keyed by the event's id and **generation** (a token kept in the shared cache with no
expiry), the path with its query, and the language. A write that changes what the public pages show calls
:func:`changed` (or a ``post_save``/``post_delete`` receiver connected in ``tournament.apps`` does, see
:data:`WATCHED`); after its transaction commits the event's generation is a new token, so the next GET
renders the page again. Nothing is deleted: the old copies expire with ``PAGE_TTL``.

What bumps the generation: an event's edit, publication or deletion; its stages, rounds, groups, draws,
entries (pairs, players, units, teams, removals, restorations, substitutions); a round closed or reopened,
its start time, a clock event; a match's outcome or status changing (``results.settle``, byes, walkovers,
the bracket moving on); every ruling row (a ruling, void, approval, choice, appeal and its decision) and a
chief's result decision.

What does not: a hand that changes only the levels of a match still being played (``settle`` runs on every
hand; bumping there would empty the cache of a big event every second). The cached copy then shows levels
up to ``PAGE_TTL`` seconds old; the live parts of the pages (``static/js/live.js``) poll ``live.json`` and
bring them up to date within seconds anyway. ``PAGE_TTL`` is also the bound on anything a writer forgot.

Only anonymous GETs without a session or messages cookie are cached (staff and logged-in visitors see
more, and always get a fresh page), and only a page that carries no per-visitor token: the language menu asks
with a GET and has none, and a page that shows a form's CSRF token is never stored (another visitor would get
that token's secret).
"""
from __future__ import annotations

import hashlib
import re
import uuid
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.utils import translation

from rulings.models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid
from tournament.models import (
    ClockEvent,
    Draw,
    Event,
    Group,
    GroupEntry,
    Match,
    Pair,
    PairRemoval,
    PairRestoration,
    PairSubstitution,
    Player,
    ResultDecision,
    Round,
    RoundClosure,
    Stage,
    Team,
    Unit,
)

PAGE_TTL = 30  # seconds a cached copy lives: the bound on level-only changes (hands) and on a missed writer
QUERY_KEYS = frozenset({"page", "spage", "stage", "round"})  # the query parameters the public pages read
_TOKEN = re.compile(rb'name="csrfmiddlewaretoken"')


# --------------------------------------------------------------------------- the generation
def _gen_key(event_id) -> str:
    return f"pages:gen:{event_id}"


def _slug_key(slug) -> str:
    return f"pages:slug:{slug}"


def generation(event_id) -> str:
    """The event's current generation token (made on first use; no expiry)."""
    key = _gen_key(event_id)
    token = cache.get(key)
    if token is None:
        cache.add(key, uuid.uuid4().hex[:12], None)
        token = cache.get(key)
    return token


def _bump(event_id) -> None:
    """A new generation, if the event has one: none means no page of it was ever cached (a table's write
    then costs a cache read, not a write; the page cached next starts a generation)."""
    key = _gen_key(event_id)
    if cache.get(key) is not None:
        cache.set(key, uuid.uuid4().hex[:12], None)


_stored = 0  # copies this process has stored so far (a bump within a transaction is skipped if none since)
_bumped_at: dict = {}  # event id -> _stored when this process last bumped it within a transaction


def changed(event_id) -> None:
    """The event's public pages changed: a new generation once the current transaction commits (at once
    outside one). Within a transaction the generation is also bumped at once if this process stored a copy
    since it last did so: a page read in the same transaction (a test) or an id reused after a rolled-back
    one never meets an old copy, while a table's write (a server that stores no pages) costs one cache
    write, on commit."""
    if event_id is None:
        return
    if transaction.get_connection().in_atomic_block and _bumped_at.get(event_id) != _stored:
        _bump(event_id)
        _bumped_at[event_id] = _stored
    transaction.on_commit(lambda: _bump(event_id))


# The event of a stage, round, match, ruling, ... never changes: kept per process once read.
_EVENT_OF: dict = {}
_LOOKUPS = {
    "stage": (Stage, "event_id"), "round": (Round, "stage__event_id"), "group": (Group, "stage__event_id"),
    "match": (Match, "round__stage__event_id"), "ruling": (Ruling, "match__round__stage__event_id"),
    "appeal": (Appeal, "ruling__match__round__stage__event_id"), "pair": (Pair, "event_id"),
    "removal": (PairRemoval, "pair__event_id"),
}


def event_of(kind: str, pk):
    """The id of the event a ``kind`` row (``stage``, ``round``, ``match``, ...) belongs to, or None if gone."""
    if pk is None:
        return None
    found = _EVENT_OF.get((kind, pk))
    if found is None:
        model, path = _LOOKUPS[kind]
        found = model.objects.filter(pk=pk).values_list(path, flat=True).first()
        if found is None:
            return None
        if len(_EVENT_OF) > 100_000:
            _EVENT_OF.clear()
        _EVENT_OF[(kind, pk)] = found
    return found


def forget_rows() -> None:
    """Forget the events of the rows read so far (a test database reuses the ids of rolled-back rows)."""
    _EVENT_OF.clear()


def changed_round(round_id) -> None:
    changed(event_of("round", round_id))


def changed_match(match) -> None:
    changed(event_of("round", match.round_id))


# model -> how its row names its event: an attribute holding the event id, or (kind, attribute) to look up
WATCHED = {
    Event: "pk", Stage: "event_id", Pair: "event_id", Player: "event_id", Unit: "event_id", Team: "event_id",
    Draw: "event_id", PairSubstitution: "event_id", Round: ("stage", "stage_id"), Group: ("stage", "stage_id"),
    GroupEntry: ("group", "group_id"), RoundClosure: ("round", "round_id"), ClockEvent: ("round", "round_id"),
    ResultDecision: ("match", "match_id"), Ruling: ("match", "match_id"), RulingVoid: ("ruling", "ruling_id"),
    Approval: ("ruling", "ruling_id"), ChoiceMade: ("ruling", "ruling_id"), Appeal: ("ruling", "ruling_id"),
    AppealDecision: ("appeal", "appeal_id"), PairRemoval: ("pair", "pair_id"), PairRestoration: ("removal", "removal_id"),
}
# Rows deleted in bulk with their stage (a re-draw): connecting post_delete would load each before deleting
# it; the stage's services call :func:`changed` themselves.
SAVE_ONLY = (Round, Group, GroupEntry)


def row_written(sender, instance, **kwargs) -> None:
    """Signal receiver (``post_save``/``post_delete`` of a :data:`WATCHED` model): its event's pages changed."""
    how = WATCHED[sender]
    if isinstance(how, str):
        changed(getattr(instance, how))
    else:
        kind, attribute = how
        changed(event_of(kind, getattr(instance, attribute)))
    if sender is Event:
        cache.delete(_slug_key(instance.slug))


# --------------------------------------------------------------------------- serving
def seen(request, event) -> None:
    """Name the event a public view shows, so :func:`public_page` can store its copy under the event."""
    request._pagecache_event = event.pk


def _cacheable(request) -> bool:
    if not settings.PUBLIC_PAGE_CACHE or request.method not in ("GET", "HEAD"):
        return False
    cookies = request.COOKIES
    if settings.SESSION_COOKIE_NAME in cookies or getattr(settings, "MESSAGE_COOKIE_NAME", "messages") in cookies:
        return False
    if not set(request.GET) <= QUERY_KEYS:
        return False
    return not request.user.is_authenticated


def _page_key(event_id, token, request) -> str:
    # the host and scheme too: a page's share links are absolute addresses
    address = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    path = hashlib.sha1(address.encode()).hexdigest()[:20]
    return f"pages:{event_id}:{token}:{translation.get_language()}:{path}"


def _serve(request, stored) -> HttpResponse:
    content_type, body = stored
    response = HttpResponse(body, content_type=content_type)
    response["X-Page-Cache"] = "hit"
    return response


def public_page(view):
    """Serve an anonymous visitor's GET of an event's public page from the cache (see the module's doc)."""

    @wraps(view)
    def wrapped(request, slug, *args, **kwargs):
        if not _cacheable(request):
            return view(request, slug, *args, **kwargs)
        event_id = cache.get(_slug_key(slug))
        token = key = None
        if event_id is not None:
            token = generation(event_id)
            key = _page_key(event_id, token, request)
            stored = cache.get(key)
            if stored is not None:
                return _serve(request, stored)
        response = view(request, slug, *args, **kwargs)
        shown = getattr(request, "_pagecache_event", None)
        if (response.status_code != 200 or response.streaming or response.cookies or shown is None
                or _TOKEN.search(response.content)):
            return response
        if shown != event_id:  # first page of this slug (or the slug now names another event)
            cache.set(_slug_key(slug), shown, None)
            token = generation(shown)
            key = _page_key(shown, token, request)
        cache.set(key, (response["Content-Type"], response.content), PAGE_TTL)
        global _stored
        _stored += 1
        return response

    return wrapped
