"""``{% publish_reminder event %}``: while an event is not published its pages say so to the staff who see
them (spectators get "page not found"), and an organiser gets the publish button there and then (otherwise
nothing reminds the organiser, and 发布 is only in 赛事设置). ``manage=True`` on an organiser's page."""
from django import template

from tournament import access

register = template.Library()


@register.inclusion_tag("tournament/_publish_reminder.html", takes_context=True)
def publish_reminder(context, event, manage=False):
    request = context.get("request")
    user = getattr(request, "user", None)
    unpublished = event is not None and not event.published
    return {"event": event, "show": unpublished, "manage": manage,
            "may_publish": unpublished and user is not None and access.may(user, access.MANAGE, event=event),
            "request": request, "csrf_token": context.get("csrf_token")}
