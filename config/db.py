"""Row locks that also serialise writers on SQLite (the embedded default); a write's transaction."""
import contextvars
from contextlib import contextmanager

from django.db import transaction
from django.db.models import F

from config.rowread import deferring

_in_request = contextvars.ContextVar("request_transaction", default=False)


@contextmanager
def request_transaction():
    """The transaction of a whole request (the idempotency middleware's): inside it, :func:`write`
    needs no savepoint, since an error there rolls the whole request back."""
    with transaction.atomic(), deferring():   # the block's later() writes, sent together before the commit
        token = _in_request.set(True)
        try:
            yield
        finally:
            _in_request.reset(token)


def write():
    """``transaction.atomic`` for a service's write: its own transaction, or a savepoint inside a caller's,
    except directly inside a request's transaction (:func:`request_transaction`), where an error rolls
    back the whole request anyway and two round trips are saved. The caller must not query after an
    error inside it."""
    return transaction.atomic(savepoint=not _in_request.get())


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
