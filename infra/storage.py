"""Files every machine shares: a Django storage that keeps each file as a row of the database.

Chosen with ``DJANGO_FILE_STORAGE=database`` (see ``config/settings.py``): app servers and Celery
workers on different machines then read and write the same files (a printout built by one machine's
worker is downloaded from another) without a shared disk or an object store. PostgreSQL keeps the
bytes in a ``bytea`` column; a file is read whole into memory, which suits printouts up to tens of MB.
On PostgreSQL the bytes travel as a binary parameter and a binary result (one copy of the file in the
client's buffer), not as the hex text that the ORM's client-side binding would write and read (about
eight copies of a 7 MB score-sheet PDF: ``bench/bench_scoresheets_round.py`` measures it).
"""
import io

import psycopg
from django.core.files.base import File
from django.core.files.storage import Storage
from django.db import IntegrityError, connections, router, transaction
from django.utils.deconstruct import deconstructible

from . import clock
from .models import StoredFile

MAX_NAME_ATTEMPTS = 20  # a name taken meanwhile by another machine: try a new free name this often


@deconstructible(path="infra.storage.DatabaseStorage")
class DatabaseStorage(Storage):
    """Files as ``config.StoredFile`` rows (``config`` is the app label, see ``apps.py``): name (unique), bytes,
    size and when stored.

    No ``url()`` or ``path()``: a stored file has neither a public address nor a place on a local disk, so
    Storage's own refusals stand; files are served by the views that check who may read them (a print
    job's download reads ``open()``)."""

    def _open(self, name, mode="rb"):
        if any(flag in mode for flag in "wa+"):
            raise ValueError("DatabaseStorage opens files for reading only; save() writes a new file.")
        connection = connections[router.db_for_read(StoredFile)]
        if connection.vendor == "postgresql":
            rows = _binary(connection, f"SELECT content FROM {_table(connection)} WHERE name = %s", [name])
            content = rows[0][0] if rows else None
        else:
            content = StoredFile.objects.filter(name=name).values_list("content", flat=True).first()
        if content is None:
            raise FileNotFoundError(name)
        return File(io.BytesIO(bytes(content)), name=name)

    def _save(self, name, content):
        if hasattr(content, "seek"):
            content.seek(0)
        data = b"".join(content.chunks())
        using = router.db_for_write(StoredFile)
        for _attempt in range(MAX_NAME_ATTEMPTS):
            try:
                with transaction.atomic(using=using):
                    _insert(connections[using], name, data)
                return name
            except IntegrityError:  # another process stored this name since get_available_name looked
                name = self.get_available_name(name)
        raise FileExistsError(name)

    def delete(self, name):
        StoredFile.objects.filter(name=name).delete()

    def exists(self, name):
        return StoredFile.objects.filter(name=name).exists()

    def size(self, name):
        size = StoredFile.objects.filter(name=name).values_list("size", flat=True).first()
        if size is None:
            raise FileNotFoundError(name)
        return size

    def listdir(self, path):
        """The folders and files directly under ``path`` (names are ``/``-separated)."""
        prefix = path.strip("/") + "/" if path.strip("/") else ""
        directories, files = set(), []
        for name in StoredFile.objects.filter(name__startswith=prefix).values_list("name", flat=True):
            head, sep, tail = name[len(prefix):].partition("/")
            if sep:
                directories.add(head)
            else:
                files.append(head)
        return sorted(directories), sorted(files)

    def get_created_time(self, name):
        created = StoredFile.objects.filter(name=name).values_list("created_at", flat=True).first()
        if created is None:
            raise FileNotFoundError(name)
        return created

    get_modified_time = get_created_time  # a stored file is never changed, only replaced by a new name

    def get_accessed_time(self, name):
        return self.get_created_time(name)


def _table(connection):
    return connection.ops.quote_name(StoredFile._meta.db_table)


def _binary(connection, sql, params):
    """Run ``sql`` on PostgreSQL with server-side binding and binary results (``%b``: a binary parameter);
    the rows, or None for a statement without any. Through Django's cursor wrapper, so errors are Django's
    (IntegrityError) and the query is logged and seen by execute wrappers like any other."""
    connection.ensure_connection()
    raw = psycopg.Cursor(connection.connection)
    raw.format = psycopg.pq.Format.BINARY
    wrap = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    with wrap(raw) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


def _insert(connection, name, data):
    """One new row for ``data`` (bytes); on PostgreSQL without the hex-text copies (module docstring)."""
    if connection.vendor != "postgresql":
        StoredFile.objects.using(connection.alias).create(name=name, content=data, size=len(data))
        return
    _binary(connection, f"INSERT INTO {_table(connection)} (name, content, size, created_at) "
                        "VALUES (%s, %b, %s, %s)", [name, data, len(data), clock.now()])
