"""Rule profiles stored as versioned data, and the hands recorded at a table."""
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import get_language, gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from common.names import display_name
from infra.appendonly import AppendOnlyModel
from infra.fields import JSONText
from scoring.profiles import validate_profile_dict
from tournament.models import Event, Match


class ProfileInUseError(Exception):
    """Raised on an attempt to change a RuleProfile version that an event or a match already uses.

    ``str(error)`` reads in the active language.
    """

    message = gettext_noop("Rule profile %(profile)s is used by an event and cannot be changed; "
                           "copy it as a new version.")

    def __init__(self, profile):
        self.profile = str(profile)
        super().__init__(self.profile)

    def __str__(self):
        return gettext(self.message) % {"profile": self.profile}


class RuleProfileQuerySet(models.QuerySet):
    def offered(self):
        """The versions an event may pick (a new event, an event's settings): the shipped files' and those an
        organiser made on purpose, never the frozen copy an imported event brought with it."""
        return self.filter(imported=False)


class RuleProfile(models.Model):
    """One version of a rule profile: the whole profile file as JSON.

    Versions are never edited once an event uses them; an organiser's change is a new version
    (``based_on`` points at the version it was copied from). An event keeps the version it started with.
    The JSON is validated with :func:`scoring.profiles.validate_profile_dict` on every save.

    ``imported``: the frozen copy of a version an imported event file brought (anyone can write such a file):
    its event plays under it, and it is never offered to another event nor counted as its slug's latest.
    """

    slug = models.SlugField(_("slug"), max_length=80)
    version = models.PositiveIntegerField(_("version"), default=1)
    name = models.CharField(_("name"), max_length=200)
    data = models.JSONField(_("profile data"))
    source = models.CharField(_("source"), max_length=300, blank=True)
    based_on = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="copies", verbose_name=_("based on")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, verbose_name=_("created by")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    imported = models.BooleanField(_("imported"), default=False, help_text=_(
        "A frozen copy an imported event file brought: only that event uses it; never offered to another event."))

    objects = RuleProfileQuerySet.as_manager()

    EDITABLE = ("slug", "version", "name", "data", "source")

    class Meta:
        verbose_name = _("rule profile")
        verbose_name_plural = _("rule profiles")
        ordering = ["slug", "-version"]
        constraints = [models.UniqueConstraint(fields=["slug", "version"], name="unique_profile_version")]

    def __str__(self):
        return f"{self.name} v{self.version}"

    @property
    def title(self):
        """The rules' name as a page in the active language says it: the file's ``name_en`` on an English page
        (when the file gives one), else ``name``."""
        english = (self.data or {}).get("name_en") if isinstance(self.data, dict) else None
        if english and not (get_language() or "zh").startswith("zh"):
            return english
        return self.name

    @property
    def is_in_use(self):
        """True when an event or a match has frozen this version."""

        return bool(self.pk) and (
            Event.objects.filter(profile_id=self.pk).exists() or Match.objects.filter(profile_id=self.pk).exists()
        )

    def changed_fields(self):
        """Names of the editable fields whose values differ from the stored row (all for a new row)."""
        stored = type(self).objects.filter(pk=self.pk).values(*self.EDITABLE).first() if self.pk else None
        if stored is None:
            return list(self.EDITABLE)
        return [key for key, value in stored.items() if getattr(self, key) != value]

    def validate_data(self):
        """The JSON must be a valid rule profile (ValidationError on ``data`` naming the key otherwise)."""

        try:
            validate_profile_dict(self.data, "data")
        except ValueError as exc:
            raise ValidationError({"data": str(exc)}) from exc

    def clean(self):
        self.validate_data()
        if self.pk and self.changed_fields() and self.is_in_use:
            raise ValidationError(
                _("This version is used by an event and cannot be changed; copy it as a new version.")
            )

    def save(self, *args, **kwargs):
        """Validate the data and refuse to change a version in use (whatever path the save comes from)."""
        try:
            self.validate_data()
        except ValidationError as exc:
            raise ValueError("; ".join(exc.messages)) from exc
        if self.pk and not self._state.adding and self.changed_fields() and self.is_in_use:
            raise ProfileInUseError(self)
        super().save(*args, **kwargs)

    @classmethod
    def add_version(cls, slug, *, name, data, source, based_on=None, created_by=None):
        """Store the next version of ``slug`` (the one writer of new versions; existing ones never change). The
        number follows every stored version, imported copies included, so a slug and a number name one row."""
        latest = cls.objects.filter(slug=slug).order_by("-version").values_list("version", flat=True).first()
        return cls.objects.create(slug=slug, version=(latest or 0) + 1, name=name, data=data, source=source,
                                  based_on=based_on, created_by=created_by)

    def copy_as_new_version(self, user=None):
        """Store a copy of this version as the next version of its slug (``based_on`` = this one)."""
        return self.add_version(self.slug, name=self.name, data=self.data, source=self.source, based_on=self,
                                created_by=user)


SEAT_CHOICES = [("N", _("North")), ("E", _("East")), ("S", _("South")), ("W", _("West"))]


