"""What a closed round still allows at a table: its referee reads the console and files appeals until the
deadline; recording (a hand, a ruling) is refused with that reason as a 409, not as a stranger's 403. Used by
the rulings API's permissions and the hand service alike.

The appeal deadline counts from what the profile's ``appeal.counted_from`` names: the round's results
(``round_results_published``: 003, 004, 002 as the project's default) or the table's own end of play
(``table_end_of_play``: 000 第十九条（二） 须在该轮比赛结束后10分钟内), which a reopened round does not move.

    end_of_play(match, published_at=<the round's>) -> datetime | None
    ends_of_play(matches, published_at=None) -> {match id: datetime | None}   the same for many, 3 queries
    appeal_deadline_of(match, profile=None, published_at=<the round's>) -> datetime | None
"""
from django.db.models import Min
from django.utils import timezone

from common.errors import ConflictError, gettext_noop
from infra import clock
from rulings.engine import appeal_deadline
from scoring.models import Hand
from tournament import access
from tournament.models import Match, Round, RoundClosure
from tournament.records.ledger import ledger_for

TABLE_END_OF_PLAY = "table_end_of_play"
_UNSET = object()


def end_of_play(match, published_at=_UNSET):
    """When play ended at ``match`` (000 第十九条（二） 该轮比赛结束后): the first recording of its last hand or
    its result (``finished_at``), whichever is later, never after its round's first close (a reopen and a
    result changed since do not move it). None while the table plays on in a round not closed.
    ``published_at``: the round's close as the caller read it (for a round closed without a closure record)."""
    fresh = Match.objects.only("id", "round_id", "status", "finished_at").get(pk=match.pk)
    return ends_of_play([fresh], None if published_at is _UNSET else {match.round_id: published_at})[match.pk]


def ends_of_play(matches, published_at=None) -> dict:
    """:func:`end_of_play` of each of ``matches`` (their status and ``finished_at`` as given) in three queries,
    by match id: the logs read many. ``published_at``: round id -> its close as the caller read it."""
    published_at = published_at or {}
    round_ids = {m.round_id for m in matches}
    closes = dict(RoundClosure.objects.filter(round_id__in=round_ids, action=RoundClosure.Action.CLOSE)
                  .values("round_id").annotate(first=Min("at")).values_list("round_id", "first"))
    unread = round_ids - closes.keys() - published_at.keys()
    published = {**published_at, **(dict(Round.objects.filter(pk__in=unread)
                                          .values_list("id", "results_published_at")) if unread else {})}
    last = {}   # match id -> (its last hand's number, that hand's first recording)
    over = [m.pk for m in matches if m.status in Match.OVER]
    for match_id, number, first in (Hand.objects.filter(match_id__in=over).exclude(outcome="rebel")
                                    .values("match_id", "number")
                                    .annotate(first=Min("recorded_at")).values_list("match_id", "number", "first")):
        if match_id not in last or number > last[match_id][0]:
            last[match_id] = (number, first)
    out = {}
    for m in matches:
        first_close = closes.get(m.round_id) or published.get(m.round_id)
        end = None
        if m.status in Match.OVER:
            times = [t for t in (last.get(m.pk, (0, None))[1], m.finished_at) if t is not None]
            end = max(times) if times else None
        if first_close is not None and (end is None or end > first_close):
            end = first_close
        out[m.pk] = end
    return out


def appeal_deadline_of(match, profile=None, published_at=_UNSET, end=_UNSET):
    """The last moment a ruling of ``match`` may be appealed under ``profile`` (the match's by default): None
    while the time does not run yet, or under rules setting no limit. ``published_at``: the round's close
    when the caller read it (a log reading many rulings), else read from ``match.round``; ``end``: the match's
    :func:`end_of_play` when the caller read it (:func:`ends_of_play`)."""
    profile = profile or match.profile
    if profile is None:
        return None
    rule = ledger_for(profile).appeal
    if rule.counted_from == TABLE_END_OF_PLAY:   # ``end``: its end of play when the caller read it
        start = end_of_play(match, published_at) if end is _UNSET else end
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


MATCH_OVER = gettext_noop("This match is over: only a chief referee may record a new ruling here.")


def ended_for(user, match, code=None) -> bool:
    """Has ``match`` ended (by its hands, a ruling, the chief's decision) for ``user``'s new ruling (of offence
    ``code``; None: any)? A finished match takes a new ruling from a chief referee only, as its hands are
    corrected by a chief only (``scoring.services``); its table's referee is refused with :data:`MATCH_OVER`.
    One exception: at a match a forfeit ended, the other side's lateness (000 第十七条（一）:
    both sides late, both forfeit, nobody wins)."""
    if match.status not in (Match.Status.FINISHED, Match.Status.FORFEIT):
        return False
    if code == "late" and match.status == Match.Status.FORFEIT:
        return False
    return not access.may(user, access.APPROVE, match=match)


def refuse_if_round_closed(user, match):
    """The table's referee (who may still file appeals there) after the round closed: a 409 saying so."""
    if not access.may(user, access.FILE_APPEAL, match=match):
        return
    text = closed_round_text(match)
    if text is not None:
        raise ConflictError(text[0], field="match", error_code="round_closed", **text[1])
