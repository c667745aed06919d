"""Play a simulated event through the services, calling ``observe(state, key)`` at each change of state.

Everything goes through the services a page or the API calls (entries, stages, draws, hands, rulings,
approvals, appeals, the clock, closing and reopening rounds, removals, substitutions, withdrawals), as the
organiser, the chief referee, a table referee or an arbitration member of the event. Time is
``infra.clock.frozen`` and moves on with every step. A refusal (``common.errors.UserError``) is a normal
answer of the event day and is logged; any other exception fails the seed.

``key`` states (the draw, each round's close, the end) get the whole walk with printouts and exports; the
others (a round's first hand, a ruling, an approval, an appeal's decision, a reopen) get the pages and API reads.
"""
from __future__ import annotations

import datetime as dt
import random
from unittest import mock

from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import TestCase

from common.errors import UserError
from config.celery import app as celery_app
from demo.competition import play_to_win
from infra import clock
from rulings import appeal_route, appeals
from rulings import services as rulings
from rulings.models import Ruling
from scoring.services import record_hand
from tournament.clocks import services as clocks
from tournament.competition import draws, referees, results, rounds, stages, swiss_rounds
from tournament.entries import pairs as entry_pairs
from tournament.entries import removals, substitutions
from tournament.events import rule_choices
from tournament.models import Event, EventRole, Match, Pair, Player, Round, Stage, Team, Unit
from tournament.records.adjustments import match_replay

from . import table_rules
from .players import PlayersSteps
from .shapes import Shape

START = dt.datetime(2026, 12, 5, 0, 30, tzinfo=dt.timezone.utc)   # 08:30 in Beijing
UNITS = ["市总工会", "供电局", "自来水公司", "地铁集团", "第一中学", "人民医院", "园岭街道", "华富街道"]
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾萧田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
GIVEN = "伟强磊军洋勇杰涛明超芳娜敏静丽艳娟霞玲婷"
ORDINALS = "一二三四五六七八九十"
ESCALATING = ("delay", "failed_throw", "out_of_turn", "exposed_card")
REMOVED_CODES = ("cheating",)


