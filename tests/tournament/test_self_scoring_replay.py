"""Stored = replayed where the players record: a hypothesis state machine plays random sequences of entries
(new hands, corrections, redeals, wrong numbers), confirmations (by either side, its own refused), disputes,
withdrawals, a floor referee's decisions (confirm, record another hand, reject) and a referee's own hands
(where either may record) on one table, through the services. After every step: the stored match is its
replay (``scoring.replay_check``: no mismatch), at most one entry is open, and every hand recorded came from a
confirmation, a decision or a referee; a refused step changes nothing. Examples: ``SELF_SM_EXAMPLES`` (25)."""
from __future__ import annotations

import os

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test

from common.errors import UserError
from scoring import services as hands
from scoring.models import Hand
from scoring.replay_check import check_event, check_match
from tests.tournament.selfscore_support import ADDRESS, make_event, make_round, make_table
from tournament.models import EntryStep, Event, HandEntry, Match
from tournament.selfscore import services as selfscore
from tournament.selfscore import waiting

POINTS = st.one_of(st.sampled_from([0, 5, 35, 40, 75, 80, 115, 120, 155, 160, 200]),
                   st.integers(0, 40).map(lambda n: 5 * n))
SIDES = st.sampled_from(["NS", "EW"])


def _examples():
    return int(os.environ.get("SELF_SM_EXAMPLES", "25"))


class SelfScoringMachine(RuleBasedStateMachine):
    def __init__(self, make_user, rnd):
        super().__init__()
        self.make_user, self.rnd = make_user, rnd
        self.refused = 0

    @initialize()
    def table(self):
        cache.clear()
        self.t = make_table(self.make_user, rnd=self.rnd, table=self.rnd.matches.count() + 1)

    # --- helpers ------------------------------------------------------------------------------
    def match(self):
        return Match.objects.get(pk=self.t.match.pk)

    def last_number(self):
        last = Hand.objects.filter(match=self.t.match, superseded_by__isnull=True).order_by("-number").first()
        return last.number if last else 0

    def attempt(self, call):
        """Run a step; a refusal (UserError) must leave nothing behind."""
        before = (Hand.objects.count(), HandEntry.objects.count(), EntryStep.objects.count())
        try:
            with transaction.atomic():
                call()
        except UserError:
            self.refused += 1
            assert (Hand.objects.count(), HandEntry.objects.count(), EntryStep.objects.count()) == before

    def hand(self, data, number):
        outcome = data.draw(st.sampled_from(["played"] * 6 + ["redeal"]), label="outcome")
        if outcome == "redeal":
            return {"outcome": "redeal"}
        inputs = {"trump": data.draw(st.sampled_from(["S", "H", "C", "D", "NT"]), label="trump"),
                  "defender_points": data.draw(POINTS, label="points")}
        if number == 1:
            inputs["declarer"] = data.draw(st.sampled_from(["N", "E", "S", "W"]), label="declarer")
        return inputs

    def open_entry(self):
        return waiting.open_entry(self.t.match)

    # --- rules --------------------------------------------------------------------------------
    @rule(data=st.data(), side=SIDES, correction=st.integers(0, 4), off=st.sampled_from([0] * 8 + [-1, 1]))
    def enter(self, data, side, correction, off):
        kind = "correction" if correction == 0 and self.last_number() else "new"
        number = (self.last_number() if kind == "correction" else self.last_number() + 1) + off
        inputs = self.hand(data, max(number, 1))
        self.attempt(lambda: selfscore.enter_hand(self.t.match, self.t.code(side), address=ADDRESS,
                                                  number=number, kind=kind, inputs=inputs))

    @rule(side=SIDES)
    def confirm(self, side):
        entry = self.open_entry()
        if entry is not None:
            self.attempt(lambda: selfscore.confirm_entry(entry, self.t.code(side), address=ADDRESS))

    @rule(side=SIDES)
    def dispute(self, side):
        entry = self.open_entry()
        if entry is not None:
            self.attempt(lambda: selfscore.dispute_entry(entry, self.t.code(side), address=ADDRESS, note="有异议"))

    @rule(side=SIDES)
    def withdraw(self, side):
        entry = self.open_entry()
        if entry is not None:
            self.attempt(lambda: selfscore.withdraw_entry(entry, self.t.code(side), address=ADDRESS))

    @rule(data=st.data(), action=st.sampled_from(["confirm", "record", "reject"]))
    def decide(self, data, action):
        entry = self.open_entry()
        if entry is not None:
            inputs = self.hand(data, entry.number) if action == "record" else None
            self.attempt(lambda: selfscore.decide_entry(entry, self.t.referee, action=action, inputs=inputs))

    @rule(data=st.data())
    def referee_records(self, data):
        number = self.last_number() + 1
        inputs = self.hand(data, number)
        self.attempt(lambda: hands.record_hand(self.t.match, self.t.referee, number=number, **inputs))

    # --- invariants ---------------------------------------------------------------------------
    @invariant()
    def stored_is_replayed(self):
        if not hasattr(self, "t"):
            return
        assert check_match(self.match()) == []
        open_ = [e for e in waiting.entries_of(self.t.match, limit=None) if e.state in waiting.OPEN]
        assert len(open_) <= 1
        recorded = set(Hand.objects.filter(match=self.t.match).values_list("pk", flat=True))
        by_steps = set(EntryStep.objects.filter(entry__match=self.t.match, hand__isnull=False)
                       .values_list("hand_id", flat=True))
        by_referee = set(Hand.objects.filter(match=self.t.match, recorded_by=self.t.referee)
                         .values_list("pk", flat=True))
        assert by_steps <= recorded and recorded == by_steps | by_referee


@pytest.mark.django_db
def test_random_entries_confirmations_disputes_and_decisions_keep_stored_replayed(make_user, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    rnd = make_round(make_event(Event.Recorders.EITHER))
    run_state_machine_as_test(
        lambda: SelfScoringMachine(make_user, rnd),
        settings=hypothesis_settings(max_examples=_examples(), stateful_step_count=20, deadline=None,
                                     derandomize=True, database=None, suppress_health_check=list(HealthCheck)))
    checked, found = check_event(rnd.stage.event)
    assert checked >= 1 and found == []
    played = set(EntryStep.objects.filter(entry__match__round=rnd).values_list("state", flat=True))
    assert {"confirmed", "disputed", "decided", "withdrawn"} <= played, played   # the steps were taken
    assert Hand.objects.filter(match__round=rnd, version__gt=1).exists()        # a correction confirmed
