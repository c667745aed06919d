"""The event file's format, pure Python: the envelope, JSON values, the checksum, and the ids a draw's JSON
holds (so an import can renumber them with the rows).

The file::

    {"format": "tractor-event", "version": 1, "exported_at": "...", "event": "<slug>",
     "sha256": "<of the canonical JSON of data>", "data": {...}}

``data`` holds ``users`` (by username, no passwords), ``profiles`` (rule-profile versions) and ``tables``
(``{"app.model": [row, ...]}``, each row its column values by attribute name, primary keys as exported).
"""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import re

from common.errors import UserError, gettext_noop

FORMAT = "tractor-event"
VERSION = 1

# No database stores a NUL in text, and no UTF-8 text holds a lone surrogate (a "\ud800" escape unpaired).
NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


class TransferError(UserError):
    """A file that cannot be imported (nothing was saved)."""


def canonical(data) -> bytes:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def checksum(data) -> str:
    return hashlib.sha256(canonical(data)).hexdigest()


def encode(value):
    """A column value as JSON (dates and times as ISO 8601 text)."""
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat()
    return value


def envelope(slug: str, data: dict, exported_at: dt.datetime) -> dict:
    return {"format": FORMAT, "version": VERSION, "exported_at": exported_at.isoformat(), "event": slug,
            "sha256": checksum(data), "data": data}


def dumps(payload: dict) -> str:
    """The file's text (UTF-8, readable Chinese, one key order)."""
    return json.dumps(payload, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def parse(raw: bytes | str) -> dict:
    """The file's ``data``, checked: the format, text only (no NUL, no lone surrogate), a version this code
    reads, the checksum."""
    try:
        payload = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise TransferError(gettext_noop("This file is not an event export: it is not JSON."), field="file") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise TransferError(gettext_noop("This file is not an event export."), field="file")
    if not_text(payload):  # before any of it is hashed or shown
        raise TransferError(gettext_noop("The export file holds a character that is not text (a NUL or a lone "
                                         "surrogate): nothing was imported."), field="file")
    version = payload.get("version")
    if version != VERSION:
        raise TransferError(gettext_noop("This export is format version %(version)s; this installation reads "
                                         "version %(supported)s."), field="file", version=version,
                            supported=VERSION)
    data = payload.get("data")
    if not isinstance(data, dict):
        raise TransferError(gettext_noop("This file is not an event export."), field="file")
    if payload.get("sha256") != checksum(data):
        raise TransferError(gettext_noop("The export file is damaged or was edited (its checksum does not "
                                         "match): nothing was imported."), field="file")
    return data


def damaged(where) -> TransferError:
    """The refusal of a file whose ``where`` (a table and row, "users", ...) cannot be read: nothing is imported."""
    return TransferError(gettext_noop("The export file is damaged at %(where)s: nothing was imported."),
                         field="file", where=where)


def not_text(data) -> bool:
    """Whether a key or a text anywhere in ``data`` holds a NUL or a lone surrogate (iteratively)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if any(NOT_TEXT.search(key) for key in value if isinstance(key, str)):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str) and NOT_TEXT.search(value):
            return True
    return False


# --------------------------------------------------------------------------- ids inside a draw's JSON
def _ids(values, new):
    return [new(v) for v in values]


def _id_or_label(value, new):
    """A bracket slot: an entry id, a qualifier label ("A1") or None (a bye)."""
    return new(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _keys(mapping, new, value=lambda v: v):
    return {str(new(int(k))): value(v) for k, v in mapping.items()}


def remap_draw(kind: str, params: dict, result: dict, ids) -> tuple[dict, dict]:
    """``params`` and ``result`` of a draw of ``kind`` with every id renumbered.

    ``ids`` has ``pair(old)``, ``player(old)``, ``match(old)`` and ``unit(old)``, each answering the new id
    (KeyError for an id the file does not hold). Other values are copied as they are.
    """
    p, r = dict(params), dict(result)
    pair, unit = ids.pair, ids.unit
    if kind == "pairs":
        p["pools"] = [{**pool, "players": _ids(pool["players"], ids.player)} for pool in params["pools"]]
        r["pairs"] = [[ids.player(a), ids.player(b), pair(c)] for a, b, c in result["pairs"]]
    elif kind == "groups":
        p["entries"] = _ids(params["entries"], pair)
        p["units"] = _keys(params["units"], pair, unit)
        r["groups"] = [_ids(group, pair) for group in result["groups"]]
    elif kind == "bracket":
        if "entries" in params:
            p["entries"] = _ids(params["entries"], pair)
        if "units" in params:
            p["units"] = _keys(params["units"], pair, unit)
        r["first_round"] = [[_id_or_label(a, pair) for a in slot] for slot in result["first_round"]]
    elif kind == "seats":
        p["matches"] = [[ids.match(m), pair(a), pair(b)] for m, a, b in params["matches"]]
        r["seats"] = [[ids.match(m), pair(a), pair(b)] for m, a, b in result["seats"]]
    elif kind == "tables":
        p["matches"] = {number: _ids(matches, ids.match) for number, matches in params["matches"].items()}
    elif kind == "swiss":
        for key in ("entries", "ranking", "had_bye"):
            p[key] = _ids(params[key], pair)
        p["scores"] = _keys(params["scores"], pair)
        p["units"] = _keys(params["units"], pair, unit)
        p["played"] = [_ids(two, pair) for two in params["played"]]
        r["pairs"] = [[pair(a), None if b is None else pair(b)] for a, b in result["pairs"]]
        r["rematches"] = [_ids(two, pair) for two in result["rematches"]]
    else:
        raise KeyError(f"draw kind {kind}")
    return p, r
