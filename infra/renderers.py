"""The API's JSON answers, encoded with orjson: DRF's bytes for what the API answers, several times faster.

An answer listing every hand of a match is encoded on every hand a table records; DRF's renderer goes
through Python's ``json`` with its own encoder for the values JSON does not know. :class:`JSONRenderer`
gives the same bytes (compact, UTF-8, U+2028/U+2029 escaped as DRF escapes them) for text, whole numbers,
booleans, None, lists and objects, with orjson, handing the values orjson would write differently or not at
all (times, dates, decimals, translated strings) to DRF's own encoder. Two differences, for values no
answer holds: a float below 1e-4 or from 1e16 is written in orjson's shortest form (``1e-5``, not
``1e-05``), and NaN or infinity as ``null`` where DRF refuses them. An indented answer (the browsable API,
``; indent=``), a renderer set to ASCII or not compact, or a value neither knows goes to DRF's renderer
itself. ``tests/test_renderers.py`` compares the two.
"""
import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_NON_STR_KEYS
_default = JSONEncoder().default


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None or self.ensure_ascii or not self.compact or \
                self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=_default, option=_OPTIONS)
        except orjson.JSONEncodeError:   # a value neither knows, or a key orjson cannot write: DRF says why
            return super().render(data, accepted_media_type, renderer_context)
        # As DRF: the two line separators JavaScript (before ES2019) does not take inside a string literal.
        return out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")


class EventStreamRenderer(JSONRenderer):
    """Lets a request that accepts only ``text/event-stream`` (a browser's EventSource) reach a feed view,
    which answers its own stream; a refusal on the way (404, 400) is the JSON error body, under this type."""

    media_type = "text/event-stream"
    format = "sse"
