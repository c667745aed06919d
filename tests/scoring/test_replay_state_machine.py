"""Stored = replayed, always (issue 25, item 1): a hypothesis state machine plays random sequences of
service calls on a fresh match of every rule profile (``fixtures/profiles/*.yaml``) and, after every
step, compares the stored match with a fresh replay of its records.

The steps go through the services only, as a table referee, a chief referee, an organiser or an
arbitration member would call them, each step either on its own or inside a request's transaction (the
``transaction.atomic`` ``infra.idempotency`` opens around an API write):

* hands: ``scoring.services.record_hand`` (trump, points, bottom, last trick, reclaim, redeals, 造反) and
  ``correct_last_hand`` (a chief referee too, also on a finished match);
* rulings: ``rulings.services.record_ruling`` (warnings that escalate, lateness with minutes, forfeits and
  disqualifications a table referee proposes or a chief decides), ``approve`` (approved or rejected),
  ``record_choice``, ``void_ruling`` and ``void_last_ruling``;
* appeals: ``rulings.appeals.file_appeal`` and ``decide_appeal`` (upheld 维持, reversed 撤销, amended 改判
  with a replacement, and a later instance setting an amendment aside), also after the match and after its
  round is closed (``tournament.competition.rounds.close_round``: the appeal window), now and then keeping
  the result (``result_stands``, issue 27);
* around them: the organiser's readings of the profile's unclear clauses (``tournament.events.rule_choices``),
  the hall clock (``tournament.clocks.services.start_clock`` and ``fire_due``: the announcement's last
  allowed hand, time up), and a ruling sent again with its idempotency key (the stored one comes back).

A refused step (a ``common.errors.UserError``) must change nothing; any other exception fails. After each
step ``scoring.replay_check.check_match`` must find no difference (levels, status, winner and the kept
state of ``tournament.records.snapshots``) and the stored finish time must be set exactly when the match is decided.

Examples: ``REPLAY_SM_EXAMPLES`` if set, else 60 on SQLite and 150 on PostgreSQL (CI's path, ``.ci/run``, which
must stay well under CI's hour); a wider search: ``REPLAY_SM_EXAMPLES=1000 REPLAY_SM_RANDOM=1``.
The examples are derandomized (the same every run) unless ``REPLAY_SM_RANDOM=1`` asks for new ones.
"""
from __future__ import annotations

import datetime as dt
import os
from collections import Counter
from contextlib import nullcontext

import pytest
from django.db import connection, transaction
from django.db.models import F, Func, OuterRef, Q, Subquery
from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from common.errors import UserError
from demo.hands import scratch_match
from infra import clock
from rulings import appeal_route, appeals
from rulings import services as rulings
from rulings.appeals import AMENDMENT_FIELDS
from rulings.engine import PenaltyLedger
from rulings.models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid
from scoring import services as scoring
from scoring.models import Hand, MatchSnapshot
from scoring.profile_choices import choice_specs, validate_profile_dict
from scoring.profile_store import latest_profile, read_profile_files
from scoring.replay_check import check_match
from tournament import pagecache, roles
from tournament.clocks import services as clocks
from tournament.competition import rounds
from tournament.events import rule_choices
from tournament.models import Match, PairRemoval, PairRestoration
from tournament.records.adjustments import match_replay
from tournament.records.ledger import LIVE_STATES, PENDING, match_entries

PROFILES = read_profile_files()                 # {slug: (data, file name)}: every profile file
SLUGS = sorted(PROFILES)
SEATS = ("N", "E", "S", "W")
SIDES = ("NS", "EW")
ROLES = (None, "declarers", "defenders")
ESCALATING = ("delay", "failed_throw", "out_of_turn", "exposed_card")   # warnings that add up
ENDS_MATCH = frozenset({"match_forfeit", "disqualification"})
TRUMPS = tuple(Hand.Trump.values)
# the points a referee types most (take-over, keep, big wins), then any multiple of 5
POINTS = st.one_of(st.sampled_from([0, 5, 35, 40, 75, 80, 115, 120, 155, 160, 200]),
                   st.integers(0, 40).map(lambda n: 5 * n))

START = dt.datetime(2026, 12, 5, 1, 0, tzinfo=dt.timezone.utc)   # the clock, frozen; each step moves it on
STEP_SECONDS = 90


def _examples():
    wanted = os.environ.get("REPLAY_SM_EXAMPLES")
    if wanted:
        return int(wanted)
    return 150 if connection.vendor == "postgresql" else 60


