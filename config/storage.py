"""Files every machine shares: a Django storage that keeps each file as a row of the database.

Chosen with ``DJANGO_FILE_STORAGE=database`` (see ``config/settings.py``): app servers and Celery
workers on different machines then read and write the same files (a printout built by one machine's
worker is downloaded from another) without a shared disk or an object store. PostgreSQL keeps the
bytes in a ``bytea`` column; a file is read whole into memory, which suits printouts up to tens of MB.
"""
import io

from django.core.files.base import File
from django.core.files.storage import Storage
from django.db import IntegrityError, transaction
from django.utils.deconstruct import deconstructible

from .models import StoredFile

MAX_NAME_ATTEMPTS = 20  # a name taken meanwhile by another machine: try a new free name this often


@deconstructible(path="config.storage.DatabaseStorage")
class DatabaseStorage(Storage):
    """Files as ``config.StoredFile`` rows: name (unique), bytes, size and when stored.

    No ``url()`` or ``path()``: a stored file has neither a public address nor a place on a local disk, so
    Storage's own refusals stand; files are served by the views that check who may read them (a print
    job's download reads ``open()``)."""

    def _open(self, name, mode="rb"):
        if any(flag in mode for flag in "wa+"):
            raise ValueError("DatabaseStorage opens files for reading only; save() writes a new file.")
        content = StoredFile.objects.filter(name=name).values_list("content", flat=True).first()
        if content is None:
            raise FileNotFoundError(name)
        return File(io.BytesIO(bytes(content)), name=name)

    def _save(self, name, content):
        if hasattr(content, "seek"):
            content.seek(0)
        data = b"".join(content.chunks())
        for _attempt in range(MAX_NAME_ATTEMPTS):
            try:
                with transaction.atomic():
                    StoredFile.objects.create(name=name, content=data, size=len(data))
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
