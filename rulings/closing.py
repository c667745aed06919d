"""What a closed round still allows at a table: its referee reads the console and files appeals until the
deadline; recording (a hand, a ruling) is refused with that reason as a 409, not as a stranger's 403. Used by
the rulings API's permissions and the hand service alike.

The appeal deadline counts from what the profile's ``appeal.counted_from`` names: the round's results
(``round_results_published``: 003, 004, 002 as the project's default) or the table's own end of play
(``table_end_of_play``: 000 第十九条（二） 须在该轮比赛结束后10分钟内), which a reopened round does not move.

    end_of_play(match, published_at=<the round's>) -> datetime | None
    appeal_deadline_of(match, profile=None, published_at=<the round's>) -> datetime | None
"""
from django.db.models import Min
from django.utils import timezone

from common.errors import ConflictError, gettext_noop
from config import clock
from rulings.engine import appeal_deadline
from rulings.ledger import ledger_for
from scoring.models import Hand
from tournament import access
from tournament.models import Match, Round, RoundClosure

TABLE_END_OF_PLAY = "table_end_of_play"
_UNSET = object()


def end_of_play(match, published_at=_UNSET):
    """When play ended at ``match`` (000 第十九条（二） 该轮比赛结束后): the first recording of its last hand or
    its result (``finished_at``), whichever is later, never after its round's first close (a reopen and a
    result changed since do not move it). None while the table plays on in a round not closed.
    ``published_at``: the round's close as the caller read it (for a round closed without a closure record)."""
    first_close = (RoundClosure.objects.filter(round_id=match.round_id, action=RoundClosure.Action.CLOSE)
                   .order_by("at", "id").values_list("at", flat=True).first())
    if first_close is None:
        first_close = (Round.objects.filter(pk=match.round_id).values_list("results_published_at", flat=True)
                       .first() if published_at is _UNSET else published_at)
    end = None
    status, finished_at = Match.objects.filter(pk=match.pk).values_list("status", "finished_at").get()  # afresh
    if status in Match.OVER:
        last = (Hand.objects.filter(match_id=match.pk).values("number").annotate(first=Min("recorded_at"))
                .order_by("-number").values_list("first", flat=True).first())
        times = [t for t in (last, finished_at) if t is not None]
        end = max(times) if times else None
    if first_close is not None and (end is None or end > first_close):
        end = first_close
    return end


def appeal_deadline_of(match, profile=None, published_at=_UNSET):
    """The last moment a ruling of ``match`` may be appealed under ``profile`` (the match's by default): None
    while the time does not run yet, or under rules setting no limit. ``published_at``: the round's close
    when the caller read it (a log reading many rulings), else read from ``match.round``."""
    profile = profile or match.profile
    if profile is None:
        return None
    rule = ledger_for(profile).appeal
    if rule.counted_from == TABLE_END_OF_PLAY:
        start = end_of_play(match, published_at)
    else:
        start = match.round.results_published_at if published_at is _UNSET else published_at
    return appeal_deadline(rule, start) if start is not None else None


def closed_round_text(match):
    """Why the table's referee can no longer record at ``match`` (its round is closed), with the appeal window,
    as (msgid, params); None while the round is open."""
    published = match.round.results_published_at
    if published is None:
        return None
    deadline = appeal_deadline_of(match, published_at=published) if match.profile_id else None
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
