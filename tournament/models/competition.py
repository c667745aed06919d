"""The competition: draws, stages, groups, rounds, matches, and which unit a referee belongs to."""
import re

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.errors import UserError, gettext_noop
from infra import clock
from infra.appendonly import AppendOnlyModel
from tournament.engines import brackets
from tournament.models.entries import Pair
from tournament.models.event import Event

_USER_MODEL = settings.AUTH_USER_MODEL  # (the Stage's own field ``settings`` hides the module's name in its body)

__all__ = ['Draw', 'Stage', 'Group', 'GroupEntry', 'Round', 'Match', 'RefereeUnit', 'ResultDecision', 'RoundClosure',
           'describe_key', 'describe_source', 'round_label', 'round_words']

#: The names the system gives rounds and bracket sections (``tournament.engines.brackets``: "半决赛", "第3–4名决赛",
#: "第5–8名排位赛 第1轮", "第2轮"), as a pattern and the English msgid a page shows them with.
_GENERATED_NAMES = (
    (re.compile(r"第(?P<n>\d+)轮"), gettext_noop("Round %(n)s")),
    (re.compile(r"决赛"), gettext_noop("Final")),
    (re.compile(r"半决赛"), gettext_noop("Semi-final")),
    (re.compile(r"四分之一决赛"), gettext_noop("Quarter-final")),
    (re.compile(r"八分之一决赛"), gettext_noop("Round of 16")),
    (re.compile(r"第(?P<first>\d+)–(?P<last>\d+)名决赛"), gettext_noop("Play-off for places %(first)s–%(last)s")),
    (re.compile(r"第(?P<first>\d+)–(?P<last>\d+)名排位赛 第(?P<n>\d+)轮"),
     gettext_noop("Places %(first)s–%(last)s, round %(n)s")),
    # stages (``tournament.competition.stages.STAGE_NAMES``, ``swiss_rounds.SWISS_STAGE_NAME``)
    (re.compile(r"小组赛"), gettext_noop("Group stage")),
    (re.compile(r"循环赛"), gettext_noop("Round robin")),
    (re.compile(r"复赛（出线队循环赛）"), gettext_noop("Second stage (round robin of the qualifiers)")),
    (re.compile(r"淘汰赛"), gettext_noop("Knock-out")),
    (re.compile(r"瑞士制"), gettext_noop("Swiss")),
)


def round_words(name: str) -> str:
    """A stage's, round's or bracket section's name in the page's language when the system generated it; a
    name a person typed stays as typed."""
    for pattern, message in _GENERATED_NAMES:
        found = pattern.fullmatch(name or "")
        if found:
            return gettext(message) % found.groupdict()
    return name


def round_label(number: int, name: str) -> str:
    """A round's name as pages show it: a name left as generated ("第3轮") or none in the page's language."""
    return round_words(name) if name else gettext("Round %(n)s") % {"n": number}


def describe_key(key: str) -> str:
    """A knock-out match's position in words in the active language, never its code: "R1-M2" → "第1轮第2场",
    "P3-R1-M1" → "第3名起排位赛第1轮第1场" (a key that is no position is shown as it is)."""
    try:
        prefix, round_no, index = brackets.parse_key(key)
    except UserError:
        return key
    values = {"round": round_no, "n": index + 1}
    if not prefix:
        return gettext("Round %(round)s, match %(n)s") % values
    return gettext("Places from %(place)s, round %(round)s, match %(n)s") % {**values, "place": prefix[1:-1]}


def describe_source(code: str) -> str:
    """A side still to be decided in the active language, e.g. "第1轮第1场胜者", "A组第1名", "轮空"."""
    if code.startswith("W:"):
        return gettext("Winner of %(match)s") % {"match": describe_key(code[2:])}
    if code.startswith("L:"):
        return gettext("Loser of %(match)s") % {"match": describe_key(code[2:])}
    if code == "BYE":
        return str(gettext("Bye"))
    if code and code[-1].isdigit():
        head = code.rstrip("0123456789")
        return gettext("Group %(group)s, place %(place)s") % {"group": head, "place": code[len(head):]}
    return code


