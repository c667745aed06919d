"""The organisers' page of the event's organiser choices: clause, both readings, the one in force."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.events import rule_choices
from tournament.events.forms import RuleChoicesForm
from tournament.form_fields import apply_user_error
from tournament.permissions import organiser_required


@organiser_required
def event_rule_choices(request, event):
    """GET: every choice with its readings; POST: the organiser's picks (refused once play has started)."""
    rows = rule_choices.choice_rows(event)
    form = RuleChoicesForm(request.POST if request.method == "POST" else None, rows=rows)
    if form.is_valid():
        try:
            rule_choices.set_choices(event, request.user, form.picks())
            messages.success(request, _("Organiser choices saved."))
            return redirect("event_rule_choices", event.slug)
        except UserError as exc:
            apply_user_error(form, exc)
    return render(request, "tournament/rule_choices.html", {
        "event": event, "rows": rows, "form": form, "locked": rule_choices.play_started(event)},
        status=400 if form.errors else 200)
