"""The API's JSON parser, hardened: a bounded body, a bounded depth, no NUL, no lone surrogate, an object at
the top.

DRF's own parser reads any length, lets ``json`` recurse until Python's recursion limit (a body nested
1,000 deep answered 500) and hands arrays, strings and ``null`` to views that expect an object. Every
write of this API takes an object, so anything else is refused here with a reason (400, or 413 for a
body past ``DATA_UPLOAD_MAX_MEMORY_SIZE``). PostgreSQL cannot store a NUL character in text or JSON, and
no UTF-8 text (no database, no answer) holds a lone surrogate (a ``"\\ud800"`` escape without its pair;
an escaped pair is one character and welcome): either, in a key or a value, is refused with a 400 naming
the field (``{"field": "venue", ...}``; a dotted path inside, list items by number). Forms cannot send
one: Django decodes their bytes with replacement characters.
"""
import json
import re

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, parsers

#: Objects and arrays nested deeper than this are refused (the API's deepest input is 3 levels).
MAX_JSON_DEPTH = 32


class RequestTooLarge(exceptions.APIException):
    status_code = 413
    default_detail = _("The request body is too large.")
    default_code = "too_large"


def _refuse(message):
    raise exceptions.ParseError(message)


#: A NUL, or a UTF-16 surrogate standing alone (``json`` joins an escaped pair into one character).
_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def check_json(data) -> None:
    """Refuse a parsed body nested past MAX_JSON_DEPTH, or holding a NUL character or a lone surrogate in a key
    or a value (iteratively; the field is looked for only once one is found)."""
    stack = [(data, 1)]
    bad = _NOT_TEXT.search
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth > MAX_JSON_DEPTH:
                _refuse(_("The JSON body is nested too deeply (at most %(most)s levels).") % {"most": MAX_JSON_DEPTH})
            for key, item in value.items():
                if bad(key):
                    _refuse_text(data)
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            if depth > MAX_JSON_DEPTH:
                _refuse(_("The JSON body is nested too deeply (at most %(most)s levels).") % {"most": MAX_JSON_DEPTH})
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str) and bad(value):
            _refuse_text(data)


def _not_text_at(data):
    """(dotted path, character) of the first NUL or lone surrogate in ``data``: the path of the value holding it,
    or of the object whose key holds it ("" at the top)."""
    stack = [(data, "")]
    while stack:
        value, path = stack.pop()
        if isinstance(value, dict):
            for key, item in value.items():
                found = _NOT_TEXT.search(key)
                if found:
                    return path, found.group()
                stack.append((item, f"{path}.{key}" if path else key))
        elif isinstance(value, list):
            stack.extend((item, f"{path}.{i}" if path else str(i)) for i, item in enumerate(value))
        elif isinstance(value, str):
            found = _NOT_TEXT.search(value)
            if found:
                return path, found.group()
    return "", ""


def _refuse_text(data):
    """400 naming the field whose key or text holds a NUL or a lone surrogate (the body as a whole at the top)."""
    field, char = _not_text_at(data)
    if char == "\x00":
        message = _("The JSON body holds a NUL character, which is not allowed.")
    else:
        message = _("The text holds a lone surrogate (an escape from \\ud800 to \\udfff without its pair), "
                    "which is not a character.")
    if field and isinstance(data, dict):
        raise exceptions.ValidationError({field: [message]})
    _refuse(message)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


class SafeJSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge()
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(raw.decode(encoding), parse_constant=_no_constant)
        except RecursionError:
            _refuse(_("The JSON body is nested too deeply (at most %(most)s levels).") % {"most": MAX_JSON_DEPTH})
        except (ValueError, UnicodeDecodeError):
            _refuse(_("The body is not valid JSON."))
        check_json(data)
        if not isinstance(data, dict):
            _refuse(_("The body must be a JSON object ({…}), not an array, a string, a number or null."))
        return data
