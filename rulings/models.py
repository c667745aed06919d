"""The referee's audit trail: rulings and everything that happens to them, append-only.

Nothing here is ever edited or deleted (``AppendOnlyModel`` in the application, a trigger on
PostgreSQL). The state of a ruling (pending / in force / rejected / void / reversed / amended) is derived
from the rows that point at it (:func:`rulings.services.ruling_state`), never stored by editing.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.appendonly import AppendOnlyModel

SIDE_CHOICES = [("NS", _("North–South")), ("EW", _("East–West"))]
ROLE_CHOICES = [("declarers", _("Declarers (on stage)")), ("defenders", _("Defenders (off stage)"))]


class Ruling(AppendOnlyModel):
    """One offence the table referee (or the chief referee) ruled on, with its sanction as shown.

    ``minutes``/``seconds``/``cards``/``choice``/``role`` are the engine inputs; ``offender_role`` is the
    offending side's role in that hand (given or read from the table), used to sign the points;
    ``sanction`` is the engine's answer when the ruling was stored (a snapshot for the audit; the
    sanction in force is recomputed by replaying the match's rulings). ``context`` holds the table
    as the referee saw it (declarer seat, level played).
    """

    match = models.ForeignKey("tournament.Match", on_delete=models.PROTECT, related_name="rulings",
                              verbose_name=_("match"))
    sequence = models.PositiveIntegerField(_("sequence in the match"))
    hand_number = models.PositiveSmallIntegerField(_("hand number"))
    code = models.CharField(_("offence"), max_length=30)
    side = models.CharField(_("offending side"), max_length=2, choices=SIDE_CHOICES)
    # the offending player's seat when the referee named one: a table counting per player
    # (``sanctions.escalation.counted_per: player``) replays the ruling against that seat's count
    seat = models.CharField(_("offending seat"), max_length=1, blank=True, default="")
    # the non-offending side that waived the sanction where the profile allows it (000 第十七条（三）;
    # 2008 末段): the ruling is on record with no sanction and counts toward no escalation
    waived_by = models.CharField(_("sanction waived by"), max_length=2, choices=SIDE_CHOICES, blank=True,
                                 default="")
    role = models.CharField(_("role given"), max_length=10, choices=ROLE_CHOICES, blank=True)
    offender_role = models.CharField(_("offender's role in the hand"), max_length=10, choices=ROLE_CHOICES,
                                     blank=True)
    minutes = models.PositiveSmallIntegerField(_("minutes"), null=True, blank=True)
    seconds = models.PositiveSmallIntegerField(_("seconds"), null=True, blank=True)
    cards = models.PositiveSmallIntegerField(_("cards"), null=True, blank=True)
    choice = models.CharField(_("option chosen by the referee"), max_length=40, blank=True)
    sanction = models.JSONField(_("sanction as shown"))
    clause = models.CharField(_("rule applied"), max_length=120, blank=True)
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    profile = models.ForeignKey("scoring.RuleProfile", on_delete=models.PROTECT, related_name="+",
                                verbose_name=_("rule profile"))
    profile_version = models.PositiveIntegerField(_("profile version"))
    context = models.JSONField(_("table state"), default=dict, blank=True)
    note = models.TextField(_("note"), blank=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=200, blank=True)
    amends = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="amendments",
                               verbose_name=_("replaces on appeal"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
        ordering = ["match", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["match", "sequence"], name="unique_ruling_sequence"),
            models.UniqueConstraint(fields=["match", "idempotency_key"], condition=~models.Q(idempotency_key=""),
                                    name="unique_ruling_idempotency_key"),
            models.CheckConstraint(condition=models.Q(hand_number__gte=1), name="ruling_hand_positive"),
        ]

    def __str__(self):
        return f"{self.match_id}#{self.sequence} {self.code} {self.side}"

    @property
    def needs_approval(self):
        return bool(self.sanction.get("needs_approval"))

    @property
    def waits_for_choice(self):
        return "choice" in self.sanction.get("kinds", ())


class RulingVoid(AppendOnlyModel):
    """A correction: the ruling is void from now on (who, when and why)."""

    ruling = models.OneToOneField(Ruling, on_delete=models.PROTECT, related_name="void",
                                  verbose_name=_("ruling"))
    reason = models.TextField(_("reason"), blank=True)
    voided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                  verbose_name=_("voided by"))
    voided_at = models.DateTimeField(_("voided at"))

    class Meta:
        verbose_name = _("void")
        verbose_name_plural = _("voids")


class Approval(AppendOnlyModel):
    """The chief referee's yes or no to a proposed match forfeit or disqualification."""

    ruling = models.OneToOneField(Ruling, on_delete=models.PROTECT, related_name="approval",
                                  verbose_name=_("ruling"))
    approved = models.BooleanField(_("approved"))
    note = models.TextField(_("note"), blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("approval")
        verbose_name_plural = _("approvals")


class ChoiceMade(AppendOnlyModel):
    """Which option the non-offending side chose, when the profile lets that side choose."""

    ruling = models.OneToOneField(Ruling, on_delete=models.PROTECT, related_name="choice_made",
                                  verbose_name=_("ruling"))
    side = models.CharField(_("choosing side"), max_length=2, choices=SIDE_CHOICES)
    option = models.CharField(_("option"), max_length=40)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        verbose_name = _("choice")
        verbose_name_plural = _("choices")


class Appeal(AppendOnlyModel):
    """A side's appeal against a ruling, lodged before the profile's deadline."""

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="appeals", verbose_name=_("ruling"))
    side = models.CharField(_("appealing side"), max_length=2, choices=SIDE_CHOICES)
    grounds = models.TextField(_("grounds"), blank=True)
    filed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                 verbose_name=_("filed by"))
    filed_at = models.DateTimeField(_("filed at"))

    class Meta:
        verbose_name = _("appeal")
        verbose_name_plural = _("appeals")
        ordering = ["filed_at", "id"]
        constraints = [models.UniqueConstraint(fields=["ruling", "side"], name="unique_appeal_per_side")]


