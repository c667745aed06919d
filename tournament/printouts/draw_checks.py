"""The draw sheet's "Data for checking" (:mod:`tournament.printouts.draw`): for each kind of draw, the
parameters it recorded in words and tables a person can check without reading JSON: the seed, the method,
the entries in the order the draw took them (each with its number in the system, the input of a re-run), the
pools of a partner draw, the standings a Swiss round was paired from. Anyone can re-run the draw with the
pure function of :mod:`tournament.engines.pairings` for its kind; only a record of a shape this sheet does
not know is printed as recorded (:func:`check_recorded`)."""
import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournament.competition.stages import describe_source
from tournament.models import Draw


@dataclass(frozen=True)
class DrawTable:
    """One table of a draw sheet: its column headers and rows of text."""

    header: tuple
    rows: tuple
    shares: tuple = ()  # each column's share of the width (equal when empty)


@dataclass(frozen=True)
class DrawCheck:
    """A draw's data for checking: lines of words (method, numbers) and tables of what it took, in order."""

    lines: tuple
    tables: tuple = ()   # (title, DrawTable) pairs


def where(match, match_id):
    """A match's round and table as printed ("#id" when the match no longer exists)."""
    if match is None:
        return f"#{match_id}", ""
    rnd = match.round.label
    return rnd, str(match.table or "")



# --------------------------------------------------------------------------- per kind
ORDER_SHARES = (0.1, 0.1, 0.4, 0.28, 0.12)


def _seed_line(draw):
    return _("Draw seed: %(seed)s") % {"seed": draw.seed}


def _order_table(ids, names):
    """The entries in the order a draw took them: place in the order, number, entry, unit, seed number."""
    rows = []
    for place, pk in enumerate(ids, start=1):
        entry = names.pair(pk)
        rows.append((str(place), str(pk), entry.name, entry.unit, entry.seed))
    header = (_("Order"), _("Number"), _("Entry"), _("Unit"), _("Seed"))
    return DrawTable(tuple(map(str, header)), tuple(rows), ORDER_SHARES)


def _groups_check(draw, names, matches):
    params = draw.params
    lines = (_seed_line(draw), _(
        "Method: the entries below, in this order, go into %(groups)s groups: the first %(seeded)s in snake order "
        "(1 to A, 2 to B, and so on, then back from the last group), the others dealt round the groups unit by "
        "unit in an order drawn with the draw seed, so that each unit's entries spread as evenly as possible.") % {
        "groups": params["n_groups"], "seeded": params.get("seeded", 0)},
        _("Result: the groups in the table above."))
    return DrawCheck(lines, ((_("Entries in the order drawn"), _order_table(params["entries"], names)),))


def _places_line(params):
    return _("Places played in the knock-out: %(places)s.") % {"places": params.get("places_played", "")}


def _bracket_check(draw, names, matches):
    params = draw.params
    if "qualifiers" in params:
        groups = [_(", ").join(describe_source(label) for label in labels) for labels in params["qualifiers"]]
        lines = (_seed_line(draw), _("Method: the group qualifiers are cross-seeded (no lot): a group's winner "
                                     "meets a runner-up of another group."),
                 _("Qualifiers, group by group: %(groups)s.") % {"groups": _("; ").join(groups)},
                 _places_line(params), _("Result: the first round in the table above."))
        return DrawCheck(lines)
    lines = (_seed_line(draw), _("Method: the entries below, in this order (seeded entries by seed number, then the "
                                 "others in an order drawn with the draw seed), take the bracket's places by seed, "
                                 "byes going to the top seeds; entries of one unit meeting in the first round are "
                                 "kept apart by exchanging lower seeds."),
             _places_line(params), _("Result: the first round in the table above."))
    return DrawCheck(lines, ((_("Entries in the order drawn"), _order_table(params["entries"], names)),))


def _seats_check(draw, names, matches):
    rows = []
    for match_id, a, b in draw.params["matches"]:
        rnd, table = where(matches.get(match_id), match_id)
        rows.append((rnd, table, str(match_id), names.side(a), names.side(b)))
    header = (_("Round"), _("Table"), _("Match"), _("North–South before the lot"), _("East–West before the lot"))
    lines = (_seed_line(draw), _("Method: the tables below, in this order, each take the next lot drawn with the "
                                 "draw seed: it keeps the two entries where they are or swaps them."),
             _("Result: the seats in the table above."))
    return DrawCheck(lines, ((_("Tables in the order drawn"),
                              DrawTable(tuple(map(str, header)), tuple(rows), (0.16, 0.1, 0.1, 0.32, 0.32))),))


