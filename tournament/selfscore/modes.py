"""Who records the hands of a match: the event's setting (``Event.hand_recorders``), unless the match's stage
says otherwise (``Stage.settings["recorders"]``: set with the stage's other settings before its draw, or alone
at any time with :func:`set_stage_recorders`). Offences, lateness, forfeits and appeals stay with the
referees and the chief whatever it says."""
from __future__ import annotations

from django.db import transaction

from common.errors import ForbiddenError, UserError, gettext_noop
from infra.db import lock_row
from tournament import access
from tournament.models import Event, Stage

REFEREE, PLAYERS, EITHER = Event.Recorders.REFEREE, Event.Recorders.PLAYERS, Event.Recorders.EITHER
CHOICES = Event.Recorders.choices
#: The key of a stage's override in ``Stage.settings``.
STAGE_KEY = "recorders"


def check(value, field: str = "hand_recorders") -> str:
    """``value`` as stored, or a UserError naming ``field``."""
    if value not in Event.Recorders.values:
        raise UserError(gettext_noop("Choose who records the hands: the referee, the players or either."),
                        field=field)
    return str(value)


def of_stage(stage) -> str:
    """Who records the hands of ``stage``'s matches (its override, else its event's setting)."""
    own = (stage.settings or {}).get(STAGE_KEY)
    return own if own in Event.Recorders.values else stage.event.hand_recorders


def of_match(match) -> str:
    """Who records the hands of ``match`` (read with ``round__stage__event``)."""
    return of_stage(match.round.stage)


def players_record_stage(stage) -> bool:
    """May the players of ``stage``'s matches enter their hands (with the opponents' confirmation)?"""
    return of_stage(stage) in (PLAYERS, EITHER)


def players_record(match) -> bool:
    """May the players of ``match`` enter its hands (with the opponents' confirmation)?"""
    return players_record_stage(match.round.stage)


@transaction.atomic
def set_stage_recorders(stage, value, by) -> Stage:
    """Who records the hands of ``stage`` (None or "": as its event says), also once drawn: the setting changes
    no draw, only who may enter the next hands (an entry waiting already may still be confirmed or decided)."""
    if not access.may(by, access.MANAGE, event=stage.event):
        raise ForbiddenError(gettext_noop("Only an organiser of the event may change who records the hands."))
    stage = lock_row(Stage.objects.select_related("event"), stage.pk)
    settings = dict(stage.settings or {})
    if value in (None, ""):
        settings.pop(STAGE_KEY, None)
    else:
        settings[STAGE_KEY] = check(value, STAGE_KEY)
    stage.settings = settings
    stage.save(update_fields=["settings"])
    return stage
