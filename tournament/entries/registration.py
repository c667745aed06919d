"""Units register themselves (the organiser no longer types every entry): a private link per unit (per person
in an open event, :mod:`tournament.entries.registration_links`), a deadline, the organiser's review and approval.

- The holder edits the unit's entries as a draft: every save, submission and approval is a new
  :class:`~tournament.models.UnitEntryVersion` (append-only: who is the link, or the approving organiser).
  The draft never touches the entries; :func:`approve` turns the submitted version into normal pairs through
  :func:`tournament.entries.pairs.add_pair` (the import's path and checks), so the draw takes them.
- The draft is checked with the entries' own checks (:func:`~tournament.entries.services.clean_pair`, the
  team rule's faults, ``check_player_free``): what the import would refuse, the page says as it is typed.
  A conflict with another unit's player is told without naming that unit or player.
- After the window's ``closes_at`` (or once entries are locked by the draw) a link is read-only, unless the
  organiser reopened that one unit.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import ConflictError, gettext_noop
from common.naturalsort import natural_key
from common.workbook import write_workbook
from infra import clock
from tournament.entries import cleanup
from tournament.entries import pairs as entry_pairs
from tournament.entries.registration_links import CLOSED, closed_reason, window
from tournament.entries.services import (
    EntryError,
    PairData,
    PlayerData,
    check_player_free,
    clean_pair,
    is_women,
    open_event,
    same_person,
    team_faults,
    team_rule,
)
from tournament.models import Event, Pair, Player, UnitEntryVersion, UnitLink

#: Pairs a unit may enter when the event's profile has no team rule (a person's link: one pair).
OPEN_PAIRS = 8
FIELDS = ("player1", "gender1", "phone1", "player2", "gender2", "phone2")
#: The organiser's reason for sending an entry back, at most this long.
NOTE_MAX = 300
NOTE_TOO_LONG = gettext_noop("The reason is too long (at most 300 characters).")

NOT_STARTED, IN_PROGRESS, SUBMITTED, CHANGED, APPROVED, REFUSED = "not_started", "in_progress", "submitted", \
    "changed", "approved", "refused"
STATUS_LABELS = {NOT_STARTED: gettext_noop("Not started"), IN_PROGRESS: gettext_noop("In progress"),
                 SUBMITTED: gettext_noop("Submitted"), CHANGED: gettext_noop("Changed after submission"),
                 APPROVED: gettext_noop("Approved"), REFUSED: gettext_noop("Sent back")}
#: The status of a unit with no link (entered by the organiser or imported).
NO_LINK = gettext_noop("No registration link")
ELSEWHERE = gettext_noop("Player %(slot)s is already entered in this event by another unit or sign-up: ask the "
                         "organiser.")
NAME_TAKEN = gettext_noop("The pair name “%(name)s” (its two players' names) is already taken in this event: "
                          "ask the organiser.")
BY_HAND = gettext_noop("Player %(slot)s is already in a pair the organiser entered for your unit: enter that "
                       "pair exactly as it is, or ask the organiser.")


@dataclass(frozen=True)
class Problem:
    """One thing the import would refuse: ``row`` (0-based slot, None: the unit as a whole), field, message."""

    row: int | None
    field: str
    message: str


# --------------------------------------------------------------------------- the draft
def slots(link: UnitLink) -> list[bool]:
    """The draft's places, one per pair: False a regular pair, True a reserve pair."""
    rule = team_rule(link.event)
    if rule is not None:
        return [False] * rule.pairs + [True] * rule.reserve_pairs
    return [False] * (1 if link.individual else OPEN_PAIRS)


def rows_from(cleaned: dict, link: UnitLink) -> list[dict]:
    """The draft's rows from a :class:`~tournament.entries.forms.DraftForm`'s cleaned data (``p<slot>-<field>``),
    one per slot, texts trimmed."""
    return [{**{f: str(cleaned.get(f"p{i}-{f}") or "").strip()[:200] for f in FIELDS}, "reserve": reserve}
            for i, reserve in enumerate(slots(link))]


def _filled(row: dict) -> bool:
    return any(row.get(f) for f in FIELDS)


def _pair_data(link: UnitLink, row: dict) -> PairData:
    team = link.unit.name if team_rule(link.event) is not None else ""
    return PairData(unit=link.unit.name, team=team, reserve=bool(row.get("reserve")) and bool(team),
                    player1=PlayerData(row["player1"], row["gender1"], row["phone1"]),
                    player2=PlayerData(row["player2"], row["gender2"], row["phone2"]))