class AppealDecision(AppendOnlyModel):
    """A decision on an appeal: instance 1 by the chief referee, instance 2 by the arbitration group.

    维持 (upheld), 撤销 (reversed: the ruling leaves the replay) or 改判 (amended: ``replacement`` is the new
    ruling, with ``amends`` pointing at the appealed one, that applies in its place). ``result_stands``: the
    side the deciding body kept as the match's winner although the decision changes what the records give
    (the winner's next match had begun, or the round was closed): ``tournament.competition.results`` keeps it.
    """

    class Instance(models.IntegerChoices):
        CHIEF_REFEREE = 1, _("Chief referee")
        ARBITRATION = 2, _("Arbitration group")

    class Outcome(models.TextChoices):
        UPHELD = "upheld", _("Ruling upheld")
        REVERSED = "reversed", _("Ruling reversed")
        AMENDED = "amended", _("Ruling amended")

    appeal = models.ForeignKey(Appeal, on_delete=models.PROTECT, related_name="decisions", verbose_name=_("appeal"))
    instance = models.PositiveSmallIntegerField(_("instance"), choices=Instance.choices)
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices)
    reason = models.TextField(_("reason"), blank=True)
    replacement = models.OneToOneField(Ruling, null=True, blank=True, on_delete=models.PROTECT,
                                       related_name="replaces_decision", verbose_name=_("replacement ruling"))
    result_stands = models.CharField(_("result kept"), max_length=2, blank=True, default="",
                                     choices=[("NS", _("North–South")), ("EW", _("East–West"))])
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("appeal decision")
        verbose_name_plural = _("appeal decisions")
        ordering = ["appeal", "instance"]
        constraints = [models.UniqueConstraint(fields=["appeal", "instance"], name="unique_decision_instance")]
