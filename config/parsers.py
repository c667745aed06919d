"""The API's JSON parser, hardened: a bounded body, a bounded depth, no NUL, an object at the top.

DRF's own parser reads any length, lets ``json`` recurse until Python's recursion limit (a body nested
1,000 deep answered 500) and hands arrays, strings and ``null`` to views that expect an object. Every
write of this API takes an object, so anything else is refused here with a reason (400, or 413 for a
body past ``DATA_UPLOAD_MAX_MEMORY_SIZE``). PostgreSQL cannot store a NUL character in text or JSON: a
NUL anywhere (a key or a value) is refused too.
"""
import json

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


def check_json(data) -> None:
    """Refuse a parsed body nested past MAX_JSON_DEPTH or holding a NUL character (iteratively)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            if depth > MAX_JSON_DEPTH:
                _refuse(_("The JSON body is nested too deeply (at most %(most)s levels).") % {"most": MAX_JSON_DEPTH})
            for key, item in value.items():
                if "\x00" in key:
                    _refuse(_("The JSON body holds a NUL character, which is not allowed."))
                stack.append((item, depth + 1))
        elif isinstance(value, list):
            if depth > MAX_JSON_DEPTH:
                _refuse(_("The JSON body is nested too deeply (at most %(most)s levels).") % {"most": MAX_JSON_DEPTH})
            stack.extend((item, depth + 1) for item in value)
        elif isinstance(value, str) and "\x00" in value:
            _refuse(_("The JSON body holds a NUL character, which is not allowed."))


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