def check(link: UnitLink, rows: list[dict]) -> list[Problem]:
    """Everything wrong with the draft, as the import would say it (row problems, then the unit's)."""
    problems, cleaned = [], []
    asks_phone = window(link.event).asks_phone
    by_hand = _by_hand(link.event, link, versions(link))
    held = {pk for pair in by_hand for pk in (pair.player1_id, pair.player2_id)}
    own = set(link.unit.players.values_list("pk", flat=True)) - held
    hand_data = [entry_pairs.pair_data(pair) for pair in by_hand]
    taken = _names_taken(link, by_hand)
    for index, row in enumerate(rows):
        if not _filled(row):
            continue
        try:
            data = clean_pair(_pair_data(link, row))
        except EntryError as exc:
            problems.append(Problem(index, exc.field or "", str(exc)))
            continue
        exact = any(_same_players(data, other) for other in hand_data)   # the organiser's pair, as entered
        problems += _row_problems(link, index, data, cleaned, own | held if exact else own, asks_phone,
                                  [] if exact else hand_data)
        if not exact and data.name in taken:   # the approval's add_pair would refuse it (check_name_and_seed)
            problems.append(Problem(index, "player1", _(NAME_TAKEN) % {"name": data.name}))
        cleaned.append(data)
    rule = team_rule(link.event)
    if rule is not None and not problems:
        shaped = [SimpleNamespace(reserve=d.reserve, player1=d.player1, player2=d.player2) for d in cleaned]
        faults = team_faults(rule, shaped)
        if faults:
            problems.append(Problem(None, "team", _("%(rule)s: %(faults)s") % {
                "rule": rule.describe(), "faults": _("; ").join(faults)}))
    if not cleaned and not problems:
        problems.append(Problem(None, "", _("Enter at least one pair.")))
    return problems


def _names_taken(link: UnitLink, by_hand: list[Pair]) -> set[str]:
    """The pair names an approval of this link could not give a new pair: every pair's of the event (another
    unit's, a withdrawn one's: a name stays taken) but those of the unit's active pairs the link's approvals
    entered, which the approval keeps or replaces."""
    mine = {pair.pk for pair in by_hand}
    replaced = Q(unit=link.unit, status=Pair.Status.ACTIVE) & ~Q(pk__in=mine)
    return set(link.event.pairs.exclude(replaced).values_list("name", flat=True))


def _row_problems(link, index, data: PairData, earlier: list[PairData], own: set, asks_phone: bool,
                  hand_data: list[PairData]):
    for slot, player in ((1, data.player1), (2, data.player2)):
        if asks_phone and not player.phone:
            yield Problem(index, f"phone{slot}", _("This event asks for every player's phone: enter the phone of "
                                                   "player %(slot)s.") % {"slot": slot})
        if any(same_person(player, data.unit, other, data.unit) for d in earlier for other in (d.player1, d.player2)):
            yield Problem(index, f"player{slot}", _("“%(name)s” is already in another pair of this unit.") % {
                "name": player.name})
        try:
            check_player_free(link.event, player, data.unit, slot, exclude_player_ids=own)
        except EntryError:
            mine = any(same_person(player, data.unit, other, data.unit) for d in hand_data
                       for other in (d.player1, d.player2))
            yield Problem(index, f"player{slot}", _(BY_HAND if mine else ELSEWHERE) % {"slot": slot})


def versions(link: UnitLink) -> list[UnitEntryVersion]:
    return list(link.versions.order_by("number"))


def status(history: list[UnitEntryVersion]) -> str:
    if not history:
        return NOT_STARTED
    last = history[-1].action
    if last == UnitEntryVersion.Action.APPROVED:
        return APPROVED
    if last == UnitEntryVersion.Action.SUBMITTED:
        return SUBMITTED
    if last == UnitEntryVersion.Action.REFUSED:
        return REFUSED
    return CHANGED if any(v.action != UnitEntryVersion.Action.SAVED for v in history) else IN_PROGRESS


def draft(link: UnitLink, history: list[UnitEntryVersion] | None = None) -> list[dict]:
    """The latest rows (one per slot), empty rows for a unit that has not started."""
    history = versions(link) if history is None else history
    rows = history[-1].pairs if history else []
    empty = [{**dict.fromkeys(FIELDS, ""), "reserve": reserve} for reserve in slots(link)]
    return [rows[i] if i < len(rows) else empty[i] for i in range(len(empty))]