class Sim(PlayersSteps):
    """One simulated event; ``log`` says what happened, in order (printed with a failure)."""

    def __init__(self, shape: Shape, observe, now):
        self.shape, self.observe, self.now = shape, observe, now
        self.rng = random.Random(f"simulator-steps-{shape.seed}")
        self.extra = random.Random(f"simulator-table-rules-steps-{shape.seed}")   # table_rules' own stream
        self.rebellions, self.thrown = 0, False
        self.seen_rebellion = self.seen_waiver = False
        self.log: list[str] = []
        self.states: list[str] = []
        self.disqualified: set[int] = set()
        self.byes_seen = 0
        self.bye_round_played = False   # a hand recorded in a round with a bye
        self.current_round = None
        self.label = ""
        self.event = None
        self.users = {}
        # the players' steps draw from their own sequence: a seed's other draws stay as they were
        self.players_rng = random.Random(f"simulator-players-steps-{shape.seed}")
        self.codes = {}   # (match id, side): the code on the side's slip
        self.left_waiting = False
        self.waited_at_close = False
        self.problems: list = []   # (key, state, text): what a step itself found wrong (the report adds them)

    # --- helpers -----------------------------------------------------------------------------------
    def note(self, text):
        self.log.append(text)

    def problem(self, key, text):
        self.problems.append((key, self.states[-1] if self.states else "setup", text))
        self.note(f"!! [{key}] {text}")

    def tick(self, minutes=1):
        self.now.advance(minutes=minutes)

    def attempt(self, what, call):
        """One service call in its own savepoint (a request's transaction); a refusal is logged and changes nothing.
        A few seconds pass: the hall displays poll all the time, so a write lands on a display copy built
        moments before (its rebuild then reads the changed tables only)."""
        self.now.advance(seconds=5)
        try:   # what the services leave for after the commit (caches, the display's tables, tasks) runs as it would
            with TestCase.captureOnCommitCallbacks(execute=True), transaction.atomic():
                result = call()
        except UserError as error:
            self.note(f"{what}: refused ({type(error).__name__}, {error.field}: {error})")
            return None
        self.note(f"{what}: done")
        return result

    def state(self, name, *, key=False):
        self.states.append(name)
        self.note(f"== state: {name}{' (key)' if key else ''}")
        self.observe(self, name, key)

    def chance(self, what):
        return self.rng.random() < self.shape.mishaps.get(what, 0)

    # --- the event ---------------------------------------------------------------------------------
    def run(self):
        self.setup()
        stage_list = self.make_stages()
        self.players_stage(stage_list)
        for stage in stage_list:
            self.play_stage(stage)
        self.finish()

    def setup(self):
        shape = self.shape
        profile = table_rules.profile_for(shape)
        self.event = Event.objects.create(
            slug=f"sim-{shape.seed}", name=f"2026年模拟升级赛（{shape.seed}号）", start_date=dt.date(2026, 12, 5),
            end_date=dt.date(2026, 12, 5), venue="市职工文体中心", profile=profile, format=shape.event_format,
            published=True, hand_recorders=Event.Recorders.EITHER if shape.players_record else Event.Recorders.REFEREE)
        User = get_user_model()
        for role, name, family, given in (("organiser", "organiser", "赵", "组委"), ("chief", "chief_referee", "钱", "总裁"),
                                          ("referee", "table_referee", "孙", "裁判"), ("arbiter", "arbitration", "李", "仲裁")):
            user = User.objects.create_user(username=f"sim{shape.seed}-{role}", password="pw-for-tests",
                                            first_name=given, last_name=family)
            EventRole.objects.create(event=self.event, user=user, role=name)
            self.users[role] = user
        # the chief referee sits on the arbitration group too where the route needs a second body
        names = (SURNAMES[i % len(SURNAMES)] + GIVEN[(i * 7) % len(GIVEN)] + GIVEN[(i * 3) % len(GIVEN)]
                 for i in range(10_000))
        units = [Unit.objects.create(event=self.event, name=UNITS[i % len(UNITS)] + ("" if i < len(UNITS) else
                                                                                   ORDINALS[i // len(UNITS)]))
                 for i in range(shape.units)]
        teams = {}
        if shape.teams:
            teams = {u.pk: Team.objects.create(event=self.event, unit=u, name=f"{u.name}队") for u in units}
        for i in range(shape.pairs):
            unit = units[i % len(units)]
            p1 = Player.objects.create(event=self.event, unit=unit, name=next(names), gender="M")
            p2 = Player.objects.create(event=self.event, unit=unit, name=next(names), gender="F")
            Pair.objects.create(event=self.event, unit=unit, player1=p1, player2=p2, team=teams.get(unit.pk),
                                name=f"{unit.name}{ORDINALS[(i // len(units)) % 10]}队"
                                     + ("" if i < 10 * len(units) else str(i)))
        for unit in units if shape.teams else ():
            p1 = Player.objects.create(event=self.event, unit=unit, name=next(names), gender="M")
            p2 = Player.objects.create(event=self.event, unit=unit, name=next(names), gender="M")
            Pair.objects.create(event=self.event, unit=unit, player1=p1, player2=p2, team=teams[unit.pk],
                                name=f"{unit.name}候补", reserve=True)
        picks = {}
        if shape.readings:
            for spec in (self.event.profile.data or {}).get("organiser_defaults", []):
                if isinstance(spec, dict):
                    picks[spec["choice"]] = self.rng.choice(sorted(spec["readings"]))
        picks.update(shape.named)   # the named readings the seed sets (shapes.NAMED_READINGS)
        if picks:
            self.note(f"organiser readings {picks}")
            self.attempt("set_choices", lambda: rule_choices.set_choices(self.event, self.users["organiser"], picks))
            self.event.refresh_from_db()
        self.note(f"event {self.event.slug}: {shape.describe()}")

    def make_stages(self):
        shape, event = self.shape, self.event
        if shape.format == "swiss_knockout":
            swiss = swiss_rounds.create_swiss_stage(event, rounds=shape.swiss_rounds)
            knockout = stages.create_stage(event, Stage.Kind.ELIMINATION, name="淘汰赛", source=swiss, settings={
                "qualifiers_per_group": shape.qualifiers, "places_played": min(shape.places, shape.qualifiers)})
            return [swiss, knockout]
        made = stages.create_stages_from_format(event, places_played=shape.places)
        if shape.n_groups and made[0].kind == Stage.Kind.ROUND_ROBIN:
            stages.update_stage(made[0], settings={**made[0].settings, "n_groups": shape.n_groups})
            made[0].refresh_from_db()
        return made

    # --- stages ------------------------------------------------------------------------------------
    def play_stage(self, stage):
        stage.refresh_from_db()
        chief = self.users["chief"]
        seed = f"sim{self.shape.seed}-{stage.order}"
        if stage.kind == Stage.Kind.SWISS:
            for number in range(1, self.shape.swiss_rounds + 1):
                drawn = self.attempt(f"pair Swiss round {number}",
                                     lambda: swiss_rounds.pair_next_round(stage, seed=f"{seed}-{number}", user=chief))
                if drawn is None:
                    return
                self.state(f"{stage.name} round {number} paired", key=True)
                self.play_round(stage.rounds.get(number=number))
            return
        if stage.kind == Stage.Kind.ELIMINATION:
            drawn = self.attempt(f"draw bracket of {stage.name}", lambda: draws.draw_bracket(stage, seed=seed, user=chief))
        else:
            drawn = self.attempt(f"draw groups of {stage.name}", lambda: draws.draw_groups(stage, seed=seed, user=chief))
        if drawn is None:
            return
        self.state(f"{stage.name} drawn", key=True)
        for rnd in Round.objects.filter(stage=stage).order_by("number"):
            self.play_round(rnd)

    def assign_referee(self, match):
        try:
            with transaction.atomic():
                referees.assign_referee(match, self.users["referee"])
        except UserError:
            pass

    def playable(self, rnd):
        return list(Match.objects.filter(round=rnd, ns__isnull=False, ew__isnull=False)
                    .exclude(status__in=Match.OVER).order_by("table", "pk"))

    # --- a round -----------------------------------------------------------------------------------
    def play_round(self, rnd):
        chief, referee = self.users["chief"], self.users["referee"]
        label = f"{rnd.stage.name} R{rnd.number}"
        self.current_round, self.label = rnd, label
        byes = Match.objects.filter(round=rnd, status=Match.Status.BYE).count()
        self.byes_seen += byes
        tables = self.playable(rnd)
        if not self.floor_by_block(rnd, tables, label):
            for match in tables:
                self.assign_referee(match)
        self.before_play(rnd, tables, label)
        if self.shape.players_record:
            self.issue_codes(rnd, label)
        timed = self.timed()
        clock_on = timed and self.chance("clock")
        if clock_on:
            self.attempt(f"{label}: clock settings", lambda: clocks.set_clock_settings(rnd, chief, announce_enabled=False))
            self.attempt(f"{label}: start clock", lambda: clocks.start_clock(rnd, chief))
        tables = self.playable(rnd)
        if tables:
            first = tables[0]
            self.hand(first, referee)
            if table_rules.rebellion_left(self):   # 造反 before the next deal, which keeps the number
                self.hand(first, referee)
            self.bye_round_played |= bool(byes) and first.hands.exists()
            self.state(f"{label} first hand")
        self.during_play(rnd, label)
        if clock_on and self.chance("pause"):
            self.attempt(f"{label}: pause clock", lambda: clocks.pause_clock(rnd, chief, note="场地调整"))
            self.tick(5)
            self.state(f"{label} clock paused")
            self.attempt(f"{label}: resume clock", lambda: clocks.resume_clock(rnd, chief))
        for index, match in enumerate(self.playable(rnd)):
            if clock_on or index > 0:   # a few hands; the clock or the chief decides (one table plays to the end)
                for _ in range(self.rng.randint(0, 3)):
                    self.hand(match, referee if self.rng.random() < 0.8 else chief)
            else:
                self.attempt(f"play table {match.table} to the end",
                             lambda m=match: play_to_win(m, chief, self.rng.choice(["NS", "EW"]), self.rng))
        if clock_on:
            self.tick(24 * 60)   # the round's time runs out
            self.attempt(f"{label}: time up", lambda: clocks.fire_due(rnd.pk))
            self.state(f"{label} time up")
        self.settle_waiting(rnd, label)
        for match in self.playable(rnd) + self.undecided(rnd):
            self.attempt(f"{label}: chief decides table {match.table}", lambda m=match: results.decide_match(
                m, chief, winner=self.rng.choice(["NS", "EW"]), kind="decided", reason="双方同意提前结束，按级数判定"))
        closed = self.attempt(f"{label}: close", lambda: rounds.close_round(rnd, chief))
        if closed is None:
            self.note(f"{label}: undecided {rounds.undecided_tables(rnd)}")
            return
        self.state(f"{label} closed", key=True)
        self.after_close(rnd, label)

    def undecided(self, rnd):
        tables = set(rounds.undecided_tables(rnd))
        return [m for m in Match.objects.filter(round=rnd, table__in=tables) if m.ns_id and m.ew_id]

    def timed(self):
        try:
            return bool(self.event.profile.data["timing"]["match_minutes"])
        except (KeyError, TypeError):
            return False

    def hand(self, match, user):
        match.refresh_from_db()
        if match.is_over:
            return
        replayed = match_replay(match)
        rebelled = table_rules.rebellion(self, match, user, replayed)   # 造反: the deal keeps the number
        if rebelled:
            replayed = match_replay(match)
        number, declarer = replayed.next_number, replayed.state.declarer
        points = self.rng.choice([0, 20, 40, 60, 85, 120, 160, 200])
        inputs = {"trump": self.rng.choice(["H", "S", "D", "C"]), "defender_points": points,
                  "declarer": None if declarer else self.rng.choice("NESW")}
        trick = table_rules.throw(self)
        if trick:
            inputs["last_trick"] = trick
        if self.players_only(match) or (self.shape.players_record
                                        and self.players_rng.random() < self.shape.mishaps["players"]):
            self.players_hand(match, number, inputs)
            return
        written = self.attempt(f"hand {number} at table {match.table}" + (f" (last trick {trick})" if trick else ""),
                               lambda: record_hand(match, user, number=number, **inputs))
        if rebelled:
            table_rules.after_rebellion(self, match, user, written)

    # --- trouble -----------------------------------------------------------------------------------
    def before_play(self, rnd, tables, label):
        """Before the first hand: a pair late (a warning, points or the match lost), a withdrawal, a reserve in."""
        referee = self.users["referee"]
        if tables and self.chance("late"):
            match = self.rng.choice(tables)
            minutes = self.rng.choice([3, 6, 11, 16, 21, 31])
            ruling = self.attempt(f"{label}: table {match.table} late {minutes} min", lambda: rulings.record_ruling(
                match, referee, "late", self.rng.choice(["NS", "EW"]), minutes=minutes))
            if ruling is not None:
                self.state(f"{label} lateness ruling")
        if self.shape.teams and self.chance("substitute"):
            self.substitute(label)
        if tables and self.chance("withdraw") and not any("withdraws" in line for line in self.log):
            match = self.rng.choice(tables)
            pair = match.ns if self.rng.random() < 0.5 else match.ew
            self.attempt(f"{label}: {pair.name} withdraws", lambda: entry_pairs.withdraw_pair(pair))
        table_rules.waiver(self, self.playable(rnd), label)   # a sanction the other side waives

    def substitute(self, label):
        reserve = Pair.objects.filter(event=self.event, reserve=True, status=Pair.Status.ACTIVE).order_by("pk")
        for pair_in in reserve:
            if self.rng.random() < 0.5:
                continue
            out = Pair.objects.filter(team=pair_in.team, reserve=False, status=Pair.Status.ACTIVE).order_by("pk")
            pair_out = out.first()
            if pair_out is None:
                continue
            done = self.attempt(f"{label}: {pair_in.name} comes in for {pair_out.name}",
                                lambda p=pair_out, q=pair_in: substitutions.substitute_reserve(
                                    p, q, self.users["organiser"], reason="队员身体不适"))
            if done is not None:
                return

    def during_play(self, rnd, label):
        """While the tables play: warnings that escalate, cheating proposed and approved or refused, a
        disqualification by the chief referee."""
        chief, referee = self.users["chief"], self.users["referee"]
        offences = set((self.event.profile.data or {}).get("sanctions", {}).get("offences", {}))
        tables = self.playable(rnd)
        if tables and self.chance("warning"):
            match, code = self.rng.choice(tables), self.rng.choice([c for c in ESCALATING if c in offences] or ["delay"])
            side = self.rng.choice(["NS", "EW"])
            for _ in range(self.rng.randint(1, 3)):   # the same offence again: the sanction escalates
                self.attempt(f"{label}: {code} by {side} at table {match.table}",
                             lambda m=match: rulings.record_ruling(m, referee, code, side, cards=2, role="defenders"))
            self.state(f"{label} ruling")
        tables = self.playable(rnd)
        if tables and self.chance("cheating") and "cheating" in offences:
            match = self.rng.choice(tables)
            ruling = self.attempt(f"{label}: cheating proposed at table {match.table}", lambda: rulings.record_ruling(
                match, referee, "cheating", self.rng.choice(["NS", "EW"])))
            if ruling is not None:
                self.state(f"{label} ruling waits for approval")
                approved = self.rng.random() < 0.6
                self.attempt(f"{label}: chief {'approves' if approved else 'refuses'} ruling {ruling.pk}",
                             lambda: rulings.approve(ruling, chief, approved=approved, note="" if approved else "证据不足"))
                self.note_removed()
                self.state(f"{label} approval")
        tables = self.playable(rnd)
        if tables and self.chance("disqualify") and not self.disqualified and rnd.number >= 2:
            match = self.rng.choice(tables)
            pair = match.ns if self.rng.random() < 0.5 else match.ew
            removed = self.attempt(f"{label}: {pair.name} disqualified", lambda: removals.remove_pair(
                pair, chief, kind=Pair.Status.DISQUALIFIED, reason="查实作弊"))
            if removed is not None:
                self.note_removed()
                self.state(f"{label} disqualification")

    def note_removed(self):
        self.disqualified = set(Pair.objects.filter(event=self.event, status=Pair.Status.DISQUALIFIED)
                                .values_list("pk", flat=True))

    def after_close(self, rnd, label):
        """After the close: an appeal decided (upheld, amended, reversed; a second instance sets aside the
        first), then now and then the round reopened and closed again."""
        chief = self.users["chief"]
        candidates = list(Ruling.objects.filter(match__round=rnd).order_by("pk"))
        if candidates and self.chance("appeal"):
            ruling = self.rng.choice(candidates)
            appeal = self.attempt(f"{label}: appeal against ruling {ruling.pk} ({ruling.code})",
                                  lambda: appeals.file_appeal(ruling, chief, ruling.side, "判罚过重"))
            if appeal is not None:
                for instance in range(1, appeal_route.instances(ruling.profile) + 1):
                    if instance > 1 and self.rng.random() < 0.4:
                        break
                    self.decide(appeal, instance, label)
                self.note_removed()
        if self.chance("reopen"):
            if self.attempt(f"{label}: reopen", lambda: rounds.reopen_round(rnd, chief, "第1桌记分有误")) is not None:
                self.state(f"{label} reopened")
                for match in self.undecided(rnd):
                    self.attempt(f"{label}: chief decides table {match.table}", lambda m=match: results.decide_match(
                        m, chief, winner="NS", kind="decided", reason="复核后判定"))
                if self.attempt(f"{label}: close again", lambda: rounds.close_round(rnd, chief)) is not None:
                    self.state(f"{label} closed again", key=False)

    def decide(self, appeal, instance, label):
        body = appeal_route.body_at(appeal.ruling.profile, instance)
        user = {"arbitration_group": self.users["arbiter"], "organising_committee": self.users["organiser"]}.get(
            body, self.users["chief"])
        outcome = self.rng.choice(["upheld", "reversed", "amended"])
        amendment = None
        if outcome == "amended":
            amendment = {"code": appeal.ruling.code, "side": "EW" if appeal.ruling.side == "NS" else "NS"}
        decision = self.attempt(f"{label}: appeal {appeal.pk} instance {instance} {outcome}",
                                lambda: appeals.decide_appeal(appeal, user, instance=instance, outcome=outcome,
                                                              reason="复议", amendment=amendment))
        if decision is None:
            decision = self.attempt(f"{label}: appeal {appeal.pk} instance {instance} {outcome}, the result stands",
                                    lambda: appeals.decide_appeal(appeal, user, instance=instance, outcome=outcome,
                                                                  reason="复议", amendment=amendment,
                                                                  result_stands=True))
        if decision is not None:
            self.state(f"{label} appeal decided ({outcome}, instance {instance})")

    def finish(self):
        self.note_removed()
        self.state("the end", key=True)


def simulate(shape: Shape, observe) -> Sim:
    """Play the event of ``shape`` with the clock frozen; returns the finished simulation (its log)."""
    # the clock's tasks are not sent: the simulator fires what is due itself (clocks.fire_due), and a task left
    # on the broker would reach a later test's worker
    with clock.frozen(START) as now, mock.patch.object(celery_app, "send_task"), \
            mock.patch.object(celery_app.control, "revoke"):
        sim = Sim(shape, observe, now)
        try:
            sim.run()
        except Exception as error:
            error.add_note("\n".join(sim.log[-40:]))
            raise
        return sim

