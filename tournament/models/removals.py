"""A pair removed from the rest of an event by the chief referee: suspension (停赛, 000 第十七条（八）) or
disqualification (取消比赛资格). Append-only: who decided, when, why, and the ruling it follows; a removal
lifted (its ruling voided, reversed or amended on appeal) keeps its row and gains a PairRestoration."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.appendonly import AppendOnlyModel
from tournament.models.entries import Pair

__all__ = ['PairRemoval', 'PairRestoration', 'PairSubstitution']


class PairRemoval(AppendOnlyModel):
    """The decision that took a pair out of the event's remaining play (its status says which)."""

    pair = models.ForeignKey(Pair, on_delete=models.CASCADE, related_name="removals", verbose_name=_("pair"))
    kind = models.CharField(_("kind"), max_length=20,
                            choices=[(Pair.Status.SUSPENDED, _("Suspended")),
                                     (Pair.Status.DISQUALIFIED, _("Disqualified"))])
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    ruling = models.ForeignKey("rulings.Ruling", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                               verbose_name=_("ruling"))
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("pair removal")
        verbose_name_plural = _("pair removals")

    def __str__(self):
        return f"{self.pair} · {self.get_kind_display()}"


class PairRestoration(AppendOnlyModel):
    """A removal lifted: the pair is back in the event's remaining play (who, when, why)."""

    removal = models.OneToOneField(PairRemoval, on_delete=models.CASCADE, related_name="restoration",
                                   verbose_name=_("removal"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("pair restoration")
        verbose_name_plural = _("pair restorations")


class PairSubstitution(AppendOnlyModel):
    """A unit team brings in its reserve pair for one of its playing pairs after the draw (003 二.2: 正选3对、
    候补1对). The pair that came in takes the other's place in every match not yet begun; matches already
    begun keep the pair that played them. Append-only: who, when, why."""

    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="substitutions",
                              verbose_name=_("event"))
    pair_out = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("pair going out"))
    pair_in = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="+", verbose_name=_("reserve pair coming in"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("reserve substitution")
        verbose_name_plural = _("reserve substitutions")
        ordering = ["decided_at", "id"]

    def __str__(self):
        return f"{self.pair_out} → {self.pair_in}"
