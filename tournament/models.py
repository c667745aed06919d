"""Events and their entries. Draws, stages, rounds and matches come with the tournament issue."""
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Event(models.Model):
    """A competition day (or days) run under one frozen rule-profile version."""

    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        ELIMINATION = "elimination", _("Single elimination")
        GROUPS_ELIMINATION = "groups_elimination", _("Groups, then knock-out")
        GROUPS_ROUND_ROBIN = "groups_round_robin", _("Groups, then a second round robin")

    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=200)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    profile = models.ForeignKey(
        "scoring.RuleProfile", on_delete=models.PROTECT, related_name="events", verbose_name=_("rule profile")
    )
    format = models.CharField(_("format"), max_length=30, choices=Format.choices, default=Format.GROUPS_ELIMINATION)
    published = models.BooleanField(_("published"), default=False)
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

    def get_absolute_url(self):
        return reverse("event_detail", args=[self.slug])


class Unit(models.Model):
    """A unit (单位/分公司/社区) that sends entries."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="units", verbose_name=_("event"))
    name = models.CharField(_("name"), max_length=200)

    class Meta:
        verbose_name = _("unit")
        verbose_name_plural = _("units")
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="unique_unit_name")]

    def __str__(self):
        return self.name


class Player(models.Model):
    class Gender(models.TextChoices):
        FEMALE = "F", _("Female")
        MALE = "M", _("Male")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="players", verbose_name=_("event"))
    name = models.CharField(_("name"), max_length=100)
    gender = models.CharField(_("gender"), max_length=1, choices=Gender.choices)
    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="players", verbose_name=_("unit"))
    phone = models.CharField(_("phone"), max_length=30, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["unit__name", "name"]

    def __str__(self):
        return self.name


class Team(models.Model):
    """A unit's team (union-games: 3 pairs, one of them women, plus 1 reserve pair)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="teams", verbose_name=_("event"))
    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="teams", verbose_name=_("unit"))
    name = models.CharField(_("name"), max_length=200)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="unique_team_name")]

    def __str__(self):
        return self.name


class Pair(models.Model):
    """An entry of two partners. ``seed`` orders seeded entries (1 is the top seed)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Active")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("event"))
    name = models.CharField(_("name"), max_length=200)
    unit = models.ForeignKey(Unit, on_delete=models.PROTECT, related_name="pairs", verbose_name=_("unit"))
    player1 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 1"))
    player2 = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("player 2"))
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairs", verbose_name=_("team")
    )
    reserve = models.BooleanField(_("reserve pair"), default=False)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        ordering = ["seed", "name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="unique_pair_name"),
            models.CheckConstraint(condition=~models.Q(player1=models.F("player2")), name="pair_two_players"),
        ]

    def __str__(self):
        return self.name

