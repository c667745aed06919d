"""The API's JSON answers, encoded with orjson: DRF's bytes, several times faster.

An answer listing every hand of a match is encoded on every hand a table records; DRF's renderer goes
through Python's ``json`` with its own encoder for the values JSON does not know. :class:`JSONRenderer`
gives the same bytes (compact, UTF-8, U+2028/U+2029 escaped as DRF escapes them) with orjson, handing
the values orjson would write differently or not at all (times, dates, decimals, translated strings,
DRF's ``ReturnDict``/``ReturnList`` are plain containers) to DRF's own encoder. An indented answer (the
browsable API, ``; indent=``), a non-compact or ASCII-only setting, or a value neither knows goes to DRF's
renderer itself. ``tests/test_renderers.py`` compares the two.
"""
import orjson
from rest_framework import renderers
from rest_framework.settings import api_settings
from rest_framework.utils.encoders import JSONEncoder

_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_NON_STR_KEYS
_default = JSONEncoder().default


class JSONRenderer(renderers.JSONRenderer):
    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None or not (api_settings.COMPACT_JSON and api_settings.UNICODE_JSON) or \
                self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            out = orjson.dumps(data, default=_default, option=_OPTIONS)
        except orjson.JSONEncodeError:   # a value neither knows, or a key orjson cannot write: DRF says why
            return super().render(data, accepted_media_type, renderer_context)
        # As DRF: the two line separators JavaScript (before ES2019) does not take inside a string literal.
        return out.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
