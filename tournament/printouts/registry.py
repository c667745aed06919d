"""Every printout kind by name (KIND → :class:`~tournament.printouts.common.Printout`)."""
from common.errors import UserError, gettext_noop
from tournament.printouts import (
    awards,
    bracket,
    crosstable,
    draw,
    penalties,
    poster,
    results,
    schedule,
    scoresheets,
    seatcards,
    standings,
    swiss,
    tablecards,
    units,
)

PRINTOUTS = {p.kind: p for p in (
    bracket.PRINTOUT,
    schedule.PRINTOUT,
    scoresheets.PRINTOUT,
    results.PRINTOUT,
    crosstable.PRINTOUT,
    standings.PRINTOUT,
    penalties.PRINTOUT,
    awards.PRINTOUT,
    draw.PRINTOUT,
    swiss.PRINTOUT,
    units.PRINTOUT,
    tablecards.PRINTOUT,
    seatcards.PRINTOUT,
    poster.PRINTOUT,
)}


def get_printout(kind):
    """The printout called ``kind`` (UserError listing the valid kinds otherwise)."""
    try:
        return PRINTOUTS[kind]
    except KeyError:
        raise UserError(gettext_noop("Unknown printout %(kind)s (valid: %(valid)s)."), field="kind", kind=kind,
                        valid=", ".join(PRINTOUTS)) from None
