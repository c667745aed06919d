"""The chief's desk, read only: every table of a round with its state and alerts, the rulings waiting
for an approval or a choice, the appeals waiting for a decision, the round's closure and appeal deadline.

    desk_data(rnd, user) -> dict          what the desk page renders and its JSON poll returns
    arbitration_data(event, user) -> dict the appeals waiting for an instance the user's body decides
    person(user) -> str                   a person's display name (full name, else the username)

Plain values (JSON-ready); the texts are in the active language. The tables' clock and levels come from
the hall display's cached data (``tournament.clocks.display``); the rulings are read once per round.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from common.names import display_name
from infra import clock
from rulings import appeal_route
from rulings.appeals import appeal_deadline_for
from rulings.models import Ruling
from rulings.presenters import offence_menu, ruling_text
from scoring.profile_store import shared_version
from tournament.clocks import display
from tournament.competition import rounds
from tournament.desk import uplinks
from tournament.models import Match, Round
from tournament.records.closing import appeal_deadline_of
from tournament.records.ledger import LIVE_STATES, PENDING, STATE_LABELS, match_entries, related_row

# A table's state on the desk.
NOT_STARTED, PLAYING, LAST_HANDS, FINISHED, NO_RESULT, DISPUTED = (
    "not_started", "playing", "last_hands", "finished", "no_result", "disputed")
STATE_LABELS_DESK = {
    NOT_STARTED: gettext_noop("Not started"), PLAYING: gettext_noop("Playing"), LAST_HANDS: gettext_noop("Last hands"), FINISHED: gettext_noop("Finished"),
    NO_RESULT: gettext_noop("No result"), DISPUTED: gettext_noop("Disputed"),
}


person = display_name


def _iso(value):
    return value.isoformat(timespec="seconds") if value is not None else None


def _round_rulings(rnd):
    """Every ruling of the round, grouped by match, with what the ledger's replay reads."""
    query = (Ruling.objects.filter(match__round=rnd)
             .select_related("void", "approval", "choice_made", "recorded_by", "profile", "match__profile",
                             "match__round", "match__ns", "match__ew")
             .prefetch_related("appeals__decisions__decided_by", "appeals__filed_by")
             .order_by("match__table", "sequence"))
    grouped = {}
    for ruling in query:
        grouped.setdefault(ruling.match_id, []).append(ruling)
    return grouped


def _ruling_text(ruling, sanction):
    return ruling_text(ruling, sanction) or ruling.code


def _appeal_row(appeal, entry, match, *, texts):
    """One appeal of ``entry``'s ruling (``texts``: ruling id -> its words, for a replacement ruling)."""
    ruling, sanction = entry.ruling, entry.sanction
    waiting = appeal_route.waiting_instance(appeal, ruling.profile)
    body = appeal_route.body_at(ruling.profile, waiting) if waiting else None
    return {
        "id": appeal.pk, "ruling": ruling.pk, "match": match.pk, "table": match.table,
        "side": appeal.side, "side_label": _("North–South") if appeal.side == "NS" else _("East–West"),
        "grounds": appeal.grounds, "filed_by": person(appeal.filed_by), "filed_at": _iso(appeal.filed_at),
        "offence": _ruling_text(ruling, sanction), "hand": ruling.hand_number, "code": ruling.code,
        "waiting_instance": waiting, "body": body, "body_label": _(appeal_route.BODY_LABELS[body]) if body else "",
        "decisions": [{"instance": d.instance, "outcome": d.outcome, "outcome_label": _(appeal_route.OUTCOME_LABELS[d.outcome]),
                       "reason": d.reason, "by": person(d.decided_by), "at": _iso(d.decided_at),
                       "replacement": texts.get(d.replacement_id, "") if d.replacement_id else ""}
                      for d in sorted(appeal.decisions.all(), key=lambda d: d.instance)],
    }


@dataclass
class MatchRulings:
    """One match's rulings as the desk lists them, read from the ledger's replay (rows in ruling order)."""

    approvals: list[dict] = field(default_factory=list)   # waiting for the chief's approval
    choices: list[dict] = field(default_factory=list)     # waiting for a side's choice
    appeals: list[dict] = field(default_factory=list)     # every appeal of the match's rulings
    listed: list[dict] = field(default_factory=list)      # every ruling, void ones too

    @property
    def open_appeals(self) -> list[dict]:
        """The appeals waiting for their first instance (the chief's desk decides those)."""
        return [a for a in self.appeals if a["waiting_instance"] == 1]

    @property
    def standing(self) -> list[dict]:
        """The rulings that still apply (the desk offers these to void or appeal): not one voided, reversed,
        replaced on appeal (its replacement is listed instead) or set aside."""
        return [r for r in self.listed if r["state"] in LIVE_STATES]


