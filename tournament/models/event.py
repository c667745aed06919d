"""The event: a competition day (or days) run under one frozen rule-profile version."""
import re

from django.db import models
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

__all__ = ['Event']

#: What an event's web address (``Event.slug``) may be: the new-event page and the import both check it.
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
RESERVED_SLUGS = {"new"}  # /events/new/ is the new-event page


class Event(models.Model):
    """A competition day (or days) run under one frozen rule-profile version."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        ELIMINATION = "elimination", _("Single elimination")
        GROUPS_ELIMINATION = "groups_elimination", _("Groups, then knock-out")
        GROUPS_ROUND_ROBIN = "groups_round_robin", _("Groups, then a second round robin")

    class Recorders(models.TextChoices):
        REFEREE = "referee", _("The table's referee")
        PLAYERS = "players", _("The players, confirmed by the opponents")
        EITHER = "either", _("Either (a referee's entry needs no confirmation)")

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=200)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    organising_body = models.CharField(_("organising body"), max_length=200, blank=True,
                                       help_text=_("Printed on certificates and page headers."))
    profile = models.ForeignKey(
        "scoring.RuleProfile", on_delete=models.PROTECT, related_name="events", verbose_name=_("rule profile")
    )
    format = models.CharField(_("format"), max_length=30, choices=Format.choices, default=Format.GROUPS_ELIMINATION)
    published = models.BooleanField(_("published"), default=False)
    # who records the hands (a stage may say otherwise: ``Stage.settings["recorders"]``, tournament.selfscore)
    hand_recorders = models.CharField(_("who records the hands"), max_length=10, choices=Recorders.choices,
                                      default=Recorders.REFEREE)
    # the organiser's readings of the profile's organiser choices ({choice: reading}); applied through the
    # event's own profile version (tournament.events.rule_choices)
    rule_choices = models.JSONField(_("organiser choices"), default=dict, blank=True)
    unit_scoring = models.JSONField(_("unit scoring"), default=dict, blank=True,
                                    help_text=_("The organiser's override of the profile's unit standings rules."))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-start_date", "name"]
        permissions = [
            ("manage_event", _("Can organise events: entries, draws, schedule, printouts")),
            ("run_clock", _("Can run the hall clock")),
            ("record_hands", _("Can record hands at an assigned table")),
            ("rule_all_tables", _("Can record hands and rulings at every table")),
            ("approve_rulings", _("Can approve forfeits and decide appeals")),
            ("arbitrate", _("Can decide appeals in the arbitration group")),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(end_date__gte=models.F("start_date")), name="event_dates_ordered")
        ]

    def __str__(self):
        return self.name

    @cached_property
    def stage_kinds(self) -> frozenset:
        """The kinds of the event's stages (one query, kept for the request)."""
        return frozenset(self.stages.values_list("kind", flat=True))

    @property
    def has_swiss_stage(self) -> bool:
        """Whether a stage of the event is a Swiss stage (the public pages then show its tab)."""
        return "swiss" in self.stage_kinds

    @property
    def has_groups(self) -> bool:
        """Whether the event has group tables: a round-robin stage, or (before the stages) a format with groups."""
        if self.stage_kinds:
            return "round_robin" in self.stage_kinds
        return self.format != self.Format.ELIMINATION

    @property
    def has_bracket(self) -> bool:
        """Whether the event has a knock-out bracket: a knock-out stage, or (before the stages) a format with one."""
        if self.stage_kinds:
            return "elimination" in self.stage_kinds
        return self.format in (self.Format.ELIMINATION, self.Format.GROUPS_ELIMINATION)

    @property
    def ranks_units(self) -> bool:
        """Whether the event ranks its units (团体总分): the profile or the organiser sets the scoring, unless the
        profile's reading offers none (``unit_standings.offered: false``, 003's choice ``unit_scale``)."""
        section = (self.profile.data or {}).get("unit_standings")
        if section and section.get("offered") is False:
            return False
        return bool(section or self.unit_scoring)

    def get_absolute_url(self):
        return reverse("event_detail", args=[self.slug])