class Draw(AppendOnlyModel):
    """A recorded draw (抽签). Never edited: a redo is a new Draw that supersedes this one, and a void
    (作废) is a new Draw of the same kind that supersedes it with ``params["void"]`` and no result, so
    that no draw of that kind is in force (:func:`tournament.competition.draws.void_draws`).

    ``seed`` is printed beside the result so anyone can re-run the draw and get the same answer;
    ``result`` holds the outcome as ids, ``params`` what the draw was asked for.
    """

    class Kind(models.TextChoices):
        PAIRS = "pairs", _("Pairs from individuals")
        GROUPS = "groups", _("Groups")
        BRACKET = "bracket", _("Knock-out bracket")
        SEATS = "seats", _("Seats")
        TABLES = "tables", _("Table numbers")
        SWISS = "swiss", _("Swiss round pairing")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="draws", verbose_name=_("event"))
    stage = models.ForeignKey("Stage", null=True, blank=True, on_delete=models.CASCADE, related_name="draws",
                              verbose_name=_("stage"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    seed = models.CharField(_("seed"), max_length=64)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    result = models.JSONField(_("result"))
    supersedes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT,
                                      related_name="superseded_by", verbose_name=_("supersedes"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("draw")
        verbose_name_plural = _("draws")
        ordering = ["event", "kind", "created_at"]

    def __str__(self):
        return f"{self.get_kind_display()} #{self.pk} ({self.seed})"

    @property
    def is_void(self) -> bool:
        """A void (作废): the row that supersedes a draw to cancel it, leaving no draw of its kind in force
        (``params["void"]``, with the organiser's reason in ``params["reason"]``; its result is empty)."""
        return bool((self.params or {}).get("void"))


class StageManager(models.Manager):
    """The event's stages: a stage the organiser removed after voiding its draws stays in the database (its
    append-only draws point at it) but no page, ranking or printout sees it. ``Stage._base_manager`` (forward
    relations: a draw's stage) and :attr:`Stage.all_stages` still read it."""

    def get_queryset(self):
        return super().get_queryset().filter(removed_at__isnull=True)


class Stage(models.Model):
    """A stage of the event: a round robin (one or many groups) or a knock-out bracket.

    ``settings`` holds the stage's options (qualifiers per group, third-place match, placement
    matches, ...); ``source`` is the stage whose qualifiers feed this one. ``removed_at``: the organiser
    deleted a stage that had draws (all voided first): the row stays for its append-only draws, hidden
    by the default manager (:class:`StageManager`); a stage that never had a draw is deleted outright.
    """

    class Kind(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        ELIMINATION = "elimination", _("Single elimination")
        SWISS = "swiss", _("Swiss rounds")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages", verbose_name=_("event"))
    order = models.PositiveSmallIntegerField(_("order"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=100)
    settings = models.JSONField(_("settings"), default=dict, blank=True)
    source = models.ForeignKey("self", null=True, blank=True, on_delete=models.PROTECT, related_name="next_stages",
                               verbose_name=_("qualifiers from"))
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_by = models.ForeignKey(_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
                                   related_name="+", verbose_name=_("removed by"))

    objects = StageManager()
    all_stages = models.Manager()

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["event", "order"]
        constraints = [models.UniqueConstraint(fields=["event", "order"], name="unique_stage_order")]

    def __str__(self):
        return f"{self.event} · {self.name}"

    @property
    def label(self):
        """The stage's name as pages show it: a name the system gave ("小组赛") in the page's language."""
        return round_words(self.name)


class Group(models.Model):
    """A round-robin group (A, B, ...) and its entries in draw order."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="groups", verbose_name=_("stage"))
    name = models.CharField(_("name"), max_length=20)
    order = models.PositiveSmallIntegerField(_("order"))
    entries = models.ManyToManyField(Pair, through="GroupEntry", related_name="groups", verbose_name=_("entries"))

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["stage", "order"]
        constraints = [models.UniqueConstraint(fields=["stage", "name"], name="unique_group_name")]

    def __str__(self):
        return f"{self.stage.name} {self.name}"

    @staticmethod
    def heading(name: str, stage_name: str, lone: bool) -> str:
        """How pages and printouts head a group: "A组"; the stage's name when it is the stage's one group."""
        return stage_name if lone else gettext("Group %(name)s") % {"name": name}

    @property
    def title(self) -> str:
        """:meth:`heading` of this group (its stage's drawn number of groups in ``settings["n_groups"]``)."""
        return self.heading(self.name, self.stage.label, (self.stage.settings or {}).get("n_groups") == 1)


class GroupEntry(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    pair = models.ForeignKey(Pair, on_delete=models.PROTECT, related_name="group_memberships")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["group", "position"]
        constraints = [
            models.UniqueConstraint(fields=["group", "pair"], name="unique_group_entry"),
            models.UniqueConstraint(fields=["group", "position"], name="unique_group_position"),
        ]


class Round(models.Model):
    """A round of a stage; all its matches start together under one hall clock."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("stage"))
    number = models.PositiveSmallIntegerField(_("number"))
    name = models.CharField(_("name"), max_length=100, blank=True)
    scheduled_start = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    results_published_at = models.DateTimeField(_("results published at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["stage", "number"]
        constraints = [models.UniqueConstraint(fields=["stage", "number"], name="unique_round_number")]

    @property
    def label(self):
        return round_label(self.number, self.name)

    def __str__(self):
        return self.label


class MatchQuerySet(models.QuerySet):
    """Every write of a Match row, whoever makes it, moves its ``changed_at`` (the lists' ``changed_since``)."""

    def update(self, **fields):
        fields.setdefault("changed_at", clock.now())
        return super().update(**fields)

    def bulk_update(self, objs, fields, batch_size=None):
        now = clock.now()
        for match in objs:
            match.changed_at = now
        return super().bulk_update(objs, [*fields, "changed_at"] if "changed_at" not in fields else fields,
                                   batch_size=batch_size)


class Match(models.Model):
    """A table in a round: two entries and their seats, played under the event's frozen profile.

    ``ns``/``ew`` may be empty while a knock-out match waits for earlier results (``ns_source`` and
    ``ew_source`` say where they come from, e.g. "W:R1-M3", "L:SF-1"). Levels and the winner are
    derived from the recorded hands and rulings, never typed in: the one writer of the result fields
    (status, winner, levels, finish time, note) is ``tournament.competition.results``.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for entries")
        SCHEDULED = "scheduled", _("Scheduled")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        WALKOVER = "walkover", _("Walkover")
        FORFEIT = "forfeit", _("Forfeited")
        BYE = "bye", _("Bye")

    # Status groups: the one home of these sets (services, pages and printouts use them).
    WAITING = (Status.PENDING, Status.SCHEDULED)                              # not begun
    PLAYED = (Status.PLAYING, Status.FINISHED, Status.FORFEIT)                # begun at the table
    DECIDED = (Status.FINISHED, Status.WALKOVER, Status.FORFEIT)              # a winner may exist
    OVER = (Status.FINISHED, Status.WALKOVER, Status.FORFEIT, Status.BYE)     # no more hands
    NOT_BY_HANDS = (Status.WALKOVER, Status.FORFEIT, Status.BYE)              # decided without the hands

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches", verbose_name=_("round"))
    group = models.ForeignKey(Group, null=True, blank=True, on_delete=models.CASCADE, related_name="matches",
                              verbose_name=_("group"))
    table = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    bracket_key = models.CharField(_("bracket position"), max_length=20, blank=True)
    ns = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_ns",
                           verbose_name=_("north–south"))
    ew = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_ew",
                           verbose_name=_("east–west"))
    ns_source = models.CharField(_("north–south from"), max_length=30, blank=True)
    ew_source = models.CharField(_("east–west from"), max_length=30, blank=True)
    profile = models.ForeignKey("scoring.RuleProfile", on_delete=models.PROTECT, related_name="matches",
                                verbose_name=_("rule profile"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    winner = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.PROTECT, related_name="matches_won",
                               verbose_name=_("winner"))
    ns_level = models.CharField(_("north–south level"), max_length=8, blank=True)
    ew_level = models.CharField(_("east–west level"), max_length=8, blank=True)
    result_note = models.CharField(_("result note"), max_length=200, blank=True)
    referees = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="assigned_matches",
                                      verbose_name=_("table referees"))
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # the last write of this row (the model's save and MatchQuerySet's update and bulk_update move it)
    changed_at = models.DateTimeField(_("changed at"), default=clock.now, editable=False)

    objects = MatchQuerySet.as_manager()

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["round", "table", "id"]
        indexes = [models.Index(fields=["round", "changed_at"], name="match_round_changed"),
                   # the matches still to play or decide (placings' open stages: at the end of a city's group
                   # stage "none left" is an empty index, not a scan of its 129,024 matches)
                   models.Index(fields=["round"], name="match_open",
                                condition=models.Q(status__in=("pending", "scheduled", "playing"))
                                | models.Q(status="finished", winner__isnull=True, ew__isnull=False))]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="unique_round_table"),
            models.UniqueConstraint(fields=["round", "bracket_key"], condition=~models.Q(bracket_key=""),
                                    name="unique_round_bracket_key"),
            models.CheckConstraint(condition=models.Q(ns__isnull=True) | ~models.Q(ns=models.F("ew")),
                                   name="match_two_entries"),
        ]

    def __str__(self):
        if self.status == self.Status.BYE:   # no table, no opponent: never "桌 None"
            return f"{self.round} · {self.Status.BYE.label}: {self.side_words('ns') if self.ns_id else self.side_words('ew')}"
        return f"{self.round} · {_('table')} {self.table}: {self.side_words('ns')} – {self.side_words('ew')}"

    def side_words(self, side: str) -> str:
        """A side as people read it: its pair, else where it comes from in words ("第1轮第2场胜者"), else (a bye's
        empty side) the word for a bye; never a code, never "None"."""
        pair = getattr(self, side)
        return str(pair) if pair is not None else describe_source(getattr(self, f"{side}_source") or "BYE")

    def save(self, *args, update_fields=None, **kwargs):
        self.changed_at = clock.now()
        if update_fields is not None and "changed_at" not in update_fields:
            update_fields = [*update_fields, "changed_at"]
        super().save(*args, update_fields=update_fields, **kwargs)

    @property
    def is_over(self):
        return self.status in self.OVER

    @property
    def winner_side(self):
        """The winning side, "NS" or "EW" (None: no winner): what the API calls ``winner`` everywhere."""
        if self.winner_id is None:
            return None
        return "NS" if self.winner_id == self.ns_id else "EW"


class RefereeUnit(models.Model):
    """The unit a referee belongs to at one event (a referee never officiates a table of that unit)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee_units",
                             verbose_name=_("referee"))
    event = models.ForeignKey("tournament.Event", on_delete=models.CASCADE, related_name="referee_units",
                              verbose_name=_("event"))
    unit = models.ForeignKey("tournament.Unit", on_delete=models.CASCADE, related_name="referees",
                             verbose_name=_("unit"))

    class Meta:
        verbose_name = _("referee's unit")
        verbose_name_plural = _("referees' units")
        constraints = [models.UniqueConstraint(fields=["user", "event"], name="unique_referee_unit")]

    def __str__(self):
        return f"{self.user} · {self.unit}"


class ResultDecision(AppendOnlyModel):
    """A chief referee's decision of a match the recorded hands cannot decide (no hand at time-up, a table
    that could not play): a walkover or a decided winner, with the reason. Append-only: a later decision
    of the same match supersedes the earlier one; ``tournament.competition.results`` reads the latest."""

    class Kind(models.TextChoices):
        DECIDED = "decided", _("Decided by the chief referee")
        WALKOVER = "walkover", _("Walkover")

    match = models.ForeignKey(Match, on_delete=models.PROTECT, related_name="result_decisions",
                              verbose_name=_("match"))
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    winner = models.CharField(_("winning side"), max_length=2,
                              choices=[("NS", _("North–South")), ("EW", _("East–West"))])
    reason = models.CharField(_("reason"), max_length=300)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                                   verbose_name=_("decided by"))
    decided_at = models.DateTimeField(_("decided at"))

    class Meta:
        verbose_name = _("result decision")
        verbose_name_plural = _("result decisions")
        ordering = ["match", "decided_at", "id"]
        constraints = [models.CheckConstraint(condition=models.Q(winner__in=("NS", "EW")),
                                              name="result_decision_names_a_winner")]


class RoundClosure(AppendOnlyModel):
    """Closing a round publishes its results (the appeal deadline starts); reopening it is a chief's act
    with a reason. The log of both is append-only; ``Round.results_published_at`` mirrors the latest."""

    class Action(models.TextChoices):
        CLOSE = "close", _("Closed")
        REOPEN = "reopen", _("Reopened")

    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="closures", verbose_name=_("round"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+",
                           verbose_name=_("by"))
    at = models.DateTimeField(_("at"))

    class Meta:
        verbose_name = _("round closure")
        verbose_name_plural = _("round closures")
        ordering = ["round", "at", "id"]
