"""Public pages of a spectator's or a player's phone: "find me" (search by name, pinyin or initials), one
entry's page, and the small JSON the live pages poll (read from the hall display's cache: no query when warm).
"""
from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import conditional_page

from infra.etags import hall_read_headers
from rulings import public_log
from tournament import pagecache
from tournament.access import visible_events
from tournament.competition import entry_page, live, search
from tournament.models import Event


def _event(request, slug) -> Event:
    event = get_object_or_404(visible_events(request.user).select_related("profile"), slug=slug)
    pagecache.seen(request, event)
    return event


def public_find(request, slug):
    """Entries whose player, pair, team or unit name matches ``?q=`` (characters, pinyin, initials)."""
    event = _event(request, slug)
    query = request.GET.get("q", "").strip()[:60]
    found = search.find_entries(event.pk, query) if query else []
    return render(request, "tournament/competition/find.html",
                  {"event": event, "find_query": query, "found": found, "tab": "find"})


@pagecache.public_page
def public_entry(request, slug, pair_id):
    """One entry's page: where and when it plays, its levels and results, its standing, its rulings."""
    event = _event(request, slug)
    summary = entry_page.entry_summary(event, pair_id)
    if summary is None:
        raise Http404
    summary["rulings"] = public_log.log_rows(summary["rulings"], request.user)
    return render(request, "tournament/competition/entry.html",
                  {"event": event, "tab": "find", **summary})


@conditional_page
def public_live(request, slug):
    """The live tables of the rounds ``?rounds=1,2`` of the event (levels, hands, states) as JSON; with
    ``&tables=5,9`` those tables only (the ones the page shows).

    A published event's answer comes from the shared display cache (no query on a warm cache); an
    unpublished event's only to the people who may see it. The answer carries an ETag (a hash of its
    body): a poll while nothing changed is a 304 without a body, which the browser's fetch() answers from its
    copy. A published event's answer to a visitor may be kept a second by any cache (``hall_read_headers``).
    """
    data = live.live_tables(slug, live.parse_round_ids(request.GET.get("rounds")),
                            live.parse_match_ids(request.GET.get("tables")))
    if not data["published"] and not visible_events(request.user).filter(slug=slug).exists():
        raise Http404
    return hall_read_headers(request, JsonResponse(data), public=data["published"])