def _rulings_of_match(match, rulings) -> MatchRulings:
    """One match's rulings, sorted into what waits for whom, from its replay."""
    found = MatchRulings()
    entries = match_entries(match, rulings)
    texts = {e.ruling.pk: _ruling_text(e.ruling, e.sanction) for e in entries}
    for entry in entries:
        ruling, sanction = entry.ruling, entry.sanction
        row = {"id": ruling.pk, "match": match.pk, "table": match.table, "hand": ruling.hand_number,
               "offence": _ruling_text(ruling, sanction), "side": ruling.side,
               "proposer": person(ruling.recorded_by), "proposer_id": ruling.recorded_by_id,
               "at": _iso(ruling.recorded_at), "state": entry.state, "state_label": _(STATE_LABELS[entry.state])}
        found.listed.append(row)
        if entry.state == PENDING and sanction is not None:
            if sanction.needs_approval and related_row(ruling, "approval") is None:
                found.approvals.append(row)
            elif sanction.pending_choice:
                found.choices.append(row)
        found.appeals += [_appeal_row(appeal, entry, match, texts=texts) for appeal in ruling.appeals.all()]
    return found


def _state(table, time_up, appeals_open):
    if appeals_open:
        return DISPUTED
    if table["ended"]:
        return FINISHED if table["winner"] else NO_RESULT
    if time_up and not table["recorded"]:
        return NO_RESULT
    if table["hands_left"] is not None:
        return LAST_HANDS
    # playing or not started as every page says it (tournament.competition.rounds.table_status)
    return PLAYING if table.get("state") == rounds.TABLE_PLAYING else NOT_STARTED


def _how(status, note):
    """How the match was decided: forfeit, walkover or bye by its status, else the result's note."""
    if status in Match.NOT_BY_HANDS:
        return str(Match.Status(status).label)
    return note or ""


@dataclass
class RoundReads:
    """What the desk reads once for a round; each table's row is built from it."""

    rnd: Round
    live: dict                          # the hall display's clock and tables (tournament.clocks.display)
    matches: dict[int, Match]           # match id -> the match, its profile the process's copy
    referees: dict[int, list[str]]      # match id -> its referees' names
    rulings: dict[int, MatchRulings]    # match id -> its rulings (only matches that have some)
    unsent: dict[int, dict]             # match id -> what its phone has not uploaded (uplinks.of_matches)

    @classmethod
    def of(cls, rnd) -> RoundReads:
        matches = {m.pk: m for m in Match.objects.filter(round=rnd).select_related("round", "ns", "ew")
                   .prefetch_related("referees")}
        for match in matches.values():   # the process's copy: joined, the profile's JSON was decoded per table
            match.profile = shared_version(match.profile_id)
        return cls(rnd=rnd, live=display.live_clock(display.display_data(rnd.pk)), matches=matches,
                   referees={pk: [person(u) for u in match.referees.all()] for pk, match in matches.items()},
                   rulings={pk: _rulings_of_match(matches[pk], found) for pk, found in _round_rulings(rnd).items()},
                   unsent=uplinks.of_matches(list(matches)))

    @property
    def closed(self) -> bool:
        return self.rnd.results_published_at is not None

    def every(self, name: str) -> list[dict]:
        """The rows of one kind (``approvals``, ``choices``, ``appeals``) of every match, in table order."""
        return [row for found in self.rulings.values() for row in getattr(found, name)]

    def table_row(self, table: dict) -> dict:
        """The desk's row of one table: the display's row with the table's state, alerts and links."""
        mid = table["match_id"]
        match = self.matches.get(mid)
        found = self.rulings.get(mid) or MatchRulings()
        has_entries = self.has_entries(mid)
        state = _state(table, bool(self.live.get("time_up")), found.open_appeals) if has_entries else NOT_STARTED
        return {
            **table, "state": state, "state_label": _(STATE_LABELS_DESK[state]),
            "how": _how(table["status"], match.result_note if match else ""), "has_entries": has_entries,
            "referees": self.referees.get(mid, []), "alerts": self._alerts(table, found, state=state),
            "unsent": self.unsent[mid]["pending"] if mid in self.unsent else 0,
            "table_url": reverse("scoring-table", args=[mid]), "console_url": reverse("ruling_console", args=[mid]),
            "decidable": has_entries and state == NO_RESULT and not self.closed,
            "rulings": found.standing,
        }

    def has_entries(self, mid: int) -> bool:
        """Both of the table's entries are known (a knock-out's table may wait for them)."""
        match = self.matches.get(mid)
        return bool(match and match.ns_id and match.ew_id)

    def _alerts(self, table: dict, found: MatchRulings, *, state: str) -> list[str]:
        """What the chief should look at, in the table's row."""
        mid = table["match_id"]
        has_entries = self.has_entries(mid)
        alerts = []
        if has_entries and state == NO_RESULT:
            alerts.append(_("No result at time-up"))
        if has_entries and not self.referees.get(mid) and not table["ended"]:
            alerts.append(_("No referee"))
        if found.approvals:
            alerts.append(_("A ruling waits for approval"))
        if found.choices:
            alerts.append(_("A ruling waits for a side's choice"))
        if found.open_appeals:
            alerts.append(_("An appeal waits"))
        if mid in self.unsent:   # the table's phone holds entries it could not send (its network)
            alerts.append(_("%(n)s entries waiting to upload · last seen %(at)s") % {
                "n": self.unsent[mid]["pending"], "at": timezone.localtime(self.unsent[mid]["seen"]).strftime("%H:%M")})
        return alerts

    def appeal_deadline(self, event):
        """The last table's appeal deadline once the round's results are published: counted from each table's
        end of play under 000 第十九条（二）."""
        if not self.closed or not event.profile_id:
            return None
        deadlines = (appeal_deadline_of(m, event.profile, published_at=self.rnd.results_published_at)
                     for m in self.matches.values() if m.ns_id and m.ew_id)
        return max((d for d in deadlines if d is not None), default=None)


