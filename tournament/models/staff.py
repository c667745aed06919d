"""Staff per event: who holds which role in which event (organiser, chief referee, table referee,
arbitration group member). The first chief referee (and the first arbitration member) is the head."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event

__all__ = ["ApiToken", "EventRole", "StaffAccount"]


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
    made by the event's organiser on the staff page or through the API and shown once. Without an event it
    is a *site-wide* token of an account that may create events (an organiser's program): it creates events
    and acts with the roles its person holds in each event, never with a site-wide role or a superuser's
    powers. Only its SHA-256 digest is kept (the key is 256 random bits: a slow password hash would add
    nothing), with its first characters to find it. Revoked by setting ``revoked_at``: the row stays as the
    record of who could act."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, null=True, blank=True, related_name="api_tokens",
                              verbose_name=_("event"), help_text=_("empty: a site-wide organiser token"))
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
        return f"{self.event or '*'} · {self.name}"


class StaffAccount(models.Model):
    """What the site knows of an account beside Django's own fields (one row per account that needs one).

    * ``made_for``: the event on whose staff page (or API) the account was made: that event's organisers may
      give it a new one-time password while it works at that event only (nobody else's account).
    * ``one_time_password``: its password was set by someone else (an organiser, a site administrator) and
      handed over on a card: the next login sets a new one before anything else (``infra.auth``); cleared
      when the owner sets their own.
    * ``demo``: one of the demo's accounts (``seed_demo``), removed by ``manage.py remove_demo``.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="staff_account", verbose_name=_("user"))
    made_for = models.ForeignKey(Event, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                 verbose_name=_("made for event"))
    one_time_password = models.BooleanField(_("one-time password"), default=False)
    demo = models.BooleanField(_("demo account"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("staff account")
        verbose_name_plural = _("staff accounts")

    def __str__(self):
        return str(self.user)
