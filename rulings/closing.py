"""What a closed round still allows at a table: its referee reads the console and files appeals until the
deadline; recording (a hand, a ruling) is refused with that reason as a 409, not as a stranger's 403. Used by
the rulings API's permissions and the hand service alike."""
from django.utils import timezone

from common.errors import ConflictError, gettext_noop
from config import clock
from rulings.engine import appeal_deadline
from rulings.ledger import ledger_for
from tournament import access


def closed_round_text(match):
    """Why the table's referee can no longer record at ``match`` (its round is closed), with the appeal window,
    as (msgid, params); None while the round is open."""
    published = match.round.results_published_at
    if published is None:
        return None
    deadline = appeal_deadline(ledger_for(match.profile).appeal, published) if match.profile_id else None
    params = {"at": f"{timezone.localtime(published):%H:%M}",
              "deadline": f"{timezone.localtime(deadline):%H:%M}" if deadline is not None else ""}
    if deadline is None:   # no time limit (003 二.5, 004 九.6 set none; the organiser's choice appeal_deadline)
        return gettext_noop("The round is closed (results published at %(at)s): nothing more can be recorded at "
                            "this table. An appeal can still be filed on the console (these rules set no time "
                            "limit)."), params
    if clock.now() > deadline:
        return gettext_noop("The round is closed (results published at %(at)s): nothing more can be recorded at "
                            "this table, and the appeal deadline passed at %(deadline)s."), params
    return gettext_noop("The round is closed (results published at %(at)s): nothing more can be recorded at this "
                        "table. An appeal can still be filed on the console until %(deadline)s."), params


def refuse_if_round_closed(user, match):
    """The table's referee (who may still file appeals there) after the round closed: a 409 saying so."""
    if not access.may(user, access.FILE_APPEAL, match=match):
        return
    text = closed_round_text(match)
    if text is not None:
        raise ConflictError(text[0], field="match", error_code="round_closed", **text[1])
