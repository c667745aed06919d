"""The organisers' page of the event's organiser choices: clause, both readings, the one in force."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.events import rule_choices
from tournament.permissions import organiser_required


@organiser_required
def event_rule_choices(request, event):
    """GET: every choice with its readings; POST: the organiser's picks (refused once play has started)."""
    error = None
    if request.method == "POST":
        picks = {row.choice: request.POST.get(row.choice, "") for row in rule_choices.choice_rows(event)}
        try:
            rule_choices.set_choices(event, request.user, {k: v for k, v in picks.items() if v})
            messages.success(request, _("Organiser choices saved."))
            return redirect("event_rule_choices", event.slug)
        except UserError as exc:
            error = exc
    return render(request, "tournament/rule_choices.html", {
        "event": event, "rows": rule_choices.choice_rows(event), "error": error,
        "locked": rule_choices.play_started(event)})