def desk_data(rnd, user) -> dict:
    """Everything the desk of round ``rnd`` shows (``user``: the chief or organiser looking)."""
    event = rnd.stage.event
    reads = RoundReads.of(rnd)
    live = reads.live
    tables = [reads.table_row(table) for table in live["tables"]]
    appeals = reads.every("appeals")
    return {
        "round": {"id": rnd.pk, "name": str(rnd), "closed": reads.closed,
                  "status": live["round_status"], "status_label": _(rounds.ROUND_STATUS_LABELS[live["round_status"]]),
                  "results_published_at": _iso(rnd.results_published_at),
                  "appeal_deadline": _iso(reads.appeal_deadline(event))},
        "server_now": _iso(clock.now()),
        "clock": {key: live.get(key) for key in ("status", "remaining_seconds", "ends_at", "time_up", "banner",
                                                 "announced")},
        "tables": tables,
        "byes": live.get("byes", []),   # a bye is no table: its entries named below the tables
        "approvals": [dict(a, mine=a["proposer_id"] == user.pk) for a in reads.every("approvals")],
        "choices": reads.every("choices"),
        "appeals": [a for a in appeals if a["waiting_instance"] == 1],
        "appeals_all": appeals,
        "route": [_(appeal_route.BODY_LABELS[b]) for b in appeal_route.route(event.profile)] if event.profile_id else [],
        "undecided": [t["table"] for t in tables if t["has_entries"] and t["state"] in (NO_RESULT, PLAYING,
                                                                                       LAST_HANDS, NOT_STARTED)],
    }


def arbitration_data(event, user) -> dict:
    """The event's appeals, those waiting for an instance one of ``user``'s bodies decides first."""
    bodies = appeal_route.bodies_of(user, event)
    appealed = Ruling.objects.filter(match__round__stage__event=event, appeals__isnull=False).values("match")
    rulings = (Ruling.objects.filter(match__in=appealed)  # every ruling of those matches: the replay needs them
               .select_related("void", "approval", "choice_made", "recorded_by", "profile", "match__profile",
                               "match__round__stage", "match__ns", "match__ew")
               .prefetch_related("appeals__decisions__decided_by", "appeals__filed_by")
               .order_by("match__round__stage__order", "match__round__number", "match__table", "sequence"))
    grouped = {}
    for ruling in rulings:
        grouped.setdefault(ruling.match_id, []).append(ruling)
    waiting, done = [], []
    for rulings_of in grouped.values():
        match = rulings_of[0].match
        entries = match_entries(match, rulings_of)
        texts = {e.ruling.pk: _ruling_text(e.ruling, e.sanction) for e in entries}
        for entry in entries:
            for appeal in entry.ruling.appeals.all():
                row = _appeal_row(appeal, entry, match, texts=texts)
                row["round"] = str(match.round)
                row["deadline"] = _iso(appeal_deadline_for(entry.ruling))
                row["mine"] = row["body"] in bodies
                (waiting if row["waiting_instance"] else done).append(row)
    return {"waiting": waiting, "done": done, "bodies": sorted(bodies),
            "route": [_(appeal_route.BODY_LABELS[b]) for b in appeal_route.route(event.profile)]
            if event.profile_id else [],
            "organiser_choice": bool(event.profile_id and appeal_route.is_organiser_choice(event.profile)),
            "offences": offence_menu(event.profile) if event.profile_id else []}