def _count(rows):
    """The number of ``rows`` (a queryset naming the outer match), as a subquery."""
    return Subquery(rows.order_by().annotate(n=Func(F("pk"), function="COUNT")).values("n"))


def _table(slug):
    """What the ledger reads of a profile: its slug and sanctions."""
    return {"slug": slug, "sanctions": PROFILES[slug][0]["sanctions"]}


def _walk(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _choices(node):
    """Every option id an offence's node offers (None: the default, or a choice left to the other side)."""
    ids = {str(key) for part in _walk(node) if isinstance(part.get("options"), dict) for key in part["options"]}
    return (None, *sorted(ids))


def _needs(node, key):
    return any(key in part for part in _walk(node))


LATENESS = (None, 0, 3, 4, 5, 6, 9, 10, 11, 14, 15, 16, 19, 20, 21, 30)


def _forfeits(slug):
    """The offences (code, choice, role, minutes) that end the match once a chief referee approves, under
    ``slug`` (found by the ledger; the lateness that forfeits by itself comes with the lateness rule)."""
    found = []
    for code, node in PROFILES[slug][0]["sanctions"]["offences"].items():
        for choice in _choices(node):
            for role in ROLES:
                for minutes in LATENESS if _needs(node, "bands") else (None,):
                    try:
                        sanction = PenaltyLedger(_table(slug)).preview(code, "EW", minutes=minutes, cards=1,
                                                                       choice=choice, role=role)
                    except (UserError, ValueError):
                        continue
                    if sanction.kinds & ENDS_MATCH and sanction.needs_approval:
                        found.append((code, choice, role, minutes))
    return tuple(found)


def _left_to_choose(slug):
    """The offences (code, role) whose sanction waits for the other side's choice under ``slug``."""
    found = []
    for code in PROFILES[slug][0]["sanctions"]["offences"]:
        for role in ROLES:
            try:
                sanction = PenaltyLedger(_table(slug)).preview(code, "EW", cards=1, role=role)
            except (UserError, ValueError):
                continue
            if sanction.pending_choice:
                found.append((code, role))
    return tuple(found)


OFFENCES = {slug: PROFILES[slug][0]["sanctions"]["offences"] for slug in SLUGS}
FORFEITS = {slug: _forfeits(slug) for slug in SLUGS}
LEFT_TO_CHOOSE = {slug: _left_to_choose(slug) for slug in SLUGS}
CHOICES = {slug: choice_specs(validate_profile_dict(data, name)) for slug, (data, name) in PROFILES.items()}


SHOW_STATS = os.environ.get("REPLAY_SM_STATS") == "1"
STATS = Counter()   # what the steps did (REPLAY_SM_STATS=1 prints it, and a refusal of each kind)
EXAMPLES = {}


class ReplayMachine(RuleBasedStateMachine):
    """One fresh match per example, in a savepoint rolled back at teardown; see the module's note."""

    def __init__(self, users):
        super().__init__()
        self.users = users
        self.match_id = self.slug = self.profile = self.redeals = self.rebellions = None
        self.clock_started = False
        self.closed = False
        self._fingerprint = None
        self.log = []
        self.counts = dict.fromkeys(("hands", "rulings", "approvals", "choices", "appeals", "over"), 0)
        self.next_number, self.declarer, self.last_hand = 1, None, 1   # as the last step's replay left them
        pagecache.forget_rows()   # ids come back after a rollback (SQLite): nothing remembered of earlier rows
        self._frozen = clock.frozen(START)
        self.now = self._frozen.__enter__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()

    def teardown(self):
        if self.match_id is not None and SHOW_STATS:
            STATS[f"match ended {self.match().status}"] += 1
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)
        self._frozen.__exit__(None, None, None)

    # --- the match and its reads ---------------------------------------------------------------

    @initialize(slug=st.sampled_from(SLUGS), data=st.data())
    def make_match(self, slug, data):
        """A fresh match under ``slug``, with the organiser's readings of its unclear clauses (now and then not
        the file's), and a few hands played already (each checked)."""
        self.slug = slug
        self.redeals = bool(PROFILES[slug][0]["rotation"].get("no_trump_declared"))   # 000 第五条
        self.rebellions = bool(PROFILES[slug][0]["rotation"].get("rebellion"))        # 004 二.7 造反
        match = scratch_match(slug, referees=[self.users["referee"]])
        self.match_id = match.pk
        picks = {name: data.draw(st.sampled_from([spec["default"], spec["default"], *spec["readings"]]), label=name)
                 for name, spec in CHOICES[slug].items()}
        if any(picks[name] != spec["default"] for name, spec in CHOICES[slug].items()):
            rule_choices.set_choices(match.round.stage.event, self.users["organiser"], picks)
        self.profile = self.stored().profile
        self.note_counts(self.stored())
        self.log.append(f"match under {slug}, organiser choices {picks}")
        for _ in range(data.draw(st.integers(0, 3), label="hands first")):
            self.play_hand(data, data.draw(st.booleans(), label="in_request"))
            self.stored_is_replayed()

    def match(self):
        """The match as a caller holds it; its rule profile is the machine's copy (its JSON decoded once)."""
        match = Match.objects.select_related("ns", "ew", "round").get(pk=self.match_id)
        if self.profile is not None and match.profile_id == self.profile.pk:
            match.profile = self.profile
        return match

    def stored(self):
        """The match as stored, read as ``manage.py verify_replay`` reads it."""
        return Match.objects.select_related("profile", "ns", "ew", "round").get(pk=self.match_id)

    def open_appeals(self):
        """The match's appeals its route's last instance has not decided yet."""
        return Appeal.objects.filter(ruling__match_id=self.match_id).exclude(
            decisions__instance=appeal_route.instances(self.profile))

    def fingerprint(self):
        """Every record of the match and what is stored of its result and kept state: one statement, its SQL
        built once per example."""
        if self._fingerprint is None:
            on_match, on_ruling = {"match_id": OuterRef("pk")}, {"ruling__match_id": OuterRef("pk")}
            counts = {
                "hands": Hand.objects.filter(**on_match), "rulings": Ruling.objects.filter(**on_match),
                **{m.__name__: m.objects.filter(**on_ruling) for m in (RulingVoid, Approval, ChoiceMade, Appeal)},
                "decisions": AppealDecision.objects.filter(appeal__ruling__match_id=OuterRef("pk")),
                "removals": PairRemoval.objects.filter(Q(pair_id=OuterRef("ns_id")) | Q(pair_id=OuterRef("ew_id"))),
                "restorations": PairRestoration.objects.filter(
                    Q(removal__pair_id=OuterRef("ns_id")) | Q(removal__pair_id=OuterRef("ew_id"))),
            }
            row = Match.objects.filter(pk=self.match_id).annotate(
                **{f"n_{name}": _count(rows) for name, rows in counts.items()}).values_list(
                "status", "winner_id", "ns_level", "ew_level", "finished_at", "started_at", "result_note",
                "ns__status", "ew__status", "hand_allowance__reason", "hand_allowance__hand_in_play",
                "hand_allowance__last_hand", "engine_snapshot__hand_id", "engine_snapshot__ruling_id",
                "engine_snapshot__data", *(f"n_{name}" for name in counts))
            self._fingerprint = row.query.sql_with_params()
        with connection.cursor() as cursor:
            cursor.execute(*self._fingerprint)
            return cursor.fetchall()

    def attempt(self, what, call, in_request, *, unchanged=False):
        """Run one service call (inside a request's transaction when ``in_request``); a refusal must leave
        every record as it was, and so must a call that is ``unchanged`` (a retry)."""
        self.now.advance(seconds=STEP_SECONDS)   # a step takes a while at the table
        before = self.fingerprint()
        try:
            with transaction.atomic() if in_request else nullcontext():
                result = call()
        except UserError as error:
            self.log.append(f"{what} -> refused ({type(error).__name__} {error.field}: {error})")
            STATS[f"{what.split('(')[0]}: refused ({error.field})"] += 1
            EXAMPLES.setdefault(f"{what.split('(')[0]}: refused ({error.field}): {error}", what)
            after = self.fingerprint()
            assert after == before, f"a refused step changed the records: {what}\n" + "\n".join(self.log)
            return None
        self.log.append(f"{what} -> ok")
        STATS[f"{what.split('(')[0]}: {'retried' if unchanged else 'done'}"] += 1
        if unchanged:
            assert self.fingerprint() == before, f"a retry changed the records: {what}\n" + "\n".join(self.log)
        return result

    def user(self, data, names):
        name = data.draw(st.sampled_from(names), label="user")
        return name, self.users[name]

    # --- the property, after every step --------------------------------------------------------

    @invariant()
    def stored_is_replayed(self):
        """The stored match is what its records replay to (issue 25), and it is finished exactly when decided."""
        if self.match_id is None:
            return
        match = self.stored()
        found = check_match(match)
        assert found == [], "\n".join([*map(str, found), "after:", *self.log])
        decided = match.status in Match.DECIDED
        assert (match.finished_at is not None) == decided, (match.status, match.finished_at, self.log)
        assert (match.winner_id is None) or decided, (match.status, match.winner_id, self.log)
        self.note_counts(match)

    def note_counts(self, match):
        """What the rules read next, replayed: the hand to record and its declarer, the last hand, and the
        rulings and appeals waiting for someone."""
        entries = match_entries(match) if Ruling.objects.filter(match_id=self.match_id).exists() else []
        done = match_replay(match, entries)
        self.next_number, self.declarer = done.next_number, done.state.declarer
        self.last_hand = done.hands[-1].number if done.hands else 1
        self.counts = {
            "hands": len(done.hands), "rulings": len(entries),
            "approvals": sum(e.state == PENDING and e.sanction.needs_approval for e in entries),
            "choices": sum(e.sanction is not None and e.sanction.pending_choice for e in entries),
            "appeals": self.open_appeals().count() if entries else 0, "over": match.is_over,
        }

    # --- hands ---------------------------------------------------------------------------------

    def hand_inputs(self, data, *, capture=False):
        """A normal hand's inputs: trump, points, a bottom and a last trick (a capture when ``capture``)."""
        trump = data.draw(st.sampled_from(TRUMPS), label="trump")
        inputs = {"trump": trump, "defender_points": data.draw(POINTS, label="defender_points")}
        if capture or data.draw(st.booleans(), label="last trick given"):
            shape = data.draw(st.sampled_from(["single", "pair", "tractor"]), label="shape")
            trick = {"by": "defenders" if capture else data.draw(st.sampled_from(["defenders", "declarers"])),
                     "shape": shape}
            if shape == "tractor":
                trick["pairs"] = data.draw(st.integers(2, 4), label="pairs")
            if data.draw(st.booleans(), label="trump given"):
                trick["trump"] = data.draw(st.booleans(), label="trump trick")
            rank = data.draw(st.sampled_from([None, None, "J", "A", "2", "K"]), label="rank")
            if rank:
                trick["rank"] = rank
                if data.draw(st.booleans(), label="main rank given"):
                    trick["main_rank"] = data.draw(st.booleans(), label="main rank")
            if data.draw(st.integers(0, 9), label="buried by") == 0:
                trick["buried_by"] = "defenders"
            inputs["last_trick"] = trick
            inputs["bottom_points"] = data.draw(
                st.sampled_from([5, 10, 20, 25, 40]) if capture else st.integers(0, 8).map(lambda n: 5 * n),
                label="bottom_points")
        if data.draw(st.integers(0, 19), label="reclaim") == 0:
            inputs["reclaim"] = True
        return inputs

    def number_and_declarer(self, data, inputs):
        """The hand number (now and then a wrong one) and, while nobody declares yet, a declarer seat."""
        number = data.draw(st.sampled_from([self.next_number] * 12 + [self.next_number - 1, self.next_number + 1]),
                           label="number")
        declarer = self.declarer
        if declarer is None or data.draw(st.integers(0, 19), label="declarer given") == 0:
            inputs["declarer"] = data.draw(st.sampled_from([*SEATS, *SEATS, None] if declarer is None else SEATS),
                                           label="declarer")
        return number

    def record(self, data, inputs, in_request, what):
        number = self.number_and_declarer(data, inputs)
        name, user = self.user(data, ["referee"] * 6 + ["chief", "chief", "other_referee"])
        self.attempt(f"record_hand({what}number={number}, {inputs}, by {name})",
                     lambda: scoring.record_hand(self.match(), user, number=number, **inputs), in_request)

    # --- the rules: few, so that hypothesis's swarm of enabled rules keeps them together --------

    @rule(data=st.data(), in_request=st.booleans())
    def hand(self, data, in_request):
        """A hand: any, a bottom capture, a run the declarers keep, or a redeal."""
        kinds = ["play_hand"] * 3 + ["play_capture"] * 2 + ["play_run"] * 2 + ["play_redeal"] * (
            2 if self.redeals else 0) + ["play_rebellion"] * (2 if self.rebellions else 0)
        if self.counts["over"]:
            kinds = ["play_hand"]   # refused: one try is enough
        self.run(data, kinds, in_request)

    @precondition(lambda self: self.counts["hands"])
    @rule(data=st.data(), in_request=st.booleans())
    def correct_last_hand(self, data, in_request):
        self.do_correct(data, in_request)

    @rule(data=st.data(), in_request=st.booleans())
    def ruling(self, data, in_request):
        """An offence: an escalating warning, any offence, a lateness, a match forfeit, a choice left to the side."""
        kinds = ["rule_warning"] * 3 + ["rule_offence"] * 2
        if any(_needs(node, "bands") for node in OFFENCES[self.slug].values()):
            kinds.append("rule_lateness")
        if FORFEITS[self.slug]:
            kinds += ["rule_forfeit"] * 2
        if LEFT_TO_CHOOSE[self.slug]:
            kinds.append("rule_left_to_choose")
        self.run(data, kinds, in_request)

    @precondition(lambda self: self.counts["approvals"] or self.counts["choices"])
    @rule(data=st.data(), in_request=st.booleans())
    def settle_pending(self, data, in_request):
        """A pending ruling decided: a chief's approval or rejection, or the other side's choice."""
        kinds = ["do_approve"] * bool(self.counts["approvals"]) + ["do_choose"] * bool(self.counts["choices"])
        self.run(data, kinds, in_request)

    @precondition(lambda self: self.counts["rulings"])
    @rule(data=st.data(), in_request=st.booleans())
    def void(self, data, in_request):
        self.run(data, ["do_void", "do_void_last"], in_request)

    @precondition(lambda self: self.counts["rulings"])
    @rule(data=st.data(), in_request=st.booleans())
    def appeal(self, data, in_request):
        """An appeal filed, or one waiting decided."""
        kinds = ["do_file_appeal"] + ["do_decide"] * (3 if self.counts["appeals"] else 0)
        self.run(data, kinds, in_request)

    @precondition(lambda self: self.counts["over"] and not self.closed)
    @rule(in_request=st.booleans())
    def close_round(self, in_request):
        """The chief referee closes the round once the match is decided: the appeal window starts (issue 27:
        appeals after the match amend it)."""
        rnd = self.match().round
        closed = self.attempt("close_round()", lambda: rounds.close_round(rnd, self.users["chief"]), in_request)
        self.closed = closed is not None

    @precondition(lambda self: PROFILES[self.slug][0]["timing"]["match_minutes"])
    @rule(in_request=st.booleans(), minutes=st.sampled_from([5, 15, 30, 45, 60, 75, 90, 120]))
    def time_passes(self, in_request, minutes):
        """The hall clock: started by a chief referee, then time passes and what is due fires (the announcement
        and its last allowed hand, or time up: the match settled by its levels)."""
        rnd = self.match().round
        if not self.clock_started:
            started = self.attempt("start_clock()", lambda: clocks.start_clock(rnd, self.users["chief"]), in_request)
            self.clock_started = started is not None
        self.now.advance(minutes=minutes)
        self.attempt(f"fire_due(after {minutes} minutes)", lambda: clocks.fire_due(rnd.pk), in_request)

    def run(self, data, kinds, in_request):
        getattr(self, data.draw(st.sampled_from(kinds), label="kind"))(data, in_request)

    # --- what the rules do ---------------------------------------------------------------------

    def play_hand(self, data, in_request):
        redeal = data.draw(st.integers(0, 14 if self.redeals else 30), label="redeal") == 0
        self.record(data, {"outcome": "redeal"} if redeal else self.hand_inputs(data), in_request, "")

    def play_capture(self, data, in_request):
        self.record(data, self.hand_inputs(data, capture=True), in_request, "a bottom capture, ")

    def play_run(self, data, in_request):
        """Hands the declarers keep, one after another (a match won by the top level), each checked."""
        for _ in range(data.draw(st.integers(2, 5), label="hands")):
            inputs = {"trump": data.draw(st.sampled_from(TRUMPS), label="trump"),
                      "defender_points": data.draw(st.sampled_from([0, 0, 5, 35, 40, 60, 120]), label="points")}
            self.record(data, inputs, in_request, "")
            self.stored_is_replayed()
            if self.counts["over"]:
                break

    def play_redeal(self, data, in_request):
        """Nobody declared trump (000 第五条): refused where the profile has no rule for it."""
        self.record(data, {"outcome": "redeal"}, in_request, "redeal, ")

    def play_rebellion(self, data, in_request):
        """造反 (004 二.7): an attacker calls it, any seat wins the new bidding; refused for the declarers."""
        inputs = {"outcome": "rebel", "called_by": data.draw(st.sampled_from(SEATS), label="called by"),
                  "declarer": data.draw(st.sampled_from(SEATS), label="new declarer")}
        self.record(data, inputs, in_request, "rebellion, ")

    def do_correct(self, data, in_request):
        last = self.last_hand
        number = data.draw(st.sampled_from([last] * 6 + [last - 1, last + 1]), label="number")
        if data.draw(st.integers(0, 5 if self.redeals else 30), label="correct to a redeal") == 0:
            inputs = {"outcome": "redeal"}
        else:
            inputs = self.hand_inputs(data, capture=data.draw(st.booleans(), label="capture"))
            if number == 1 and data.draw(st.booleans(), label="declarer corrected"):
                inputs["declarer"] = data.draw(st.sampled_from(SEATS), label="declarer")
        name, user = self.user(data, ["referee", "chief", "chief"])
        self.attempt(f"correct_last_hand(number={number}, {inputs}, by {name})",
                     lambda: scoring.correct_last_hand(self.match(), user, number=number, **inputs), in_request)

    # --- rulings -------------------------------------------------------------------------------

    def offence_inputs(self, data, code, *, choice=...):
        """The inputs of one offence: its choice, the offenders' role, cards and minutes where it counts them."""
        node = OFFENCES[self.slug][code]
        inputs = {"choice": data.draw(st.sampled_from(_choices(node)), label="choice") if choice is ... else choice,
                  "role": data.draw(st.sampled_from(ROLES), label="role")}
        if _needs(node, "per_card") or data.draw(st.integers(0, 9), label="cards anyway") == 0:
            inputs["cards"] = data.draw(st.integers(1, 4), label="cards")
        if _needs(node, "bands"):
            inputs["minutes"] = data.draw(st.sampled_from(LATENESS), label="minutes")
            if data.draw(st.integers(0, 3), label="seconds given") == 0:
                inputs["seconds"] = data.draw(st.integers(0, 59), label="seconds")
        return inputs

    def rule_on(self, data, code, inputs, in_request):
        """Record the offence ``code`` by a side (now and then a seat), for the hand in play or an earlier one."""
        side = data.draw(st.sampled_from([*SIDES, *SIDES, *SEATS]), label="side")
        extra = {}
        if data.draw(st.integers(0, 2), label="hand number given") == 0:
            extra["hand_number"] = data.draw(st.integers(1, max(1, self.counts["hands"] + 1)), label="hand_number")
        if data.draw(st.integers(0, 2), label="declarer given") == 0:
            extra["declarer"] = data.draw(st.sampled_from(SEATS), label="declarer")
        keys = list(Ruling.objects.filter(match_id=self.match_id).exclude(idempotency_key="")
                    .values_list("idempotency_key", flat=True))
        key = data.draw(st.sampled_from(["", "new", "new", *(["retry"] if keys else [])]), label="key")
        if key == "new":
            key = f"key-{len(self.log)}"
        elif key == "retry":   # the console sends a ruling again (a lost answer): the stored one comes back
            key = data.draw(st.sampled_from(keys), label="key retried")
        name, user = self.user(data, ["referee", "referee", "chief"])
        self.attempt(f"record_ruling({code!r}, {side!r}, {inputs | extra}, key={key!r}, by {name})",
                     lambda: rulings.record_ruling(self.match(), user, code, side, idempotency_key=key, **inputs,
                                                   **extra), in_request, unchanged=key in keys)

    def rule_warning(self, data, in_request):
        """The offences that escalate: the same one again and again (delay above all)."""
        codes = [code for code in ESCALATING if code in OFFENCES[self.slug]]
        code = data.draw(st.sampled_from([codes[0]] * 2 + codes if codes else sorted(OFFENCES[self.slug])),
                         label="code")
        choice = None if data.draw(st.integers(0, 2), label="default sanction") else ...
        self.rule_on(data, code, self.offence_inputs(data, code, choice=choice), in_request)

    def rule_offence(self, data, in_request):
        code = data.draw(st.sampled_from(sorted(OFFENCES[self.slug])), label="code")
        self.rule_on(data, code, self.offence_inputs(data, code), in_request)

    def rule_lateness(self, data, in_request):
        code = data.draw(st.sampled_from(sorted(c for c, node in OFFENCES[self.slug].items() if _needs(node, "bands"))),
                         label="code")
        self.rule_on(data, code, self.offence_inputs(data, code), in_request)

    def rule_forfeit(self, data, in_request):
        """A match forfeit or disqualification: a table referee's waits for approval, a chief's is decided."""
        code, choice, role, minutes = data.draw(st.sampled_from(FORFEITS[self.slug]), label="forfeit")
        inputs = {"choice": choice, "role": role, "cards": 1, **({"minutes": minutes} if minutes is not None else {})}
        self.rule_on(data, code, inputs, in_request)

    def rule_left_to_choose(self, data, in_request):
        """An offence whose sanction the other side chooses (002 十七, 004 九.4): pending until it does."""
        code, role = data.draw(st.sampled_from(LEFT_TO_CHOOSE[self.slug]), label="offence")
        self.rule_on(data, code, {"choice": None, "role": role, "cards": 1}, in_request)

    def pick_ruling(self, data, wanted=None):
        """A ruling of the match: mostly one ``wanted`` accepts (an entry's test), else any."""
        entries = match_entries(self.match())
        fitting = [entry.ruling for entry in entries if wanted is not None and wanted(entry)]
        pool = fitting if fitting and data.draw(st.integers(0, 4), label="fitting ruling") else [e.ruling for e in entries]
        return pool[data.draw(st.integers(0, len(pool) - 1), label="ruling")]

    def do_approve(self, data, in_request):
        ruling = self.pick_ruling(data, lambda e: e.state == PENDING and e.sanction.needs_approval)
        approved = data.draw(st.booleans(), label="approved")
        name, user = self.user(data, ["chief", "chief2", "chief2", "referee"])
        self.attempt(f"approve(ruling #{ruling.sequence} {ruling.code}, approved={approved}, by {name})",
                     lambda: rulings.approve(ruling, user, approved=approved), in_request)

    def do_choose(self, data, in_request):
        ruling = self.pick_ruling(data, lambda e: e.sanction is not None and e.sanction.pending_choice)
        other = {"NS": "EW", "EW": "NS"}.get(ruling.side, "NS")
        side = data.draw(st.sampled_from([other] * 5 + [ruling.side]), label="side")
        options = [c for c in _choices(OFFENCES[self.slug].get(ruling.code, {})) if c is not None] or ["40"]
        option = data.draw(st.sampled_from(options), label="option")
        name, user = self.user(data, ["referee", "chief"])
        self.attempt(f"record_choice(ruling #{ruling.sequence} {ruling.code}, {side}, {option!r}, by {name})",
                     lambda: rulings.record_choice(ruling, user, side, option), in_request)

    def do_void(self, data, in_request):
        ruling = self.pick_ruling(data)
        name, user = self.user(data, ["referee", "chief"])
        self.attempt(f"void_ruling(ruling #{ruling.sequence} {ruling.code}, by {name})",
                     lambda: rulings.void_ruling(ruling, user, "误判"), in_request)

    def do_void_last(self, data, in_request):
        name, user = self.user(data, ["referee", "chief"])
        self.attempt(f"void_last_ruling(by {name})",
                     lambda: rulings.void_last_ruling(self.match(), user, "撤回"), in_request)

    # --- appeals -------------------------------------------------------------------------------

    def do_file_appeal(self, data, in_request):
        ruling = self.pick_ruling(data, lambda e: e.state in LIVE_STATES)
        side = data.draw(st.sampled_from(SIDES), label="side")
        name, user = self.user(data, ["referee", "chief"])
        self.attempt(f"file_appeal(ruling #{ruling.sequence} {ruling.code}, {side}, by {name})",
                     lambda: appeals.file_appeal(ruling, user, side, "不服"), in_request)

    def do_decide(self, data, in_request):
        """An appeal decided by the body the profile's route names (now and then by another person)."""
        chosen = list(self.open_appeals().select_related("ruling").order_by("pk"))
        appeal = chosen[data.draw(st.integers(0, len(chosen) - 1), label="appeal")]
        decided = set(AppealDecision.objects.filter(appeal=appeal).values_list("instance", flat=True))
        instance = data.draw(st.sampled_from([2, 2, 2, 1] if 1 in decided else [1, 1, 1, 2]), label="instance")
        outcome = data.draw(st.sampled_from(["upheld", "reversed", "amended", "amended"]), label="outcome")
        amendment = None
        if outcome == "amended" and data.draw(st.integers(0, 7), label="amendment given"):
            code = data.draw(st.sampled_from([None, None, *sorted(OFFENCES[self.slug])]), label="code")
            inputs = self.offence_inputs(data, code or appeal.ruling.code)
            amendment = {key: value for key, value in {"code": code, **inputs}.items() if key in AMENDMENT_FIELDS}
        body = appeal_route.body_at(self.profile, instance)
        bodies = {"chief_referee": ["chief", "chief2"], "referee_group": ["chief", "chief2"],
                  "arbitration_group": ["arbiter", "arbiter2"], "organising_committee": ["organiser"]}
        names = bodies.get(body, []) * 4 + ["chief", "arbiter", "organiser", "referee"]
        name, user = self.user(data, names)
        stands = data.draw(st.integers(0, 3), label="result stands") == 0
        self.attempt(f"decide_appeal(appeal on ruling #{appeal.ruling.sequence} by {appeal.side}, instance={instance}, "
                     f"{outcome}, amendment={amendment}, result_stands={stands}, by {name})",
                     lambda: appeals.decide_appeal(appeal, user, instance=instance, outcome=outcome,
                                                   reason="复议", amendment=amendment, result_stands=stands),
                     in_request)


