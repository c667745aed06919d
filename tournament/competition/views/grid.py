"""The organiser's table-by-round grid of a stage: round start times and referees in bulk (the same
referee at a table for every round in one step). Thin: :mod:`tournament.competition.timetable` does it."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from common.names import display_name
from common.numbers import whole
from tournament.competition import timetable
from tournament.models import Match, Stage
from tournament.permissions import organiser_required
from tournament.staff.services import referees_of


def _int(value):
    return whole(value)


@organiser_required
def referee_grid(request, event):
    stages = list(Stage.objects.filter(event=event).order_by("order"))
    stage = next((s for s in stages if s.pk == _int(request.GET.get("stage") or request.POST.get("stage"))),
                 stages[0] if stages else None)
    if request.method == "POST" and stage is not None:
        _save(request, event, stage)
        return redirect(reverse("competition_referee_grid", args=[event.slug]) + f"?stage={stage.pk}")
    rounds, rows = timetable.grid(stage) if stage is not None else ([], [])
    people = [(u.pk, display_name(u)) for u in referees_of(event)]
    return render(request, "tournament/competition/referee_grid.html", {
        "event": event, "stages": stages, "stage": stage, "people": people,
        "rounds": [(r, timezone.localtime(r.scheduled_start).strftime("%Y-%m-%dT%H:%M") if r.scheduled_start else "")
                   for r in rounds],
        "rows": [(table, [(m, next((u.pk for u in m.referees.all()), None) if m else None,
                           m is not None and m.status in Match.OVER) for m in cells]) for table, cells in rows],
    })


def _save(request, event, stage):
    post = request.POST
    row = _int(post.get("whole_row"))
    users = {u.pk: u for u in referees_of(event)}
    if row is not None:
        user = users.get(_int(post.get(f"row_{row}")))
        if user is None:
            messages.error(request, _("Choose a referee for the table first."))
            return
        done, refused = timetable.same_table_every_round(stage, row, user)
        messages.success(request, _("%(name)s referees table %(table)s in %(count)s rounds.") % {
            "name": display_name(user), "table": row, "count": done})
        for text in refused:
            messages.error(request, text)
        return
    errors = []
    for rnd in stage.rounds.all():
        key = f"start_{rnd.pk}"
        if key in post:
            try:
                when = timetable.parse_start(post[key])
            except UserError as exc:
                errors.append(f"{rnd}: {exc}")
                continue
            if when != rnd.scheduled_start:
                timetable.set_round_start(rnd, when)
    picks = {}
    for key, value in post.items():
        if key.startswith("cell_") and whole(key[5:]) is not None:
            user_id = _int(value)
            picks[int(key[5:])] = user_id if user_id in users else None
    changed, refused = timetable.apply_grid(stage, picks)
    for text in errors + refused:
        messages.error(request, text)
    messages.success(request, _("Saved: %(count)s tables changed.") % {"count": changed})