def save(link: UnitLink, rows: list[dict], *, submit: bool = False) -> UnitEntryVersion:
    """Store the draft as a new version (submitted when ``submit``); EntryError naming the first problem."""
    with transaction.atomic():
        link = UnitLink.objects.select_for_update().select_related("event__profile", "unit").get(pk=link.pk)
        if link.revoked_at is not None:
            raise ConflictError(gettext_noop("This link has been revoked."), "link")
        if closed_reason(link):
            raise ConflictError(CLOSED, "link")
        problems = check(link, rows)
        blocking = problems if submit else [p for p in problems if p.row is not None]
        if blocking:
            raise EntryError("%(problem)s", blocking[0].field, problem=blocking[0].message)
        action = UnitEntryVersion.Action.SUBMITTED if submit else UnitEntryVersion.Action.SAVED
        return _append(link, action, rows)


def _append(link: UnitLink, action: str, rows: list[dict], by=None, **extra) -> UnitEntryVersion:
    last = link.versions.order_by("-number").first()
    return UnitEntryVersion.objects.create(link=link, number=(last.number if last else 0) + 1, action=action,
                                           pairs=rows, at=clock.now(), by_user=by, **extra)


# --------------------------------------------------------------------------- the organiser's review
def describe(row: dict) -> str:
    genders = dict(Player.Gender.choices)
    text = "{}（{}）/{}（{}）".format(row["player1"], genders.get(row["gender1"].upper(), row["gender1"]),
                                   row["player2"], genders.get(row["gender2"].upper(), row["gender2"]))
    return _("%(pair)s, reserve") % {"pair": text} if row.get("reserve") else text


def changes(link: UnitLink, history: list[UnitEntryVersion]) -> tuple[list[str], list[str]]:
    """(pairs added, pairs gone) since the organiser last looked (``link.seen``)."""
    seen = [v for v in history if v.number <= link.seen]
    before = {describe(r) for r in (seen[-1].pairs if seen else []) if _filled(r)}
    now = {describe(r) for r in (history[-1].pairs if history else []) if _filled(r)}
    return sorted(now - before), sorted(before - now)


def mark_seen(link: UnitLink) -> None:
    last = link.versions.order_by("-number").first()
    link.seen = last.number if last else 0
    link.save(update_fields=["seen"])


def _owned(event: Event, link: UnitLink, history: list[UnitEntryVersion]) -> list[Pair]:
    """The unit's active pairs that this link's last approval entered (made or kept), not the organiser's own.

    An approval stored before approvals named their pairs (``pair_ids`` None) owns the unit's active pairs
    that are, to the letter, the ones it approved."""
    active = list(event.pairs.filter(unit=link.unit, status=Pair.Status.ACTIVE).select_related(
        "unit", "team", "player1", "player2").order_by("pk"))
    approved = [v for v in history if v.action == UnitEntryVersion.Action.APPROVED]
    if not approved:
        return []
    last = approved[-1]
    if last.pair_ids is not None:
        ids = set(last.pair_ids)
        return [p for p in active if p.pk in ids]
    left = [clean_pair(_pair_data(link, r)) for r in last.pairs if _filled(r)]
    owned = []
    for pair in active:
        data = entry_pairs.pair_data(pair)
        if data in left:
            left.remove(data)
            owned.append(pair)
    return owned


def _by_hand(event: Event, link: UnitLink, history: list[UnitEntryVersion]) -> list[Pair]:
    """The unit's active pairs that the link's approvals did not enter (the organiser's: typed, imported)."""
    owned = {p.pk for p in _owned(event, link, history)}
    return [p for p in event.pairs.filter(unit=link.unit, status=Pair.Status.ACTIVE).select_related(
        "unit", "team", "player1", "player2").order_by("pk") if p.pk not in owned]


def _same_players(a: PairData, b: PairData) -> bool:
    """The same two people (either order), as the entries tell people apart (``same_person``)."""
    def same(x, y):
        return same_person(x, a.unit, y, b.unit)
    return (same(a.player1, b.player1) and same(a.player2, b.player2)) or (
        same(a.player1, b.player2) and same(a.player2, b.player1))