def test_the_stored_match_is_always_its_replay(make_user, settings):
    """Issue 25 (stored = replayed): random hands, corrections, redeals, rulings, approvals, choices, voids
    and appeals on every profile; after every step the stored levels, status, winner, finish and kept
    state are what a fresh replay of the records gives, and a refused step changes nothing."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    for slug in SLUGS:
        latest_profile(slug)   # stored once, outside the examples' savepoints
    users = {
        "referee": make_user(roles.TABLE_REFEREE),
        "other_referee": make_user(roles.TABLE_REFEREE),
        "chief": make_user(roles.CHIEF_REFEREE),
        "chief2": make_user(roles.CHIEF_REFEREE),
        "organiser": make_user(roles.ORGANISER),
        "arbiter": make_user(roles.ARBITRATION),
        "arbiter2": make_user(roles.ARBITRATION),
    }
    randomly = os.environ.get("REPLAY_SM_RANDOM") == "1"
    STATS.clear()
    run_state_machine_as_test(lambda: ReplayMachine(users), settings=settings_for_run(randomly))
    if SHOW_STATS:
        print("\n".join(f"{n:6} {what}" for what, n in sorted(STATS.items())))
        print("\n".join(f"{k}\n      {v}" for k, v in sorted(EXAMPLES.items())))


def settings_for_run(randomly=False):
    """A modest number of examples on SQLite, CI's 150 on PostgreSQL; the same examples every run unless
    ``randomly``; no deadline (a step writes and replays), no explain phase (slow on a database)."""
    return hypothesis_settings(max_examples=_examples(), stateful_step_count=15, deadline=None,
                               derandomize=not randomly, database=None, print_blob=True,
                               phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
                               suppress_health_check=list(HealthCheck))


def test_per_player_escalation_replays_as_recorded(make_user):
    """Issue 25 (stored = replayed), found by the machine above: under shenzhen's organiser reading
    ``escalation_count: per_player`` (第十六条（二）（四）counted per player), four delays by N, S, N, S are
    warning, warning, violation, violation as recorded, and a replay of the stored rulings must give the same
    (it gave warning, violation, violation, violation and a forfeit waiting for approval while a Ruling kept
    only the side), with the kept state counting per seat as the replay does."""
    referee, organiser = make_user(roles.TABLE_REFEREE), make_user(roles.ORGANISER)
    match = scratch_match("shenzhen-community", referees=[referee])
    rule_choices.set_choices(match.round.stage.event, organiser, {"escalation_count": "per_player"})
    recorded = []
    for seat in ("N", "S", "N", "S"):
        entry = rulings.record_ruling_entry(Match.objects.get(pk=match.pk), referee, "delay", seat)
        recorded.append(sorted(entry.sanction.kinds))
    stored = Match.objects.select_related("profile", "ns", "ew", "round").get(pk=match.pk)
    assert [sorted(e.sanction.kinds) for e in match_entries(stored)] == recorded
    assert check_match(stored) == []


@pytest.mark.parametrize("slug, code", [("shenzhen-community", "card_count"), ("two-deck-standard", "signal")])
def test_a_correction_before_a_hand_a_ruling_decided_keeps_its_own_result(make_user, slug, code):
    """Issue 25 (stored = replayed), found by the machine above on PostgreSQL: hand 1 (N declares, defenders
    0), then a ruling that decides hand 2 (the declarers' card count, 000 第十七条（三）; a light signal, 002 十一
    （五）: they step down), then hand 1 corrected as it was. The corrected row must keep hand 1's own
    result (declarer N); it kept the award's (declarer S), so the replay of the stored rows gave another
    rotation than the state the correction kept."""
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(slug, referees=[referee])
    scoring.record_hand(match, referee, number=1, trump="S", defender_points=0, declarer="N")
    rulings.record_ruling(match, referee, code, "NS", role="declarers")
    corrected = scoring.correct_last_hand(match, referee, number=1, trump="S", defender_points=0).hand
    assert (corrected.declarer_seat, corrected.level_played) == ("N", "2")
    assert check_match(Match.objects.select_related("profile", "ns", "ew", "round").get(pk=match.pk)) == []
