"""Whether the first lead of a table's hand in play was made (已开始出牌), as its referee reports it.

000 第十五条: 自宣布之时起手中正在打（已开始出牌）的这副牌不算，之后各桌必须打满三副牌. A table still
shuffling, dealing or bidding when the announcement comes has no hand in play: it plays exactly three
more. Append-only: the latest report for a hand is the one in force.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.appendonly import AppendOnlyModel

__all__ = ['LeadReport']


class LeadReport(AppendOnlyModel):
    match = models.ForeignKey("tournament.Match", on_delete=models.CASCADE, related_name="lead_reports",
                              verbose_name=_("match"))
    hand_number = models.PositiveSmallIntegerField(_("hand number"))
    lead_made = models.BooleanField(_("first lead made"))
    reported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("reported by"))
    reported_at = models.DateTimeField(_("reported at"))

    class Meta:
        verbose_name = _("first-lead report")
        verbose_name_plural = _("first-lead reports")
        ordering = ["match", "hand_number", "reported_at", "pk"]