@transaction.atomic
def approve(link: UnitLink, by) -> list[Pair]:
    """The submitted version becomes the unit's entries, all or nothing.

    Only what this link's previous approval entered is replaced: of those pairs, the ones no longer in the
    submission go (withdrawn and deleted: none has played before the draw). A pair the organiser entered by
    hand for the unit stays whatever the submission says; a submitted pair of the same two players as one of
    those is not entered twice (it stays the organiser's, as the organiser entered it). The rest are entered through ``add_pair`` (the
    import's checks: a submitted player already in a hand-entered pair, or a team over its size, refuses
    the whole approval and nothing is changed). The approval's version names the pairs it entered."""
    link = UnitLink.objects.select_for_update().select_related("event__profile", "unit").get(pk=link.pk)
    event = open_event(link.event)
    history = versions(link)
    if status(history) != SUBMITTED:
        raise ConflictError(gettext_noop("Only a submitted entry can be approved."), "link")
    wanted = [clean_pair(_pair_data(link, r)) for r in history[-1].pairs if _filled(r)]
    wanted.sort(key=lambda d: (d.reserve, not is_women(d.player1.gender, d.player2.gender)))
    owned = _owned(event, link, history)
    owned_ids = {p.pk for p in owned}
    kept, by_hand = [], []
    for pair in owned:
        current = entry_pairs.pair_data(pair)
        if current in wanted:
            wanted.remove(current)
            kept.append(pair)
        else:
            entry_pairs.withdraw_pair(pair)
            cleanup.delete_withdrawn_pair(event, pair)
    for pair in event.pairs.filter(unit=link.unit, status=Pair.Status.ACTIVE).exclude(pk__in=owned_ids) \
            .select_related("unit", "team", "player1", "player2"):
        current = entry_pairs.pair_data(pair)
        same = next((d for d in wanted if _same_players(d, current)), None)
        if same is not None:
            wanted.remove(same)
            by_hand.append(pair)
    added = [entry_pairs.add_pair(event, data) for data in wanted]
    entered = kept + added
    version = _append(link, UnitEntryVersion.Action.APPROVED, history[-1].pairs, by=by,
                      pair_ids=[p.pk for p in entered])
    link.seen = version.number
    link.save(update_fields=["seen"])
    return entered + by_hand


def refuse(link: UnitLink, by, note: str = "") -> UnitEntryVersion:
    """Send a submitted entry back to the unit (with the organiser's reason): the unit changes it and submits
    again; the entries are not touched."""
    with transaction.atomic():
        link = UnitLink.objects.select_for_update().select_related("event__profile", "unit").get(pk=link.pk)
        history = versions(link)
        if status(history) != SUBMITTED:
            raise ConflictError(gettext_noop("Only a submitted entry can be sent back."), "link")
        note = (note or "").strip()
        if len(note) > NOTE_MAX:
            raise EntryError(NOTE_TOO_LONG, "note")
        version = _append(link, UnitEntryVersion.Action.REFUSED, history[-1].pairs, by=by, note=note)
        link.seen = version.number
        link.save(update_fields=["seen"])
    return version


def review(event: Event) -> list[SimpleNamespace]:
    """Every live link of the event with its status, draft and changes since the organiser's last look."""
    rows = []
    for link in event.unit_links.filter(revoked_at__isnull=True).select_related("unit", "event__profile"):
        history = versions(link)
        added, gone = changes(link, history)
        rows.append(SimpleNamespace(link=link, status=status(history), status_label=_(STATUS_LABELS[status(history)]),
                                    pairs=[describe(r) for r in draft(link, history) if _filled(r)],
                                    added=added, gone=gone, last=history[-1] if history else None))
    return sorted(rows, key=lambda r: natural_key(r.link.unit.name))


def unit_statuses(event: Event) -> dict[str, SimpleNamespace]:
    """Each unit's registration status by unit name (units with a live link only), for the entries list."""
    return {r.link.unit.name: r for r in review(event)}


def not_submitted(event: Event) -> list[SimpleNamespace]:
    """The units whose entries are not (or no longer) submitted, with their contact's phone."""
    return [r for r in review(event) if r.status in (NOT_STARTED, IN_PROGRESS, CHANGED, REFUSED)]


def has_links(event: Event) -> bool:
    """Has any unit (or person) of the event a registration link?"""
    return UnitLink.objects.filter(event=event).exists()


def not_submitted_sheet(event: Event) -> bytes:
    header = [_("Unit"), _("Status"), _("Contact's phone")]
    rows = [[r.link.unit.name, r.status_label, r.link.contact_phone] for r in not_submitted(event)]
    return write_workbook([(_("Not submitted"), header, rows)])
