"""infra.fields: JSON kept as text (the match's kept state) and lz4 for the values rewritten on every write."""
import pytest
from django.db import connection

from infra.fields import JSONText
from infra.models import IdempotencyRecord
from scoring.models import MatchSnapshot

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", [{"hands": [[1, 2, "王明", None]], "waiting": False}, [], {"a": 1.5}])
def test_json_text_stores_text_and_gives_the_value_back(value):
    field = MatchSnapshot._meta.get_field("data")
    assert isinstance(field, JSONText)
    stored = field.get_prep_value(value)
    assert isinstance(stored, str) and "\\u" not in stored and ", " not in stored   # compact, Chinese as is
    assert field.from_db_value(stored, None, connection) == value
    assert field.to_python(stored) == value and field.to_python(value) == value
    assert field.get_prep_value(None) is None and field.from_db_value(None, None, connection) is None


def test_the_kept_state_column_is_text_in_the_database():
    with connection.cursor() as cursor:
        description = connection.introspection.get_table_description(cursor, MatchSnapshot._meta.db_table)
    kinds = {column.name: connection.introspection.get_field_type(column.type_code, column) for column in description}
    assert kinds["data"] == "TextField"


@pytest.mark.skipif(connection.vendor != "postgresql", reason="column compression is PostgreSQL's")
@pytest.mark.parametrize("model, column", [(MatchSnapshot, "data"), (IdempotencyRecord, "body")])
def test_rewritten_values_are_compressed_with_lz4(model, column):
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        if not cursor.fetchone()[0]:
            pytest.skip("this PostgreSQL is built without lz4")
        cursor.execute("SELECT attcompression FROM pg_attribute WHERE attrelid = %s::regclass AND attname = %s",
                       [model._meta.db_table, column])
        assert cursor.fetchone()[0] == "l"
