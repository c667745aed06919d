"""Staff per event: who holds which role in which event (organiser, chief referee, table referee,
arbitration group member). The first chief referee (and the first arbitration member) is the head."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event

__all__ = ["ApiToken", "EventRole"]


class EventRole(models.Model):
    """One role one person holds in one event; a person may hold several roles in an event."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("Organiser")
        CHIEF_REFEREE = "chief_referee", _("Chief referee")
        TABLE_REFEREE = "table_referee", _("Table referee")
        ARBITRATION = "arbitration", _("Arbitration group")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="staff", verbose_name=_("event"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles",
                             verbose_name=_("user"))
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("event role")
        verbose_name_plural = _("event roles")
        ordering = ["event", "role", "id"]
        constraints = [models.UniqueConstraint(fields=["event", "user", "role"], name="event_role_once")]
        indexes = [models.Index(fields=["user", "event"])]

    def __str__(self):
        return f"{self.event} · {self.get_role_display()} · {self.user}"


class ApiToken(models.Model):
    """A key for a script or a referee's device: it acts as ``user`` in ``event`` only (never site-wide),
    made by the event's organiser on the staff page and shown once. Only its SHA-256 digest is kept (the
    key is 256 random bits: a slow password hash would add nothing), with its first characters to find it.
    Revoked by setting ``revoked_at``: the row stays as the record of who could act."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("event"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens",
                             verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(max_length=16, db_index=True)
    digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True,
                                   related_name="+")
    created_at = models.DateTimeField(_("created at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["event", "-created_at", "id"]

    def __str__(self):
        return f"{self.event} · {self.name}"
