"""The players' steps of a simulated event where they record the hands (``Shape.players_record``): a side
enters a hand, the other side confirms it, disputes it for the floor referee, or leaves it waiting; at the
round's end the close is refused while a hand waits, and the floor referee decides what waits. The floor
referee is now and then given the round's tables as one block; a side's slip is re-issued at the desk (its
new code printed, the old one refused); one stage may be the players' alone (a referee's own hand refused)."""
from __future__ import annotations

import io
import re

from pypdf import PdfReader

from tournament.competition import blocks, rounds
from tournament.printouts import slips
from tournament.records.adjustments import match_replay
from tournament.selfscore import codes as side_codes
from tournament.selfscore import modes, waiting
from tournament.selfscore import services as selfscore


class PlayersSteps:
    """Mixed into ``events.Sim`` (its ``attempt``, ``state``, ``note``, ``users``, ``shape``, ``players_rng``,
    ``codes``, ``playable``)."""

    def side_code(self, match, side):
        return self.codes.get((match.pk, side), "00000000")

    def players_only(self, match) -> bool:
        return self.shape.players_record and modes.of_match(match) == modes.PLAYERS

    def players_stage(self, stage_list):
        """Half the events where the players record: the last stage is theirs alone (its own setting)."""
        if self.shape.players_record and self.players_rng.random() < 0.5:
            stage = stage_list[-1]
            self.attempt(f"{stage.name}: the players record", lambda: modes.set_stage_recorders(
                stage, modes.PLAYERS, self.users["organiser"]))

    def floor_by_block(self, rnd, tables, label) -> bool:
        """Now and then the floor referee is given the round's tables as one block (False: not this time)."""
        if not (self.shape.players_record and tables and self.players_rng.random() < 0.5):
            return False
        numbers = [m.table for m in tables]
        done = self.attempt(f"{label}: the floor referee's block", lambda: blocks.assign_blocks(
            rnd.stage, rounds=[rnd], blocks=blocks.split(min(numbers), max(numbers), [self.users["referee"]])))
        if done is not None:
            self.state(f"{label} floor referee by block")
        return done is not None

    def issue_codes(self, rnd, label):
        """The round's slips; now and then one side's slip re-issued at the desk: the new code printed on it,
        the old one refused at the table from then on."""
        chief = self.users["chief"]
        issued = self.attempt(f"{label}: the sides' codes", lambda: side_codes.issue_round_codes(rnd, chief))
        self.codes.update({(i.match_id, i.side): i.code for i in issued or ()})
        if not issued or self.players_rng.random() >= 0.5:
            return
        first = issued[0]
        old, match = first.code, rnd.matches.get(pk=first.match_id)
        code = self.attempt(f"{label}: table {first.table} {first.side} slip re-issued",
                            lambda: side_codes.issue_code(match, first.side, chief))
        if code is None:
            return
        again = side_codes.Issued(first.match_id, first.table, first.side, code)
        text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(slips.render(rnd, slips.slips_of([again]))))
                       .pages)
        if code not in re.sub(r"(\d{4}) (\d{4})", r"\1\2", text):
            self.problem("slip_code", f"the re-issued slip of table {first.table} does not print its new code")
        if self.attempt(f"table {first.table}: the old code", lambda: side_codes.side_of(
                match, old, address="10.0.0.8")) is not None:
            self.problem("dead_code_works", f"table {first.table}: a re-issued side's old code still works")
        self.codes[(first.match_id, first.side)] = code
        self.state(f"{label} slip re-issued")

    def players_hand(self, match, number, inputs):
        """A side enters the hand; the other side confirms it, or disputes it and the floor referee decides, or
        (now and then) it is left waiting for the round's end."""
        rng, where = self.players_rng, f"table {match.table} hand {number}"
        side = rng.choice(["NS", "EW"])
        other = "EW" if side == "NS" else "NS"
        if waiting.open_entry(match) is not None:
            return
        entry = self.attempt(f"{where}: {side} enters", lambda: selfscore.enter_hand(
            match, self.side_code(match, side), address="10.0.0.9", number=number, inputs=inputs))
        if entry is None:
            return
        if rng.random() < self.shape.mishaps["dispute"]:
            self.attempt(f"{where}: {other} disputes", lambda: selfscore.dispute_entry(
                entry, self.side_code(match, other), address="10.0.0.9", note="分数有出入"))
            self.state(f"{self.label} table {match.table} hand disputed")
            fixed = {**inputs, "defender_points": min(200, inputs["defender_points"] + 5)}
            action = rng.choice(["confirm", "record"])
            self.decide_entry(entry, where, action, fixed if action == "record" else None)
        elif not self.left_waiting or rng.random() < self.shape.mishaps["waits"]:   # at least once an event
            self.left_waiting = True
            self.note(f"{where}: left waiting for confirmation")
        else:
            self.attempt(f"{where}: {other} confirms", lambda: selfscore.confirm_entry(
                entry, self.side_code(match, other), address="10.0.0.9"))

    def decide_entry(self, entry, where, action, inputs=None):
        """The floor referee (the chief where the referee does not referee the table) decides ``entry``."""
        for who in ("referee", "chief"):
            done = self.attempt(f"{where}: the {who} decides ({action})", lambda u=self.users[who]: selfscore.decide_entry(
                entry, u, action=action, inputs=inputs))
            if done is not None:
                return done
        return None

    def settle_waiting(self, rnd, label):
        """Before the round closes, what waits: the close is refused while a hand waits; the floor referee
        confirms it (or, where the match ended meanwhile, rejects it)."""
        if not self.shape.players_record:
            return
        tables = self.playable(rnd)
        if not self.waited_at_close and tables and waiting.open_entry(tables[0]) is None:
            self.waited_at_close = True   # once an event: a hand entered at the end of play, not confirmed
            match, rng = tables[0], self.players_rng
            replayed = match_replay(match)
            self.attempt(f"table {match.table} hand {replayed.next_number}: NS enters at the end", lambda: selfscore.enter_hand(
                match, self.side_code(match, "NS"), address="10.0.0.9", number=replayed.next_number,
                inputs={"trump": rng.choice("HSDC"), "defender_points": rng.choice([40, 80, 120]),
                        "declarer": None if replayed.state.declarer else rng.choice("NESW")}))
        open_ = waiting.open_entries(rnd=rnd)
        if not open_:
            return
        self.state(f"{label} hands waiting")
        self.attempt(f"{label}: close with hands waiting", lambda: rounds.close_round(rnd, self.users["chief"]))
        for entry in open_:
            where = f"table {entry.match.table} hand {entry.number}"
            if self.decide_entry(entry, where, "confirm") is None:
                self.decide_entry(entry, where, "reject")
