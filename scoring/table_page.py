"""The table page's context: the referee's table page (``scoring.views.table``) and the players' table page
(``tournament.selfscore.views``) show the same levels, hand form and hand history."""
from collections import defaultdict

from django.http import Http404
from django.utils.translation import get_language, gettext

from common.seats import SEAT_ZH, side_of
from scoring.explanations import hand_lines
from scoring.models import SEAT_CHOICES, Hand
from scoring.presenters import hand_entries, state_payload
from scoring.profile_store import engine_profile
from scoring.profiles import choice_specs
from tournament import access
from tournament.desk.lifecycle import match_lifecycle
from tournament.models import Match
from tournament.records.adjustments import match_replay
from tournament.records.hands import hand_history
from tournament.selfscore import modes as recorders
from tournament.selfscore import waiting


def table_match(user, match_id):
    """The match as the table pages read it (its pairs' players, its round, stage and event), if ``user`` may
    see it; else Http404 (a match one may not see is one that does not exist)."""
    match = (Match.objects.select_related("profile", "ns__player1", "ns__player2", "ew__player1", "ew__player2",
                                          "round__stage__event").filter(pk=match_id).first())
    if match is None or not access.may(user, access.VIEW, match=match):
        raise Http404
    return match


def table_context(request, match) -> dict:
    """What the table page shows of ``match`` (read by :func:`table_match`) to ``request.user``: both sides'
    levels, who declares, the hand form's choices, the hand history, the match's lifecycle."""
    replayed = match_replay(match)
    state = state_payload(match, request.user, replayed)
    chinese = (get_language() or "").startswith("zh")
    history = hand_history(match)
    newer = {hand.supersedes_id: hand for hand in history if hand.supersedes_id}
    older = defaultdict(list)   # by the current version's id: a 造反 and the deal after it share a number
    for hand in history:
        if hand.pk in newer:
            newest = newer[hand.pk]
            while newest.pk in newer:
                newest = newer[newest.pk]
            older[newest.pk].append(hand)
            hand.shown_explanation = hand_lines(hand.explanation, match.profile)   # items, or a row's Chinese
    rows = [row for _number, row, _result in hand_entries(replayed)]
    for entry, row in zip(state["hands"], rows, strict=True):
        entry["superseded"] = older.get(row.pk, []) if row is not None else []
        entry["explanation"] = hand_lines(entry["items"] or entry["explanation"], match.profile)
        entry["declarer_name"] = _seat_name(entry["declarer_seat"], chinese)
    players_only = recorders.of_match(match) == recorders.PLAYERS
    if players_only and waiting.open_entry(match) is None:
        # the players enter the hands and the other side confirms: a referee's form is for deciding an entry
        state["actions"] = {"record": False, "correct": False}
    last_hand = state["hands"][-1] if state["hands"] else None
    declaring_side = side_of(state["declarer"])
    profile = engine_profile(match.profile)
    main_ranks = sorted({rc.rank for rc in profile.rank_captures.values() if rc.drop_main != rc.drop_other})
    return {
        "match": match,
        "event": match.round.stage.event,
        "state": state,
        "hands": list(reversed(state["hands"])),
        "last_hand": last_hand,
        # the stored inputs of the last hand: a correction starts from them (scoring.js fills the form)
        "last_inputs": _inputs(rows[-1]) if last_hand else None,
        "declaring_side": declaring_side,
        "declarer_name": _seat_name(state["declarer"], chinese),
        "players": {"NS": _players(match.ns), "EW": _players(match.ew)},
        "seats": SEAT_CHOICES,
        "trumps": Hand.Trump.choices,
        "capture_ranks": sorted({rc.rank for rc in profile.rank_captures.values()}),
        # 004 四.5: the ranks whose capture drops to another level with the trump suit's card (主J → 2) than
        # with another suit's (副J → 6): the page asks which, as a trump play may be either at that level
        "main_ranks": main_ranks,
        # the options as first shown (for the first such rank; the page's script renames them for another)
        "main_labels": [gettext(text).replace("{rank}", main_ranks[0]) if main_ranks else ""
                        for text in ("The trump suit’s {rank}", "Another suit’s {rank}")],
        # 004 七.1/七.3: the side that overturned trump may re-bury the bottom
        "rebury": profile.reverse_subtract,
        # rules differ on a throw (甩牌) winning the last trick: the hint says the event's reading (choice throw_bottom)
        "throw": _throw_hint(profile, chinese),
        "points_total": profile.points_total, "bottom_max": profile.bottom_max,  # the inputs' max
        # 000 第五条: a deal nobody declared trump in is redealt (not before the first hand)
        "redeal": profile.rotation_no_trump is not None and bool(state["declarer"]) and bool(state["hands"]),
        # 004 二.7 造反: an attacker may call it once a hand names the declarer (the profile's rotation.rebellion)
        "rebellion": profile.rebellion and bool(state["declarer"]) and bool(state["hands"]),
        "attacker_seats": [(code, label) for code, label in SEAT_CHOICES
                           if declaring_side and side_of(code) != declaring_side],
        "life": match_lifecycle(match, request.user, top_winner=state["winner"]),
        "players_only": players_only,   # the page says so and where the players enter, and how a referee may
        "either_label": recorders.EITHER.label,
        # a referee's way back to the tables they cover (the floor referee's own page)
        "own_tables": access.may(request.user, access.OWN_TABLES, event=match.round.stage.event),
    }



def _seat_name(seat, chinese):
    """A seat as the page names it: 北/东/南/西 in Chinese, the code otherwise."""
    return SEAT_ZH.get(seat or "", seat) if chinese else seat


def _players(pair):
    """The two players of a pair (the event keeps no seat of each player: the side is what is known)."""
    return [pair.player1.name, pair.player2.name] if pair else []


def _inputs(hand):
    """What the referee entered for a hand, as the form's fields take it (None for a redeal or no row)."""
    if hand is None or hand.outcome != Hand.Outcome.PLAYED:
        return None
    return {"number": hand.number, "declarer": hand.declarer_seat, "trump": hand.trump,
            "defender_points": hand.defender_points, "bottom_points": hand.bottom_points,
            "last_trick": hand.last_trick or {}, "reclaim": hand.reclaim}


def _throw_hint(profile, chinese) -> dict:
    """How a throw winning the last trick counts under the event's reading, and what the referee enters."""
    spec = choice_specs(profile.data).get("throw_bottom")
    if spec:
        reading = spec["readings"][profile.reading("throw_bottom")]
        rule = reading["label"] if chinese else reading.get("label_en") or reading["label"]
    else:
        rule = gettext("A throw capturing the bottom counts as its largest combination.")
    stop = "。" if chinese else ". "
    if profile.throw_all_cards is not None:
        enter = gettext("Enter how many cards were thrown and how many pairs they hold.")
        return {"hint": rule + stop + enter, "reading": "all_cards", "pairs_label": gettext("Pairs in the throw")}
    enter = gettext("Enter how many cards were thrown and the pairs of the largest combination among them: "
                    "0 for a single, 1 for a pair, 2 or more for a tractor.")
    return {"hint": rule + stop + enter, "reading": "largest",
            "pairs_label": gettext("Pairs in its largest combination")}
