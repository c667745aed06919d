"""Every table an event file holds, in an order where each row's references come before it, with the path
from a row to its event (:data:`TABLES`), the tables left out and why (:data:`NOT_EXPORTED`), and how a row is
read: its columns, which point at a user. The export and the import (:mod:`tournament.transfer.services`),
the people of a file (:mod:`tournament.transfer.people`) and the demo's removal read it."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import models

from rulings.models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid
from scoring.models import Hand
from tournament.models import (
    ClockEvent,
    ClockFiring,
    Draw,
    Event,
    EventClockSettings,
    EventRole,
    Group,
    GroupEntry,
    HandAllowance,
    LeadReport,
    Match,
    Pair,
    PairRemoval,
    PairRestoration,
    PairSubstitution,
    Player,
    RefereeUnit,
    Registration,
    ResultDecision,
    Round,
    RoundClock,
    RoundClosure,
    Stage,
    Team,
    Unit,
)

_MATCH = "match__round__stage__event"
_RULING = "ruling__match__round__stage__event"

# tests/tournament/test_transfer.py checks that every model of the apps is here or in
# NOT_EXPORTED.
TABLES: tuple[tuple[type[models.Model], str], ...] = (
    (Event, "pk"),
    (EventClockSettings, "event"),
    (EventRole, "event"),
    (Unit, "event"),
    (Player, "event"),
    (Team, "event"),
    (Pair, "event"),
    (Registration, "event"),
    (RefereeUnit, "event"),
    (Stage, "event"),
    (Group, "stage__event"),
    (GroupEntry, "group__stage__event"),
    (Round, "stage__event"),
    (RoundClock, "round__stage__event"),
    (Match, "round__stage__event"),
    (Draw, "event"),
    (Hand, _MATCH),
    (Ruling, _MATCH),
    (RulingVoid, _RULING),
    (Approval, _RULING),
    (ChoiceMade, _RULING),
    (Appeal, _RULING),
    (AppealDecision, "appeal__" + _RULING),
    (PairRemoval, "pair__event"),
    (PairRestoration, "removal__pair__event"),
    (PairSubstitution, "event"),
    (ResultDecision, _MATCH),
    (RoundClosure, "round__stage__event"),
    (ClockEvent, "round__stage__event"),
    (ClockFiring, "round__stage__event"),
    (HandAllowance, _MATCH),
    (LeadReport, _MATCH),
)
NOT_EXPORTED = {"tournament.printjob": "rebuilt on demand", "scoring.ruleprofile": "travels as data.profiles",
                "tournament.apitoken": "secrets: made anew where the event goes",
                "tournament.staffaccount": "an account's own state (one-time password, demo), not the event's",
                "scoring.matchsnapshot": "the kept engine state: the next write replays and keeps it anew",
                "tournament.groupstanding": "the kept group standings: the first read ranks each group anew",
                "tournament.unitlink": "secrets: registration links are made anew where the event goes",
                "tournament.unitentryversion": "a link's registration history, read through its link",
                "tournament.registrationwindow": "the registration before the event, over once it travels",
                "tournament.sidecode": "secrets: the sides' codes are issued anew where the event goes",
                "tournament.handentry": "the players' entries on the way to a hand: the hands travel",
                "tournament.entrystep": "the players' entries on the way to a hand: the hands travel"}
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active")
PROFILE_FIELDS = ("slug", "version", "name", "data", "source")


def label(model) -> str:
    return model._meta.label_lower


def columns_of(model) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields]


def is_user(f) -> bool:
    return f.is_relation and f.related_model is get_user_model()
