"""Hall clocks: per-round clock settings, the append-only clock events, what has fired, and each
table's allowance of hands after the announcement.

Remaining time is never stored: it is derived from :class:`ClockEvent` rows and the current time
(see tournament/clocks.py). Imported at the bottom of tournament/models.py.
"""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from infra.appendonly import AppendOnlyModel

__all__ = ["EventClockSettings", "RoundClock", "ClockEvent", "ClockFiring", "HandAllowance"]


class ClockSettingsBase(models.Model):
    """The organiser's overrides of the profile's timing; an empty field inherits."""

    match_minutes = models.PositiveSmallIntegerField(_("match minutes"), null=True, blank=True)
    announce_enabled = models.BooleanField(_("announce before the end"), null=True, blank=True)
    announce_minutes_before_end = models.PositiveSmallIntegerField(
        _("announce minutes before the end"), null=True, blank=True)
    hands_after = models.PositiveSmallIntegerField(_("hands after the announcement"), null=True, blank=True)
    hand_in_play_counts = models.BooleanField(_("hand in play counts"), null=True, blank=True)

    OVERRIDE_FIELDS = ("match_minutes", "announce_enabled", "announce_minutes_before_end", "hands_after",
                       "hand_in_play_counts")

    class Meta:
        abstract = True

    def overrides(self) -> dict:
        """The overrides as a dict for tournament.engines.clock.merge_rule (None = inherit)."""
        return {name: getattr(self, name) for name in self.OVERRIDE_FIELDS}


class EventClockSettings(ClockSettingsBase):
    """Clock overrides for every round of an event."""

    event = models.OneToOneField("tournament.Event", on_delete=models.CASCADE, related_name="clock_settings",
                                 verbose_name=_("event"))
    parallel_rounds = models.BooleanField(_("rounds may run at the same time (several halls)"), default=False)

    class Meta:
        verbose_name = _("event clock settings")
        verbose_name_plural = _("event clock settings")


class RoundClock(ClockSettingsBase):
    """A round's hall clock: its overrides and the ids of the scheduled Celery tasks.

    ``task_ids`` maps a schedule key ("announce", "end", "table:<match id>") to the id of the task
    sent for it, so a change can revoke the stale ones. ``touched_at`` is written to lock the row.
    """

    round = models.OneToOneField("tournament.Round", on_delete=models.CASCADE, related_name="clock",
                                 verbose_name=_("round"))
    task_ids = models.JSONField(_("scheduled task ids"), default=dict, blank=True)
    touched_at = models.DateTimeField(_("last locked at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")


class ClockEvent(AppendOnlyModel):
    """One change of a round's clock, by whom and when. Never edited; a correction is a new row."""

    class Kind(models.TextChoices):
        START = "start", _("Start")
        PAUSE = "pause", _("Pause")
        RESUME = "resume", _("Resume")
        ADD = "add", _("Add time")
        TABLE_EXTRA = "table_extra", _("Extra time for a table")

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="clock_events",
                              verbose_name=_("round"))
    match = models.ForeignKey("tournament.Match", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="clock_events", verbose_name=_("table"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    seconds = models.IntegerField(_("seconds"), default=0)
    at = models.DateTimeField(_("at"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("by"))
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("clock event")
        verbose_name_plural = _("clock events")
        ordering = ["round", "at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind="table_extra", match__isnull=False)
                | (~models.Q(kind="table_extra") & models.Q(match__isnull=True)),
                name="clock_event_table_iff_extra"),
        ]

    def __str__(self):
        return f"{self.round} · {self.get_kind_display()} @ {self.at:%H:%M:%S}"


class ClockFiring(AppendOnlyModel):
    """A timed event of a round that has fired (the announcement, the end). At most one per kind."""

    class Kind(models.TextChoices):
        ANNOUNCE = "announce", _("Announcement")
        END = "end", _("End of time")

    round = models.ForeignKey("tournament.Round", on_delete=models.CASCADE, related_name="clock_firings",
                              verbose_name=_("round"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    fired_at = models.DateTimeField(_("fired at"))
    via = models.CharField(_("fired by"), max_length=20, blank=True)  # "task", "sweep", "service"

    class Meta:
        verbose_name = _("clock firing")
        verbose_name_plural = _("clock firings")
        ordering = ["round", "fired_at"]
        constraints = [models.UniqueConstraint(fields=["round", "kind"], name="unique_clock_firing")]

    def __str__(self):
        return f"{self.round} · {self.get_kind_display()}"


class HandAllowance(AppendOnlyModel):
    """A table's limit on hands, fixed when the announcement (or, without one, the end) reached it.

    ``hand_in_play`` is the number of hands recorded then + 1; ``last_hand`` the number of the last
    hand the table may play, as fixed then (``tournament.competition.allowances.in_force`` gives the one in
    force: redeals that do not count move it on). One per match.
    """

    class Reason(models.TextChoices):
        ANNOUNCE = "announce", _("Announcement")
        TIME_UP = "time_up", _("Time is up")

    match = models.OneToOneField("tournament.Match", on_delete=models.CASCADE, related_name="hand_allowance",
                                 verbose_name=_("table"))
    reason = models.CharField(_("reason"), max_length=20, choices=Reason.choices)
    hand_in_play = models.PositiveSmallIntegerField(_("hand in play"))
    last_hand = models.PositiveSmallIntegerField(_("last hand"))
    fired_at = models.DateTimeField(_("fired at"))
    # at an announcement: was the hand in play counted as one of the hands after it (the rule, or the
    # first-lead answer then: not led)? Null: a time-up row, or one stored before the field existed.
    in_play_counted = models.BooleanField(_("hand in play counted"), null=True, blank=True)
    # at an announcement: did the rule count the hand in play whatever the table answered (False: the
    # first-lead answer decides, and an answer given after the announcement, while that hand is still in
    # play, is taken: 000 第十五条). Null: a time-up row or one stored before the field existed.
    in_play_by_rule = models.BooleanField(_("hand in play counted by the rule"), null=True, blank=True)
    # does a redeal count among the hands after (000 第十五条, the organiser choice redeal_after_announcement)?
    # Null: a time-up row or one stored before the choice existed (a redeal counted then).
    redeals_count = models.BooleanField(_("redeals count"), null=True, blank=True)

    class Meta:
        verbose_name = _("hand allowance")
        verbose_name_plural = _("hand allowances")

    def __str__(self):
        return f"{self.match_id}: ≤ {self.last_hand}"