def _tables_check(draw, names, matches):
    rows = []
    for round_key, ids in sorted((draw.params.get("matches") or {}).items(), key=lambda kv: int(kv[0])):
        numbers = draw.result["tables"][round_key]
        for place, (match_id, number) in enumerate(zip(ids, numbers), start=1):
            match = matches.get(match_id)
            rnd, _table = where(match, match_id)
            sides = (names.side(match.ns_id), names.side(match.ew_id)) if match is not None else ("", "")
            rows.append((rnd, str(place), str(match_id), *sides, str(number)))
    header = (_("Round"), _("Order"), _("Match"), _("North–South"), _("East–West"), _("Table drawn"))
    lines = (_seed_line(draw), _(
        "Method: each round is drawn on its own with the draw seed followed by \":R\" and the round's number "
        "(round 2 of seed abc: abc:R2): the table numbers from %(first)s on, shuffled with that seed, go to its "
        "matches in the order below.") % {"first": draw.params.get("first_table", 1)},)
    return DrawCheck(lines, ((_("Matches in the order drawn"),
                              DrawTable(tuple(map(str, header)), tuple(rows), (0.14, 0.08, 0.08, 0.28, 0.28, 0.14))),))


def _swiss_check(draw, names, matches):
    params = draw.params
    scores = {str(k): v for k, v in (params.get("scores") or {}).items()}
    had_bye = {str(pk) for pk in params.get("had_bye") or ()}
    rows = []
    for place, pk in enumerate(params["ranking"], start=1):
        entry = names.pair(pk)
        rows.append((str(place), str(pk), entry.name, entry.unit, str(scores.get(str(pk), "")),
                     str(_("yes")) if str(pk) in had_bye else ""))
    header = (_("Place"), _("Number"), _("Entry"), _("Unit"), _("Score"), _("Had a bye"))
    lines = (_seed_line(draw), _("Method: round %(round)s is paired from the standings below: as few rematches as "
                                 "possible, the bye (odd fields) to the lowest-placed entry that has not had one, "
                                 "then scores as close as possible, then as few pairs of one unit as possible; the draw seed breaks what "
                                 "is still equal.") % {
        "round": params.get("round", "")},
        _("Pairs that have met before: %(count)s.") % {"count": len(params.get("played") or ())},
        *([_("The standings' own lot (equal entries) was drawn with the seed %(seed)s.") % {
            "seed": params["standings_seed"]}] if params.get("standings_seed") else []),
        _("Result: the tables in the table above."))
    return DrawCheck(lines, ((_("Standings the round was paired from"),
                              DrawTable(tuple(map(str, header)), tuple(rows), (0.08, 0.1, 0.34, 0.24, 0.1, 0.14))),))


def _pairs_check(draw, names, matches):
    rows = []
    for pool in draw.params["pools"]:
        for place, pk in enumerate(pool["players"], start=1):
            player = names.player(pk)
            rows.append((str(pool["pool"]), str(place), str(pk), player.name))
    header = (_("Pool"), _("Order"), _("Number"), _("Player"))
    lines = (_seed_line(draw), _("Method: within each pool, the players below, in the order they signed up, are "
                                 "shuffled with the draw seed and paired two by two (first with second, third with "
                                 "fourth, and so on)."),
             _("Result: the pairs in the table above."))
    return DrawCheck(lines, ((_("Players in the order they signed up"),
                              DrawTable(tuple(map(str, header)), tuple(rows), (0.4, 0.12, 0.14, 0.34))),))


def check_void(draw, names, matches):
    return DrawCheck((_("A void draws nothing: there is nothing to re-run."),))


def check_recorded(draw, names, matches):
    """A record of a shape this sheet does not know: as recorded (the only place a raw record is printed)."""
    def compact(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    parameters, result = _("Parameters"), _("Result")   # outside the f-strings: makemessages finds them
    return DrawCheck((_seed_line(draw), f"{parameters}: {compact(draw.params)}", f"{result}: {compact(draw.result)}"))


CHECKERS = {
    Draw.Kind.GROUPS: _groups_check,
    Draw.Kind.BRACKET: _bracket_check,
    Draw.Kind.SEATS: _seats_check,
    Draw.Kind.TABLES: _tables_check,
    Draw.Kind.SWISS: _swiss_check,
    Draw.Kind.PAIRS: _pairs_check,
}
