"""Individual sign-ups (单人报名): players who register alone and are drawn into pairs by lot.

The pair draw turns the active, unpaired sign-ups into Pair rows and records a ``Draw`` of kind "pairs"
with its seed (append-only: a redraw supersedes it).
"""
from __future__ import annotations

import secrets
from collections import defaultdict

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import gettext_noop
from common.names import clean_name
from tournament.engines.pairings import draw_pairs
from tournament.entries import limits
from tournament.entries.pairs import unit_named
from tournament.entries.services import (
    EntryError,
    PlayerData,
    TeamRule,
    check_player_free,
    check_team_room,
    clean_player,
    is_women,
    open_event,
    resolve_team,
    team_rule,
)
from tournament.models import Draw, Event, Pair, Player, Registration


@transaction.atomic
def add_individual(event: Event, unit: str, player: PlayerData, *, team: str = "", reserve: bool = False,
                   pool: str = "") -> Registration:
    """Sign up one player who will get a partner by lot (:func:`draw_individual_pairs`)."""
    event = open_event(event)
    unit_name = clean_name(unit)
    if not unit_name:
        raise EntryError(gettext_noop("Enter the unit."), "unit")
    data = clean_player(player, 1)
    check_player_free(event, data, unit_name, 1)
    team_name, pool = clean_name(team), (pool or "").strip()
    limits.check_lengths(EntryError, unit=unit_name, team=team_name, pool=pool)
    if reserve and not team_name:
        raise EntryError(gettext_noop("A reserve must belong to a team: enter the team."), "team")
    unit_row = unit_named(event, unit_name)
    team_row = resolve_team(event, team_rule(event), team_name, unit_row)
    row = Player.objects.create(event=event, unit=unit_row, name=data.name, gender=data.gender, phone=data.phone)
    return Registration.objects.create(event=event, player=row, team=team_row, reserve=bool(reserve),
                                       pool=pool)


@transaction.atomic
def withdraw_individual(registration: Registration) -> Registration:
    """Withdraw an individual sign-up that has not been drawn into a pair yet."""
    open_event(registration.event)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if registration.pair_id is not None:
        raise EntryError(gettext_noop("“%(name)s” has already been drawn into a pair (%(pair)s): redo the draw or "
                                      "edit that pair."), name=registration.player.name, pair=registration.pair.name)
    registration.status = Registration.Status.WITHDRAWN
    registration.save(update_fields=["status"])
    return registration


def live_pairs_draw(event: Event) -> Draw | None:
    """The current partner draw (not superseded by a redo), or None."""
    return event.draws.filter(kind=Draw.Kind.PAIRS, superseded_by__isnull=True).order_by("-created_at").first()


def _draw_pools(event: Event) -> dict:
    """Active sign-ups grouped by (unit, team, reserve, pool), each in sign-up order."""
    pools = defaultdict(list)
    regs = event.registrations.filter(status=Registration.Status.ACTIVE).select_related("player__unit", "team")
    for reg in regs.order_by("id"):
        pools[(reg.player.unit.name, reg.team.name if reg.team else "", reg.reserve, reg.pool)].append(reg)
    return dict(sorted(pools.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], kv[0][3])))


def describe_pool(key) -> str:
    """"单位“A”、队伍“X”、候补、女子" for a pool key."""
    unit, team, reserve, pool = key
    parts = [f"单位“{unit}”"] + ([f"队伍“{team}”"] if team else []) + (["候补"] if reserve else [])
    return "、".join(parts + ([pool] if pool else []))


@transaction.atomic
def draw_individual_pairs(event: Event, seed: str | None = None, user=None) -> Draw:
    """Draw partners by lot for every active sign-up and create the pairs; returns the recorded Draw.

    Each pool (same unit, team, reserve flag and pool) is drawn with
    ``pairings.draw_pairs([player ids in sign-up order], seed)``; the seed, the pools and the result are
    stored in an append-only Draw of kind "pairs". A second call is a redo: the previous draw's pairs
    are deleted and the new Draw supersedes the old one (allowed only while entries are open).
    An odd pool is an error naming it; nothing is saved.
    """
    event = open_event(event)
    seed = (seed or "").strip() or str(secrets.randbelow(900_000) + 100_000)
    if len(seed) > 64:
        raise EntryError(gettext_noop("The seed of the draw has at most %(most)s characters."), "seed", most=64)
    pools = _draw_pools(event)
    if not pools:
        raise EntryError(gettext_noop("Nobody has signed up alone: there are no partners to draw."))
    odd = [_("%(pool)s has %(count)s players (an odd number)") % {"pool": describe_pool(k), "count": len(v)}
           for k, v in pools.items() if len(v) % 2]
    if odd:
        raise EntryError(gettext_noop("An odd number of players signed up alone cannot be drawn into pairs: add or "
                                      "remove one: %(pools)s"), "seed", pools=_("; ").join(odd))
    previous = live_pairs_draw(event)
    if previous is not None:
        _undo_pairs_draw(event, previous)
    rule = team_rule(event)
    params, result = {"pools": []}, {"pairs": []}
    for key, regs in pools.items():
        by_id = {r.player_id: r for r in regs}
        order = [r.player_id for r in regs]
        params["pools"].append({"pool": describe_pool(key), "players": order})
        for a, b in draw_pairs(order, seed):
            pair = _save_drawn_pair(event, rule, by_id[a], by_id[b])
            result["pairs"].append([a, b, pair.pk])
    return Draw.objects.create(event=event, kind=Draw.Kind.PAIRS, seed=seed, params=params, result=result,
                               supersedes=previous, created_by=user if user and user.is_authenticated else None)


def _undo_pairs_draw(event: Event, draw: Draw) -> None:
    """Before a redo: delete the pairs the previous draw created and free their sign-ups."""
    pair_ids = [row[2] for row in draw.result.get("pairs", [])]
    Registration.objects.filter(pair_id__in=pair_ids).update(pair=None)
    Pair.objects.filter(event=event, pk__in=pair_ids).delete()


def _save_drawn_pair(event: Event, rule: TeamRule | None, a: Registration, b: Registration) -> Pair:
    p1, p2 = a.player, b.player
    check_team_room(a.team, rule, a.reserve, is_women(p1.gender, p2.gender))
    name, n = f"{p1.name}/{p2.name}", 1
    while event.pairs.filter(name=name).exists():
        n += 1
        name = f"{p1.name}/{p2.name}（{n}）"
    pair = Pair.objects.create(event=event, unit=p1.unit, name=name, player1=p1, player2=p2,
                               team=a.team, reserve=a.reserve)
    Registration.objects.filter(pk__in=[a.pk, b.pk]).update(pair=pair)
    return pair
