"""Print jobs: a printout built in the background (a round's score sheets, all certificates).

Imported at the bottom of ``tournament/models.py``. A finished job is reused for the same request
(event, kind, options) while its data fingerprint is unchanged; changed data gets a new job.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra import clock

__all__ = ["PrintJob"]


class PrintJob(models.Model):
    """One background build of a printout and, once done, its PDF file."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Building")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="print_jobs",
                              verbose_name=_("event"))
    kind = models.CharField(_("printout"), max_length=30)
    params = models.JSONField(_("parameters"), default=dict)
    params_key = models.CharField(_("parameters key"), max_length=120)
    fingerprint = models.CharField(_("data fingerprint"), max_length=64)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    file = models.FileField(_("file"), upload_to="printouts/", blank=True)
    error = models.TextField(_("error"), blank=True)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+", verbose_name=_("requested by"))
    created_at = models.DateTimeField(_("created at"), default=clock.now)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # the last sign of life of the build (written by the build loop); a running job silent for longer than
    # the heartbeat timeout lost its worker and is requeued by the sweep (tournament.printouts.services)
    heartbeat_at = models.DateTimeField(_("last heartbeat"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)  # builds started (claims)

    class Meta:
        verbose_name = _("print job")
        verbose_name_plural = _("print jobs")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["event", "kind", "params_key", "fingerprint"], name="printjob_lookup")]
        constraints = [
            models.CheckConstraint(condition=models.Q(progress__lte=100), name="printjob_progress_max_100"),
        ]

    def __str__(self):
        return f"{self.kind} #{self.pk} ({self.status})"

    @property
    def is_finished(self):
        """True when the job is done or failed (nothing more will happen to it)."""
        return self.status in (self.Status.DONE, self.Status.FAILED)
