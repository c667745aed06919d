"""Row locks that also serialise writers on SQLite (the embedded default)."""
from django.db import transaction
from django.db.models import F


def lock_row(queryset, pk):
    """``select_for_update`` the row ``pk`` of ``queryset`` (only that table's row) and return it.

    PostgreSQL locks the row. SQLite has no row locks and ignores ``select_for_update``: a no-op
    UPDATE as the transaction's first write takes the database write lock at once, so a concurrent
    writer waits here (busy timeout) instead of failing later when it upgrades its read lock.
    """
    if transaction.get_connection().vendor == "sqlite":
        column = queryset.model._meta.pk.attname
        queryset.model.objects.filter(pk=pk).update(**{column: F(column)})
    return queryset.select_for_update(of=("self",)).get(pk=pk)


def lock_table(model):
    """Serialise the writers of ``model``'s table until the transaction ends (call it inside ``atomic``), for
    a check that no row can hold: "no such row yet" read after this stays true until this transaction ends.

    PostgreSQL: ``LOCK TABLE ... IN SHARE ROW EXCLUSIVE MODE`` (readers go on; a second locker and every
    writer wait). SQLite: a no-op UPDATE takes the database write lock at once (as :func:`lock_row`)."""
    connection = transaction.get_connection()
    table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"LOCK TABLE {table} IN SHARE ROW EXCLUSIVE MODE")
        else:
            column = connection.ops.quote_name(model._meta.pk.column)
            cursor.execute(f"UPDATE {table} SET {column} = {column} WHERE 1 = 0")
