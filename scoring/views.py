"""Pages of the scoring app: the table page a referee keeps open on a phone."""
from collections import defaultdict

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from common.seats import side_of
from rulings.presenters import in_force_text
from scoring.hands import hand_history
from scoring.models import SEAT_CHOICES, Hand
from scoring.presenters import state_payload
from scoring.profile_store import engine_profile
from tournament import access
from tournament.desk.lifecycle import match_lifecycle
from tournament.models import Match


def table(request, match_id):
    """The table page: both sides' levels, who declares, the form for the next hand, the hand history.

    Anyone who may see the event may read it; the form appears for the referees allowed to record.
    """
    match = get_object_or_404(
        Match.objects.select_related("profile", "ns", "ew", "round__stage__event"), pk=match_id
    )
    if not access.may(request.user, access.VIEW, match=match):
        raise Http404
    state = state_payload(match, request.user)
    older = defaultdict(list)
    for hand in hand_history(match):
        if not hand.is_current:
            older[hand.number].append(hand)
    for entry in state["hands"]:
        entry["superseded"] = older.get(entry["number"], [])
        entry["explanation"] = [in_force_text(line) for line in entry["explanation"]]
    declaring_side = side_of(state["declarer"])
    profile = engine_profile(match.profile)
    return render(request, "scoring/table.html", {
        "match": match,
        "event": match.round.stage.event,
        "state": state,
        "hands": list(reversed(state["hands"])),
        "last_hand": state["hands"][-1] if state["hands"] else None,
        "declaring_side": declaring_side,
        "seats": SEAT_CHOICES,
        "trumps": Hand.Trump.choices,
        "capture_ranks": sorted({rc.rank for rc in profile.rank_captures.values()}),
        "points_total": profile.points_total, "bottom_max": profile.bottom_max,  # the inputs' max
        # 000 第五条: a deal nobody declared trump in is redealt (not before the first hand)
        "redeal": profile.rotation_no_trump is not None and bool(state["declarer"]) and bool(state["hands"]),
        "life": match_lifecycle(match, request.user, top_winner=state["winner"]),
    })
