"""Find me (我在哪桌): an event's entries found by the name of a player, a pair, a team or a unit, typed in
Chinese characters, in full pinyin ("zhangsan") or in pinyin initials ("zs").

    search_index(event_id) -> list[dict]     every entry with its names and search keys (cached per event)
    find_entries(event_id, text) -> list      the entries matching ``text``, best matches first
    invalidate(event_id)                      drop the cached index (entries, players, units or teams changed)

The index is built in one query and kept in the cache until an entry, player, unit or team of the event
is saved or deleted (the receivers connected in ``tournament.apps``); a search on a warm cache reads no
table. Names are ordered naturally (一队 < 二队 < 十队, 2 < 10).
"""
from __future__ import annotations

import re
from functools import lru_cache

from django.core.cache import cache
from django.db import transaction
from pypinyin import lazy_pinyin

from common.naturalsort import natural_key
from tournament.models import Pair, Player, Team, Unit

INDEX_SECONDS = 6 * 3600      # a safety net: every write of a name drops the index at once
MAX_RESULTS = 30
_KEEP = "\x00"                # marks a run of the name that is not Chinese characters
_SPACES = re.compile(r"[\s·•・.\-_]+")


def index_key(event_id) -> str:
    return f"find:index:{event_id}"


def normalise(text) -> str:
    """Lower case without spaces or separators ("Zhang San" -> "zhangsan")."""
    return _SPACES.sub("", str(text or "")).lower()


def keys_for(name) -> list[str]:
    """The ways a name can be typed: itself, its full pinyin and its pinyin initials ("张三" ->
    ["张三", "zhangsan", "zs"]); tone marks and the ü are left out (lü is typed "lv")."""
    return list(_keys(name))


@lru_cache(maxsize=65536)
def _keys(name) -> tuple[str, ...]:
    """:func:`keys_for`: one reading of the name gives both pinyin keys; kept per process, so a rebuilt
    index reads again only the names that changed."""
    plain = normalise(name)
    if not plain:
        return ()
    # characters are read as their syllables; anything else (letters, digits) is kept as it is
    runs = lazy_pinyin(plain, v_to_u=False, errors=lambda run: [_KEEP + run])
    full = normalise("".join(s[len(_KEEP):] if s.startswith(_KEEP) else s for s in runs))
    initials = normalise("".join(s[len(_KEEP):] if s.startswith(_KEEP) else s[:1] for s in runs))
    keys = [plain]
    for key in (full, initials):
        if key not in keys:
            keys.append(key)
    return tuple(keys)


def _entry(pair) -> dict:
    """One entry of the index: plain values only (it is stored in the cache)."""
    names = {
        "pair": pair["name"], "player1": pair["player1__name"], "player2": pair["player2__name"],
        "unit": pair["unit__name"], "team": pair["team__name"] or "",
    }
    return {
        "id": pair["id"], "name": pair["name"], "unit": pair["unit__name"], "team": pair["team__name"] or "",
        "players": [pair["player1__name"], pair["player2__name"]], "status": pair["status"],
        "keys": [(what, name, keys_for(name)) for what, name in names.items() if name],
    }


def build_index(event_id) -> list[dict]:
    """Every entry of the event with its search keys, straight from the database (one query)."""
    rows = (Pair.objects.filter(event_id=event_id)
            .values("id", "name", "status", "unit__name", "team__name", "player1__name", "player2__name"))
    return sorted((_entry(row) for row in rows), key=lambda e: (natural_key(e["unit"]), natural_key(e["name"])))


def search_index(event_id) -> list[dict]:
    """The event's index from the cache (built on a miss)."""
    key = index_key(event_id)
    index = cache.get(key)
    if index is None:
        index = build_index(event_id)
        cache.set(key, index, INDEX_SECONDS)
    return index


def _score(entry, query) -> tuple[int, str, str] | None:
    """How well ``entry`` matches: (0 exact, 1 prefix, 2 inside), what matched and its name; None: no match."""
    best = None
    for what, name, keys in entry["keys"]:
        for key in keys:
            if key == query:
                rank = 0
            elif key.startswith(query):
                rank = 1
            elif query in key:
                rank = 2
            else:
                continue
            if best is None or rank < best[0]:
                best = (rank, what, name)
    return best


def find_entries(event_id, text, limit=MAX_RESULTS) -> list[dict]:
    """The entries whose pair, player, team or unit name matches ``text`` (characters, pinyin or
    initials), best first: each entry's dict with ``matched`` (what matched: "player1", "unit", ...) and
    ``matched_name``."""
    query = normalise(text)
    if not query:
        return []
    found = []
    for position, entry in enumerate(search_index(event_id)):
        score = _score(entry, query)
        if score is not None:
            found.append((score[0], position, {**entry, "matched": score[1], "matched_name": score[2]}))
    found.sort(key=lambda item: item[:2])
    return [entry for _, _, entry in found[:limit]]


def invalidate(event_id) -> None:
    """Drop the event's index once the current transaction commits."""
    key = index_key(event_id)
    transaction.on_commit(lambda: cache.delete(key))


def names_changed(sender, instance, **kwargs) -> None:
    """Signal receiver (post_save / post_delete of a pair, player, unit or team): drop its event's index."""
    if instance.event_id:
        invalidate(instance.event_id)


WATCHED = (Pair, Player, Unit, Team)
