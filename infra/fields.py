"""Model fields and migration operations shared by the apps.

    JSONText              JSON data stored as its text: written and read whole, never queried inside
    compress_with_lz4()   a migration operation: PostgreSQL compresses a column's large values with lz4
"""
import json

import orjson
from django.db import migrations, models


class JSONText(models.TextField):
    """JSON data kept as its compact text rather than PostgreSQL's ``jsonb``: for a value written and read
    whole on every request and never queried inside (``scoring.MatchSnapshot.data``), the database then
    neither parses it into ``jsonb`` on every write nor rebuilds its text on every read (of a match's kept
    state: ~1 ms of PostgreSQL per write at forty hands). Reads and writes Python's JSON values, encoded and
    decoded with orjson (several times faster than ``json`` for the kept state, rewritten on every write; the
    same compact text, keys that are not strings written as ``json`` writes them)."""

    def from_db_value(self, value, expression, connection):
        return None if value is None else _loads(value)

    def to_python(self, value):
        if isinstance(value, str):
            return _loads(value)
        return value

    def get_prep_value(self, value):
        if value is None:
            return None
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except orjson.JSONEncodeError:   # what orjson does not write (a whole number past 64 bits): as json does
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def value_to_string(self, obj):
        return self.get_prep_value(self.value_from_object(obj))


def _loads(text):
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:   # what json wrote and orjson refuses (NaN, Infinity)
        return json.loads(text)


def compress_with_lz4(table, column):
    """A migration operation: on PostgreSQL built with lz4 (14 and later), the column's large values are
    compressed with lz4 instead of pglz (several times faster, for a value rewritten on every write: the
    kept match state, an idempotent request's stored answer). Elsewhere it does nothing."""

    def forward(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
            row = cursor.fetchone()
        if row and row[0]:
            quote = connection.ops.quote_name
            schema_editor.execute(f"ALTER TABLE {quote(table)} ALTER COLUMN {quote(column)} SET COMPRESSION lz4")

    return migrations.RunPython(forward, migrations.RunPython.noop)
