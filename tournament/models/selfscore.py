"""Hands the players record themselves: one side enters a hand, the other side confirms it, a floor referee
decides a dispute (``tournament.selfscore``). Only a confirmed (or decided) hand becomes a ``scoring.Hand``:
these rows are the way there, append-only like the hands.

- :class:`SideCode`: a side's code at one match, kept as a keyed hash only; the desk's re-issue is a new row,
  and only the newest row of a (match, side) is in force (the old code dies).
- :class:`HandEntry`: what one side entered for a hand (the hand service's inputs), waiting for the other side.
- :class:`EntryStep`: what happened to an entry since, one row per step (disputed; then confirmed, decided or
  withdrawn: the entry's end). An entry's state is read from its steps, never written onto it.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.appendonly import AppendOnlyModel

__all__ = ["SideCode", "HandEntry", "EntryStep"]

SIDE_CHOICES = [("NS", _("North–South")), ("EW", _("East–West"))]


class SideCode(AppendOnlyModel):
    """A side's code for the hands of one match (its table in its round). ``digest``: the code's keyed hash
    (``tournament.selfscore.codes``); the code itself is shown once, on the slip the desk prints."""

    match = models.ForeignKey("tournament.Match", on_delete=models.CASCADE, related_name="side_codes",
                              verbose_name=_("match"))
    side = models.CharField(_("side"), max_length=2, choices=SIDE_CHOICES)
    digest = models.CharField(_("code digest"), max_length=64)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("issued by"))
    issued_at = models.DateTimeField(_("issued at"))

    class Meta:
        verbose_name = _("side code")
        verbose_name_plural = _("side codes")
        ordering = ["match", "side", "pk"]
        indexes = [models.Index(fields=["match", "side", "-id"], name="sidecode_newest")]

    def __str__(self):
        return f"{self.match_id} {self.side} #{self.pk}"


class HandEntry(AppendOnlyModel):
    """One side's entry of a hand (a new hand, or a correction of the last one), waiting for the other side.

    ``inputs``: the hand service's keyword arguments as entered (outcome, trump, defender_points, declarer,
    bottom_points, last_trick, reclaim, called_by). ``base_hand``: for a correction, the version it replaces
    (the entry lapses when another version replaced it first)."""

    class Kind(models.TextChoices):
        NEW = "new", _("New hand")
        CORRECTION = "correction", _("Correction of the last hand")

    match = models.ForeignKey("tournament.Match", on_delete=models.PROTECT, related_name="hand_entries",
                              verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("hand number"))
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.NEW)
    side = models.CharField(_("entered by side"), max_length=2, choices=SIDE_CHOICES)
    code = models.ForeignKey(SideCode, on_delete=models.PROTECT, related_name="+", verbose_name=_("side code"))
    inputs = models.JSONField(_("hand as entered"))
    base_hand = models.ForeignKey("scoring.Hand", null=True, blank=True, on_delete=models.PROTECT,
                                  related_name="+", verbose_name=_("hand corrected"))
    entered_at = models.DateTimeField(_("entered at"))

    class Meta:
        verbose_name = _("hand entry")
        verbose_name_plural = _("hand entries")
        ordering = ["match", "pk"]

    def __str__(self):
        return f"{self.match_id} #{self.number} {self.kind} ({self.side})"


class EntryStep(AppendOnlyModel):
    """A step of an entry: the other side disputed it (有异议); it was confirmed (by the other side's code),
    decided (by a floor referee: as entered, another hand, or nothing) or withdrawn (by the side that entered
    it). ``hand``: the Hand the confirmation or decision recorded. One ending per entry (a constraint)."""

    class State(models.TextChoices):
        DISPUTED = "disputed", _("Disputed")
        CONFIRMED = "confirmed", _("Confirmed")
        DECIDED = "decided", _("Decided by the referee")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    ENDINGS = (State.CONFIRMED, State.DECIDED, State.WITHDRAWN)

    entry = models.ForeignKey(HandEntry, on_delete=models.PROTECT, related_name="steps", verbose_name=_("entry"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices)
    side = models.CharField(_("by side"), max_length=2, choices=SIDE_CHOICES, blank=True)
    code = models.ForeignKey(SideCode, null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                             verbose_name=_("side code"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                           related_name="+", verbose_name=_("referee"))
    hand = models.ForeignKey("scoring.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+",
                             verbose_name=_("hand recorded"))
    note = models.CharField(_("note"), max_length=300, blank=True)
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("entry step")
        verbose_name_plural = _("entry steps")
        ordering = ["entry", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["entry"], condition=models.Q(state__in=("confirmed", "decided",
                                                                                    "withdrawn")),
                                    name="one_ending_per_entry"),
            models.UniqueConstraint(fields=["entry"], condition=models.Q(state="disputed"),
                                    name="one_dispute_per_entry"),
        ]

    def __str__(self):
        return f"{self.entry_id} {self.state}"
