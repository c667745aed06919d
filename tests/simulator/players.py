"""The players' steps of a simulated event where they record the hands (``Shape.players_record``): a side
enters a hand, the other side confirms it, disputes it for the floor referee, or leaves it waiting; at the
round's end the close is refused while a hand waits, and the floor referee decides what waits."""
from __future__ import annotations

from tournament.competition import rounds
from tournament.records.adjustments import match_replay
from tournament.selfscore import services as selfscore
from tournament.selfscore import waiting


class PlayersSteps:
    """Mixed into ``events.Sim`` (its ``attempt``, ``state``, ``note``, ``users``, ``shape``, ``players_rng``,
    ``codes``, ``playable``)."""

    def side_code(self, match, side):
        return self.codes.get((match.pk, side), "00000000")

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
