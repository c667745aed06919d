"""Infrastructure models."""
from django.db import models

from . import clock


class IdempotencyRecord(models.Model):
    """The stored answer to an API request sent with an ``Idempotency-Key`` header.

    A retry with the same key (same user) gets the same answer without running the request again.
    ``status`` is null while the first request is still being processed. ``created_at`` is when the
    request was claimed (reset when a retry takes over an abandoned claim); it comes from
    :func:`infra.clock.now` so tests can move time, and is indexed for the purge of old records.
    """

    key = models.CharField(max_length=200)
    owner = models.CharField(max_length=40, blank=True)  # the user's id, "" for anonymous requests
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=500)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField(null=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.BinaryField(default=b"")
    created_at = models.DateTimeField(default=clock.now, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "key"], name="unique_idempotency_key")]


class StoredFile(models.Model):
    """A file kept in the database by :class:`infra.storage.DatabaseStorage`.

    With ``DJANGO_FILE_STORAGE=database`` a printout built by any machine's worker is read by any app
    server: the file lives beside the data it was built from. Meant for printouts (up to tens of MB).
    """

    name = models.CharField(max_length=255, unique=True)
    content = models.BinaryField()
    size = models.BigIntegerField()
    created_at = models.DateTimeField(default=clock.now)

    def __str__(self):
        return f"{self.name} ({self.size} bytes)"
