"""The group standings kept as results are settled: derived data, never typed in (``competition.group_standings``)."""
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.fields import JSONText
from tournament.models.competition import Group

__all__ = ["GroupStanding"]


class GroupStanding(models.Model):
    """A round-robin group's standings as its decided matches rank them, kept so that a page reads one row
    per group instead of every result (``tournament.competition.group_standings``). A cache, never evidence: the
    Match rows are the record, and ``manage.py verify_standings`` checks that a full recomputation gives
    the same rows.

    Written by the result service (``results.settle`` and the walkovers of a withdrawal or a restoration)
    in the transaction that changes a result of the group, after locking this row; ``basis`` is a digest
    of everything else the ranking reads (the entries in draw order, the profile's points and tie-break
    order, the stage's forfeit rule, the lot's seed, the reserve pairs holding places): a reader that
    finds it different, or no row, ranks the group from its matches and stores the row. A Match saved
    anywhere but the result service drops its group's row (``group_standings.match_saved``).
    """

    group = models.OneToOneField(Group, on_delete=models.CASCADE, primary_key=True, related_name="kept")
    basis = models.CharField(max_length=40)
    data = JSONText()   # rows (ranked), played, playable, order

    class Meta:
        verbose_name = _("kept group standings")
        verbose_name_plural = _("kept group standings")
