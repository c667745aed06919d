"""Pairs before and after the draw: enter, correct, withdraw, replace a player or the whole pair.

The checks (input cleaning, conflicts, team rules) live in :mod:`tournament.entries.services`; every write
here runs in ``transaction.atomic()`` after locking the event (``open_event``) or the pair, and a refused
change raises :class:`~tournament.entries.services.EntryError` leaving nothing half-saved.
"""
from __future__ import annotations

from django.db import transaction

from common.errors import gettext_noop
from tournament.competition import results
from tournament.entries.services import (
    EntryConflict,
    EntryError,
    PairData,
    PlayerData,
    check_duplicate_pair,
    check_name_and_seed,
    check_player_free,
    check_team_room,
    clean_pair,
    is_women,
    open_event,
    resolve_team,
    same_person,
    team_rule,
)
from tournament.models import Event, Pair, Player, Unit


def unit_named(event: Event, name: str) -> Unit:
    unit, _ = Unit.objects.get_or_create(event=event, name=name)
    return unit


def _validate_new_pair(event: Event, data: PairData, exclude_pair=None, exclude_player_ids=()) -> PairData:
    data = clean_pair(data)
    check_name_and_seed(event, data, exclude_pair)
    check_duplicate_pair(event, data, exclude_pair)
    for slot, player in ((1, data.player1), (2, data.player2)):
        check_player_free(event, player, data.unit, slot, exclude_pair, exclude_player_ids)
    return data


@transaction.atomic
def add_pair(event: Event, data: PairData) -> Pair:
    """Enter a pair (creating its unit, team and players as needed); EntryError if anything is wrong."""
    event = open_event(event)
    data = _validate_new_pair(event, data)
    unit = unit_named(event, data.unit)
    team = resolve_team(event, team_rule(event), data.team, unit)
    check_team_room(team, team_rule(event), data.reserve,
                     is_women(data.player1.gender, data.player2.gender))
    p1, p2 = (Player.objects.create(event=event, unit=unit, name=p.name, gender=p.gender, phone=p.phone)
              for p in (data.player1, data.player2))
    return Pair.objects.create(event=event, unit=unit, name=data.name, player1=p1, player2=p2,
                               team=team, reserve=data.reserve, seed=data.seed)


def _active_pair(event: Event, pair: Pair) -> Pair:
    pair = Pair.objects.select_for_update().select_related("player1", "player2", "unit").get(pk=pair.pk)
    if pair.event_id != event.pk:
        raise EntryError(gettext_noop("This pair is not in this event."), "pair")
    if pair.status != Pair.Status.ACTIVE:
        raise EntryConflict(gettext_noop("“%(pair)s” has withdrawn and can no longer be changed."), "pair",
                            pair=pair.name)
    return pair


@transaction.atomic
def edit_pair(pair: Pair, data: PairData) -> Pair:
    """Correct a pair: name, unit, players (edited in place), seed, team, reserve."""
    event = open_event(pair.event)
    pair = _active_pair(event, pair)
    data = _validate_new_pair(event, data, exclude_pair=pair)
    unit = unit_named(event, data.unit)
    team = resolve_team(event, team_rule(event), data.team, unit)
    check_team_room(team, team_rule(event), data.reserve,
                     is_women(data.player1.gender, data.player2.gender), exclude_pair=pair)
    for player, new in ((pair.player1, data.player1), (pair.player2, data.player2)):
        player.name, player.gender, player.phone, player.unit = new.name, new.gender, new.phone, unit
        player.save()
    pair.name, pair.unit, pair.team, pair.reserve, pair.seed = data.name, unit, team, data.reserve, data.seed
    pair.save()
    return pair


@transaction.atomic
def withdraw_pair(pair: Pair) -> Pair:
    """Withdraw a pair (it stays listed as withdrawn; its name stays taken).

    Allowed at any time, also after the draw: then every match it has still to play becomes a walkover
    for the other side (:func:`tournament.competition.results.entry_withdrawn`).
    """
    event = Event.objects.select_for_update().select_related("profile").get(pk=pair.event_id)
    pair = _active_pair(event, pair)
    pair.status = Pair.Status.WITHDRAWN
    pair.save(update_fields=["status"])
    results.entry_withdrawn(pair)
    return pair


def pair_data(pair: Pair) -> PairData:
    """The PairData that describes an existing pair (for forms and replacing a player)."""
    return PairData(
        unit=pair.unit.name, name=pair.name, seed=pair.seed, reserve=pair.reserve,
        team=pair.team.name if pair.team else "",
        player1=PlayerData(pair.player1.name, pair.player1.gender, pair.player1.phone),
        player2=PlayerData(pair.player2.name, pair.player2.gender, pair.player2.phone),
    )


@transaction.atomic
def replace_player(pair: Pair, slot: int, new: PlayerData) -> Pair:
    """Replace player ``slot`` (1 or 2) of a pair by another person of the same unit."""
    if slot not in (1, 2):
        raise EntryError(gettext_noop("Only player 1 or player 2 can be replaced."), "slot")
    event = open_event(pair.event)
    pair = _active_pair(event, pair)
    old = pair_data(pair)
    data = PairData(**{**old.__dict__, f"player{slot}": new})
    data = _validate_new_pair(event, data, exclude_pair=pair)
    outgoing = getattr(pair, f"player{slot}")
    if same_person(getattr(data, f"player{slot}"), data.unit,
                    PlayerData(outgoing.name, outgoing.gender, outgoing.phone), data.unit):
        raise EntryError(gettext_noop("The incoming player is the same person as the one replaced."), f"player{slot}")
    check_team_room(pair.team, team_rule(event), pair.reserve,
                     is_women(data.player1.gender, data.player2.gender), exclude_pair=pair)
    incoming = getattr(data, f"player{slot}")
    player = Player.objects.create(event=event, unit=pair.unit, name=incoming.name, gender=incoming.gender,
                                   phone=incoming.phone)
    setattr(pair, f"player{slot}", player)
    pair.save()
    return pair


@transaction.atomic
def replace_pair(pair: Pair, data: PairData) -> Pair:
    """Withdraw ``pair`` and enter ``data`` in its place (same transaction: both or neither)."""
    withdraw_pair(pair)
    return add_pair(pair.event, data)
