"""How long an entry's texts may be: one table for the form, the import and the API (the database's
column sizes), checked by :func:`check_lengths` in the entries service whichever way the entry came in."""
from __future__ import annotations

from django.utils.translation import gettext_lazy

from common.errors import gettext_noop

#: field -> most characters (the model columns: Unit.name, Pair.name, Team.name 200; Player.name 100; phone 30)
LIMITS = {"unit": 200, "name": 200, "team": 200, "player1": 100, "player2": 100, "phone1": 30, "phone2": 30}
#: The highest seed number (an event has at most a few thousand entries; a 32-bit column holds it).
MAX_SEED = 9999
LABELS = {"unit": gettext_lazy("Unit"), "name": gettext_lazy("Pair name"), "team": gettext_lazy("Team")}


def check_lengths(error_class, **values):
    """Raise ``error_class`` naming the first field in ``values`` longer than its limit."""
    for field, value in values.items():
        if len(value or "") > LIMITS[field]:
            raise error_class(gettext_noop("%(label)s is too long: at most %(max)s characters, %(length)s given."),
                              field, label=LABELS.get(field, field), max=LIMITS[field], length=len(value))
