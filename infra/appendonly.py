"""Append-only records: hands, rulings, draws and clock events are never edited or deleted.

A correction is a new row that supersedes (or voids) the old one. :class:`AppendOnlyModel` refuses
updates and deletes in the application; :func:`append_only_trigger` gives a migration operation that
makes PostgreSQL itself refuse them too.
"""
from django.db import migrations, models
from django.utils.translation import gettext, gettext_noop

CHANGE_REFUSED = gettext_noop("%(model)s records are append-only: they cannot be changed.")
DELETE_REFUSED = gettext_noop("%(model)s records are append-only: they cannot be deleted.")


class AppendOnlyError(Exception):
    """Raised on an attempt to change or delete an append-only record (a programming error, not a user's).

    ``message`` is an English msgid with ``%(model)s``; ``str(error)`` reads in the active language.
    """

    def __init__(self, message, model):
        self.message, self.model = message, model
        super().__init__(message, model)

    def __str__(self):
        return gettext(self.message) % {"model": self.model}


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError(CHANGE_REFUSED, self.model.__name__)

    def delete(self):
        raise AppendOnlyError(DELETE_REFUSED, self.model.__name__)


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(CHANGE_REFUSED, type(self).__name__)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(DELETE_REFUSED, type(self).__name__)


def append_only_trigger(table):
    """A migration operation: on PostgreSQL, a trigger that rejects UPDATE and DELETE on ``table``."""
    function = f"{table}_append_only"

    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            f"""
            CREATE OR REPLACE FUNCTION {function}() RETURNS trigger AS $$
            BEGIN
                RAISE EXCEPTION '% on {table} refused: records are append-only', TG_OP;
            END;
            $$ LANGUAGE plpgsql;
            DROP TRIGGER IF EXISTS {function} ON {table};
            CREATE TRIGGER {function} BEFORE UPDATE OR DELETE ON {table}
                FOR EACH ROW EXECUTE FUNCTION {function}();
            """,
            params=None,  # the SQL holds a literal %: no parameter interpolation
        )

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            f"DROP TRIGGER IF EXISTS {function} ON {table}; DROP FUNCTION IF EXISTS {function}();", params=None
        )

    return migrations.RunPython(forwards, backwards)


#: The session setting that lets TRUNCATE through (a DBA's or the test suite's flush; never the application).
ALLOW_TRUNCATE_SETTING = "tractor.allow_truncate"


def truncate_refused_trigger(table):
    """A migration operation: on PostgreSQL, a statement-level trigger that refuses TRUNCATE on ``table``
    (row triggers do not see TRUNCATE). A session with ``tractor.allow_truncate = on`` passes: the test
    suite's flush sets it on its own database; production never does (docs/ARCHITECTURE.md)."""
    function = f"{table}_no_truncate"

    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            f"""
            CREATE OR REPLACE FUNCTION {function}() RETURNS trigger AS $$
            BEGIN
                IF current_setting('{ALLOW_TRUNCATE_SETTING}', true) = 'on' THEN
                    RETURN NULL;
                END IF;
                RAISE EXCEPTION 'TRUNCATE on {table} refused: records are append-only';
            END;
            $$ LANGUAGE plpgsql;
            DROP TRIGGER IF EXISTS {function} ON {table};
            CREATE TRIGGER {function} BEFORE TRUNCATE ON {table}
                FOR EACH STATEMENT EXECUTE FUNCTION {function}();
            """,
            params=None,
        )

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(
            f"DROP TRIGGER IF EXISTS {function} ON {table}; DROP FUNCTION IF EXISTS {function}();", params=None
        )

    return migrations.RunPython(forwards, backwards)
