"""The chief referee's page to suspend (停赛) or disqualify a pair: its remaining matches become walkovers."""
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament import access
from tournament.entries import removals
from tournament.entries.forms import RemovalForm
from tournament.form_fields import Refusal
from tournament.models import Event, Pair


def pair_remove(request, event_slug, pk):
    """GET: the pair and the choice; POST: the decision (chief referees only)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = get_object_or_404(Event, slug=event_slug)
    if not access.may(request.user, access.APPROVE, event=event):
        raise PermissionDenied(_("Only a chief referee may suspend or disqualify a pair."))
    pair = get_object_or_404(Pair.objects.select_related("unit", "player1", "player2"), event=event, pk=pk)
    form = RemovalForm(request.POST if request.method == "POST" else None)
    error = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            if data["action"] == "lift" and pair.status in Pair.REMOVED:
                removals.restore_pair(pair.removal, request.user, reason=data["reason"])
                messages.success(request, _("%(name)s is back in the event: its matches not yet begun are played.")
                                 % {"name": pair.name})
            else:
                removals.remove_pair(pair, request.user, kind=data["kind"], reason=data["reason"])
                pair.refresh_from_db()
                messages.success(request, _("%(name)s: removed from the rest of the event.") % {"name": str(pair)})
            return redirect("entries_remove", event.slug, pair.pk)
        except UserError as exc:
            error = exc
    error = error or Refusal.first_of(form)
    return render(request, "tournament/entries/remove.html", {
        "event": event, "pair": pair, "error": error, "kinds": [(k, Pair.Status(k).label) for k in Pair.REMOVED],
        "removal": pair.removal if pair.status in Pair.REMOVED else None,
        "reason_max": removals.REASON_MAX})
