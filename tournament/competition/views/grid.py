"""The organiser's table-by-round grid of a stage: round start times and referees in bulk (the same
referee at a table for every round in one step). Thin: :mod:`tournament.competition.timetable` does it."""
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from common.names import display_name
from common.punctuation import colon
from tournament.competition import timetable
from tournament.competition.forms import GridStageForm, RefereeGridForm
from tournament.competition.referees import referees_of
from tournament.models import Match, Stage
from tournament.permissions import organiser_required


@organiser_required
def referee_grid(request, event):
    stages = list(Stage.objects.filter(event=event).order_by("order"))
    chosen = GridStageForm(request.POST if request.method == "POST" else request.GET, event=event)
    if chosen.is_valid():
        stage = chosen.cleaned_data["stage"]
    elif request.method == "POST":   # a post for no stage of the event's saves nothing (a page: the first stage)
        messages.error(request, chosen.errors["stage"][0])
        return redirect("competition_referee_grid", event.slug)
    else:
        stage = stages[0] if stages else None
    rounds, rows = timetable.grid(stage) if stage is not None else ([], [])
    if request.method == "POST" and stage is not None:
        form = RefereeGridForm(request.POST, rounds=rounds, tables=[table for table, _cells in rows],
                               matches=[m.pk for _table, cells in rows for m in cells if m is not None],
                               referees=get_user_model().objects.filter(pk__in=[u.pk for u in referees_of(event)]))
        if form.is_valid():
            _save(request, stage, form)
        for name, errors in form.errors.items():
            messages.error(request, f"{_field_label(name, form)}{errors[0]}")
        return redirect(reverse("competition_referee_grid", args=[event.slug]) + f"?stage={stage.pk}")
    people = [(u.pk, display_name(u)) for u in referees_of(event)]
    return render(request, "tournament/competition/referee_grid.html", {
        "event": event, "stages": stages, "stage": stage, "people": people,
        "rounds": [(r, timezone.localtime(r.scheduled_start).strftime("%Y-%m-%dT%H:%M") if r.scheduled_start else "")
                   for r in rounds],
        "rows": [(table, [(m, next((u.pk for u in m.referees.all()), None) if m else None,
                           m is not None and m.status in Match.OVER) for m in cells]) for table, cells in rows],
    })


def _field_label(name, form):
    """Where a refused field is, said before its message: the round or the table (a sentence's start)."""
    if name in form.rounds:
        return f"{form.rounds[name]}{colon(get_language())}"
    if name.startswith("row_"):
        return _("Table %(table)s") % {"table": name[4:]} + colon(get_language())
    return ""


def _save(request, stage, form):
    """Apply a valid grid form: one table for every round, or the starts and the cells."""
    row = form.cleaned_data.get("whole_row")
    if row is not None:
        user = form.cleaned_data[f"row_{row}"]
        done, refused = timetable.same_table_every_round(stage, row, user)
        messages.success(request, _("%(name)s referees table %(table)s in %(count)s rounds.") % {
            "name": display_name(user), "table": row, "count": done})
        for text in refused:
            messages.error(request, text)
        return
    for rnd, when in form.starts().items():
        if when != rnd.scheduled_start:
            timetable.set_round_start(rnd, when)
    changed, refused = timetable.apply_grid(stage, form.picks())
    for text in refused:
        messages.error(request, text)
    messages.success(request, _("Saved: %(count)s tables changed.") % {"count": changed})
