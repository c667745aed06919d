"""Individual sign-ups (单人报名): players who register alone and get a partner by lot.

Imported at the bottom of ``tournament/models.py``. The pair draw (``services.entries.draw_individual_pairs``)
turns the active, unpaired sign-ups into :class:`~tournament.models.Pair` rows and records a ``Draw`` of
kind "pairs" with its seed.
"""
from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Registration"]


class Registration(models.Model):
    """One player's individual sign-up for an event.

    Sign-ups are drawn together when they share unit, team, reserve flag and ``pool`` (e.g. "女子" so
    that women are drawn with women for a team's women's pair). ``pair`` is set by the draw.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="registrations",
                              verbose_name=_("event"))
    player = models.OneToOneField("tournament.Player", on_delete=models.PROTECT, related_name="registration",
                                  verbose_name=_("player"))
    team = models.ForeignKey("tournament.Team", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="registrations", verbose_name=_("team"))
    reserve = models.BooleanField(_("reserve pair"), default=False)
    pool = models.CharField(_("draw pool"), max_length=40, blank=True)
    pair = models.ForeignKey("tournament.Pair", null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="registrations", verbose_name=_("drawn pair"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("individual sign-up")
        verbose_name_plural = _("individual sign-ups")
        ordering = ["event", "id"]

    def __str__(self):
        return str(self.player)
