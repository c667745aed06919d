"""How long an entry's texts may be: one table for the form, the import and the API (the database's
column sizes), checked by :func:`check_lengths` in the entries service whichever way the entry came in."""
from __future__ import annotations

from django.utils.translation import gettext_lazy

from common.errors import gettext_noop

#: The most characters of a person's name (a Chinese name has 2 to 4, a transcribed foreign one some 30).
PERSON = 40
#: field -> most characters: a unit, team or pair name 100 (a pair's default name, "player 1/player 2", fits),
#: a person's name :data:`PERSON`, a phone 30 (within the model columns: 200, 100 and 30)
LIMITS = {"unit": 100, "name": 100, "team": 100, "player1": PERSON, "player2": PERSON, "phone1": 30, "phone2": 30,
          "pool": 40}
#: The highest seed number (an event has at most a few thousand entries; a 32-bit column holds it).
MAX_SEED = 9999
LABELS = {"unit": gettext_lazy("Unit"), "name": gettext_lazy("Pair name"), "team": gettext_lazy("Team"),
          "player1": gettext_lazy("Player 1"), "player2": gettext_lazy("Player 2"), "pool": gettext_lazy("Draw pool")}
#: The one sentence for a name past its limit: the service's, the forms' and the API's.
TOO_LONG = gettext_noop("%(label)s is too long: at most %(max)s characters, %(length)s given.")
#: The same where the length typed is not at hand (the API's field, which says its limit only).
NAME_TOO_LONG = gettext_noop("%(label)s is too long: at most %(max)s characters.")


def check_lengths(error_class, **values):
    """Raise ``error_class`` naming the first field in ``values`` longer than its limit."""
    for field, value in values.items():
        if len(value or "") > LIMITS[field]:
            raise error_class(TOO_LONG, field, label=LABELS.get(field, field), max=LIMITS[field], length=len(value))
