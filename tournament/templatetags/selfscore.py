"""``{% selfscore_decide match %}``: on the referee's table page, the floor referee's panel for the hand the
players entered that waits or is disputed there (``tournament.selfscore.pages.decide_context``): nothing
where the referee records, where nothing waits, or for a user who may not decide."""
from django import template

from tournament.selfscore import codes, modes, pages

register = template.Library()


@register.inclusion_tag("tournament/selfscore/_decide.html", takes_context=True)
def selfscore_decide(context, match):
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"decide": pages.decide_context(user, match) if user is not None else None, "match": match}


@register.inclusion_tag("tournament/selfscore/_desk.html", takes_context=True)
def selfscore_desk(context, rnd):
    """On the chief's desk of a round where the players record: the hands waiting and the disputes, newest
    first, and the sides' slips (print the round's, re-issue a side's)."""
    request = context.get("request")
    shown = modes.players_record_stage(rnd.stage)
    event = rnd.stage.event
    issue = shown and request is not None and codes.may_issue(request.user, event)
    return {"shown": shown, "round": rnd, "event": event, "rows": pages.desk_rows(rnd) if shown else [],
            "issue": issue, "issuable": codes.issuable(rnd).count() if issue else 0,   # the slips' question says it
            "csrf_token": context.get("csrf_token")}
