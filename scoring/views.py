"""Pages of the scoring app: the table page a referee keeps open on a phone."""
from collections import defaultdict

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext

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
    main_ranks = sorted({rc.rank for rc in profile.rank_captures.values() if rc.drop_main != rc.drop_other})
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
        # 004 四.5: the ranks whose capture drops to another level with the trump suit's card (主J → 2) than
        # with another suit's (副J → 6): the page asks which, as a trump play may be either at that level
        "main_ranks": main_ranks,
        # the options as first shown (for the first such rank; the page's script renames them for another)
        "main_labels": [gettext(text).replace("{rank}", main_ranks[0]) if main_ranks else ""
                        for text in ("The trump suit’s {rank}", "Another suit’s {rank}")],
        # 004 七.1/七.3: the side that overturned trump may re-bury the bottom
        "rebury": profile.reverse_subtract,
        "points_total": profile.points_total, "bottom_max": profile.bottom_max,  # the inputs' max
        # 000 第五条: a deal nobody declared trump in is redealt (not before the first hand)
        "redeal": profile.rotation_no_trump is not None and bool(state["declarer"]) and bool(state["hands"]),
        "life": match_lifecycle(match, request.user, top_winner=state["winner"]),
    })