class Hand(AppendOnlyModel):
    """One hand played at a table, as recorded by a referee; never edited.

    A correction is a new version (``supersedes`` the previous one, ``version`` + 1). ``outcome`` "redeal":
    nobody declared trump (000 第五条), no trump and no points, replayed with ``MatchState.redeal``. ``outcome``
    "rebel": an attacker called 造反 (004 二.7), ``called_by`` the caller's seat, ``bid_winner`` the seat that won
    the new bidding (it declares the next hand), no trump and no points, replayed with ``MatchState.rebel``;
    it scores nothing and is no hand: it takes the number of the deal it precedes (that deal shares it and
    follows it, ``tournament.records.hands``), so the unique constraints on numbers hold for the other outcomes only. The inputs are
    what the referee saw; the result fields (levels after the hand, next declarer, explanation) are
    the engine's answer when the hand was stored, computed from all current hands of the match and
    the rulings then known. The authoritative current state is always a replay
    (:func:`scoring.services.match_state`).
    """

    class Trump(models.TextChoices):
        SPADES = "S", _("Spades")
        HEARTS = "H", _("Hearts")
        CLUBS = "C", _("Clubs")
        DIAMONDS = "D", _("Diamonds")
        NO_TRUMP = "NT", _("No trump")

    class Outcome(models.TextChoices):
        PLAYED = "played", _("Played")
        REDEAL = "redeal", _("No trump declared: redealt")  # 000 第五条: 庄家下台，重洗重抓，下家坐庄
        REBEL = "rebel", _("Rebellion: redealt, the stage bid for anew")  # 004 二.7 造反

    match = models.ForeignKey("tournament.Match", on_delete=models.PROTECT, related_name="hands",
                              verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("hand number"))
    version = models.PositiveSmallIntegerField(_("version"), default=1)
    supersedes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="superseded_by", verbose_name=_("supersedes"))
    # what the referee entered
    declarer_seat = models.CharField(_("declarer seat"), max_length=1, choices=SEAT_CHOICES)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices, default=Outcome.PLAYED)
    trump = models.CharField(_("trump"), max_length=2, choices=Trump.choices, blank=True)  # blank: a redeal
    defender_points = models.SmallIntegerField(_("defender trick points"))
    bottom_points = models.SmallIntegerField(_("bottom points"), default=0)
    last_trick = models.JSONField(_("last trick"), null=True, blank=True)
    reclaim = models.BooleanField(_("return to the level (policy)"), default=False)
    # a rebellion (004 二.7): who called it and who won the new bidding (blank otherwise)
    called_by = models.CharField(_("rebellion called by"), max_length=1, choices=SEAT_CHOICES, blank=True,
                                 default="")
    bid_winner = models.CharField(_("new bidding won by"), max_length=1, choices=SEAT_CHOICES, blank=True,
                                  default="")
    penalty_points = models.SmallIntegerField(_("penalty points applied"), default=0)
    # what the engine answered
    level_played = models.CharField(_("level played"), max_length=8)
    final_points = models.SmallIntegerField(_("final defender points"), null=True, blank=True)
    declarer_keeps = models.BooleanField(_("declarers keep the stage"))
    ns_level = models.CharField(_("north–south level after"), max_length=8)
    ew_level = models.CharField(_("east–west level after"), max_length=8)
    next_declarer = models.CharField(_("next declarer"), max_length=1, choices=SEAT_CHOICES, blank=True)
    match_won = models.BooleanField(_("match won"), default=False)
    explanation = models.JSONField(_("explanation"), default=list)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                    verbose_name=_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded at"))

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["match", "number", "version"]
        constraints = [
            # a 造反 shares its number with the deal after it (and another 造反 of that deal): not held by these
            models.UniqueConstraint(fields=["match", "number"],
                                    condition=models.Q(supersedes__isnull=True) & ~models.Q(outcome="rebel"),
                                    name="unique_original_deal"),
            models.UniqueConstraint(fields=["match", "number", "version"], condition=~models.Q(outcome="rebel"),
                                    name="unique_deal_version"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self):
        suffix = f" v{self.version}" if self.version > 1 else ""
        return f"{self.match_id} #{self.number}{suffix}"

    @property
    def recorder_name(self):
        """Who recorded this version, as the table page shows it (``common.names.display_name``)."""
        return display_name(self.recorded_by)

    @property
    def is_current(self):
        """False once a later version supersedes this one (a version just stored is the newest)."""
        if getattr(self, "stored_current", False):
            return True
        try:
            return self.superseded_by is None
        except Hand.DoesNotExist:
            return True


TRUMPS = frozenset(Hand.Trump.values)       # the stored trump codes (``.values`` builds a list on every read)
OUTCOMES = frozenset(Hand.Outcome.values)


class MatchSnapshot(models.Model):
    """A match's engine state as its hands and rulings left it, kept so the next hand or ruling applies to
    it instead of replaying every hand (``tournament.records.snapshots``). A cache, never evidence: the hands and
    rulings are the record, and ``manage.py verify_replay`` checks that a replay gives the same state.

    ``hand_id`` and ``ruling_id`` name the last hand version and the last ruling it holds; ``profile_id``
    the rule-profile version it was played under. Writers that do not apply to it remove it (a
    correction, a void, an approval, a choice, an appeal): the next write replays the match and keeps
    a new one.
    """

    match = models.OneToOneField("tournament.Match", on_delete=models.CASCADE, primary_key=True,
                                 related_name="engine_snapshot")
    profile_id = models.PositiveIntegerField()
    hand_id = models.PositiveIntegerField(default=0)
    ruling_id = models.PositiveIntegerField(default=0)
    data = JSONText()   # its text, not jsonb: rewritten whole on every write (infra.fields)

    class Meta:
        verbose_name = _("match state snapshot")
        verbose_name_plural = _("match state snapshots")
