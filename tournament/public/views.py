"""Public pages of a spectator's or a player's phone: "find me" (search by name, pinyin or initials) and one
entry's page. The small JSON the live pages poll is a clock page (``tournament.clocks.views.public_live``).
"""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from rulings import public_log
from tournament import pagecache
from tournament.access import visible_events
from tournament.competition import search
from tournament.models import Event
from tournament.public import entry_page


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
