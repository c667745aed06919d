"""Who plays: units, players, teams, pairs, and individual sign-ups (单人报名) drawn into pairs.

The pair draw (``tournament.entries.individuals.draw_individual_pairs``) turns the active, unpaired sign-ups
into :class:`Pair` rows and records a ``Draw`` of kind "pairs" with its seed.
"""
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournament.models.event import Event

__all__ = ['Unit', 'Player', 'Team', 'Pair', 'Registration']


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
        SUSPENDED = "suspended", _("Suspended")          # 停赛 (000 第十七条（八）), decided by the chief referee
        DISQUALIFIED = "disqualified", _("Disqualified")  # 取消比赛资格, decided by the chief referee

    # out of the event's remaining play: its matches still to play are walkovers
    GONE = (Status.WITHDRAWN, Status.SUSPENDED, Status.DISQUALIFIED)
    REMOVED = (Status.SUSPENDED, Status.DISQUALIFIED)

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

    @property
    def removal(self):
        """The latest suspension or disqualification of the pair (None when it was never removed)."""
        return self.removals.order_by("-decided_at", "-id").first()

    def __str__(self):
        """The name; a suspended or disqualified pair says so wherever it is shown."""
        if self.status in self.REMOVED:
            return gettext("%(name)s (%(status)s)") % {"name": self.name, "status": self.get_status_display()}
        return self.name


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
