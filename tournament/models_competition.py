"""Competition additions to the tournament models: which unit a referee belongs to.

Imported at the bottom of ``tournament/models.py``. The signal handlers here keep the
competition consistent by themselves:

- a Match saved as over (finished, walkover, forfeit) moves the bracket on
  (:func:`tournament.services.progress.on_match_finished`, idempotent);
- a Pair saved as withdrawn gives its opponents walkovers
  (:func:`tournament.services.progress.on_entry_withdrawn`, idempotent);
- a referee is never added to a match where an entry of the referee's own unit plays.
"""
from django.conf import settings
from django.db import models
from django.db.models.signals import m2m_changed, post_save
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

__all__ = ["RefereeUnit"]


class RefereeUnit(models.Model):
    """The unit a referee belongs to at one event (a referee never officiates a table of that unit)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee_units",
                             verbose_name=_("referee"))
    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="referee_units",
                              verbose_name=_("event"))
    unit = models.ForeignKey("tournament.Unit", on_delete=models.CASCADE, related_name="referees",
                             verbose_name=_("unit"))

    class Meta:
        verbose_name = _("referee's unit")
        verbose_name_plural = _("referees' units")
        constraints = [models.UniqueConstraint(fields=["user", "event"], name="unique_referee_unit")]

    def __str__(self):
        return f"{self.user} · {self.unit}"


@receiver(post_save, sender="tournament.Match", dispatch_uid="competition_match_finished")
def _match_saved(sender, instance, raw=False, **kwargs):
    """Move the competition on when a match is saved as over (not for fixtures being loaded)."""
    if raw or not instance.is_over or instance.status == "bye":
        return
    from .services.progress import on_match_finished

    on_match_finished(instance)


@receiver(post_save, sender="tournament.Pair", dispatch_uid="competition_pair_withdrawn")
def _pair_saved(sender, instance, raw=False, created=False, **kwargs):
    """Give walkovers to the opponents of a pair saved as withdrawn."""
    if raw or created or instance.status != "withdrawn":
        return
    from .services.progress import on_entry_withdrawn

    on_entry_withdrawn(instance)


@receiver(m2m_changed, sender="tournament.Match_referees", dispatch_uid="competition_referee_unit_rule")
def _referees_changed(sender, instance, action, reverse, pk_set, **kwargs):
    """Refuse to add a referee whose unit plays at that table (from either side of the relation)."""
    if action != "pre_add" or not pk_set:
        return
    from .services.stages import check_referees_allowed

    if reverse:  # user.assigned_matches.add(match, ...)
        from .models import Match

        for match in Match.objects.filter(pk__in=pk_set):
            check_referees_allowed(match, [instance.pk])
    else:
        check_referees_allowed(instance, pk_set)
