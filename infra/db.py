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
