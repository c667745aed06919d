"""Units register themselves (the organiser no longer types every entry): a private link per unit (or per
individual in an open event), the event's registration window, and every save, submission and approval as an
append-only version."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.appendonly import AppendOnlyModel
from tournament.models.entries import Unit
from tournament.models.event import Event

__all__ = ['RegistrationWindow', 'UnitLink', 'UnitEntryVersion']


class RegistrationWindow(models.Model):
    """The event's registration window: after ``closes_at`` the links are read-only (unless reopened)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="registration_window",
                                 verbose_name=_("event"))
    closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    asks_phone = models.BooleanField(_("phone required"), default=False)

    class Meta:
        verbose_name = _("registration window")
        verbose_name_plural = _("registration windows")


class UnitLink(models.Model):
    """A unit's private registration link; only the SHA-256 digest of its key is kept."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="unit_links", verbose_name=_("event"))
    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="links", verbose_name=_("unit"))
    individual = models.BooleanField(_("individual"), default=False)
    digest = models.CharField(max_length=64, unique=True)
    contact_phone = models.CharField(_("contact's phone"), max_length=30, blank=True)
    reopened = models.BooleanField(_("reopened after the deadline"), default=False)
    seen = models.PositiveIntegerField(_("last version looked at"), default=0)
    created_at = models.DateTimeField(_("created at"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    #: When the key was last replaced by a new one (a reprinted card): the old key no longer opens the page.
    reissued_at = models.DateTimeField(_("new key issued at"), null=True, blank=True)

    class Meta:
        verbose_name = _("registration link")
        verbose_name_plural = _("registration links")
        ordering = ["unit__name", "id"]

    def __str__(self):
        return str(self.unit)


class UnitEntryVersion(AppendOnlyModel):
    """One save, submission or approval of a unit's entries (the pairs as typed), never changed."""

    class Action(models.TextChoices):
        SAVED = "saved", _("Saved")
        SUBMITTED = "submitted", _("Submitted")
        APPROVED = "approved", _("Approved")
        REFUSED = "refused", _("Sent back")

    link = models.ForeignKey(UnitLink, on_delete=models.PROTECT, related_name="versions", verbose_name=_("link"))
    number = models.PositiveIntegerField(_("version"))
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    pairs = models.JSONField(_("pairs"), default=list)
    at = models.DateTimeField(_("at"))
    by_user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                related_name="+", verbose_name=_("approved by"))
    #: An approval's entries: the pairs it made or kept (the next approval replaces only these). None on
    #: other actions (and on approvals stored before the field existed).
    pair_ids = models.JSONField(_("pairs entered"), null=True, blank=True, default=None)
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        verbose_name = _("unit entry version")
        verbose_name_plural = _("unit entry versions")
        ordering = ["link", "number"]
        constraints = [models.UniqueConstraint(fields=["link", "number"], name="unique_unit_entry_version")]
