"""The organiser's competition pages: the event's stages (made from the format or added, edited, deleted),
a stage's draws, the schedule with its table referees, and the referees' units. Each reads its post through
a Form of :mod:`tournament.competition.forms` and hands the cleaned data to a service
(:mod:`~tournament.competition.stages`, :mod:`~tournament.competition.draws`,
:mod:`~tournament.competition.referees`), whose refusal is shown next to its field."""
from __future__ import annotations

from django.contrib import messages
from django.db import IntegrityError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from common.errors import UserError
from common.naturalsort import natural_key
from common.numbers import whole
from tournament.competition import draws, group_standings, referees, stages, swiss_rounds
from tournament.competition.forms import (
    DeleteStageForm,
    DrawForm,
    FromFormatForm,
    RecordersForm,
    RefereeAssignForm,
    RefereeUnitForm,
    StageActionForm,
    StageEditForm,
    StageForm,
    VoidDrawForm,
    first_errors,
    typed,
)
from tournament.competition.referees import referees_of
from tournament.competition.views import bracket_columns, pair_names
from tournament.form_fields import apply_user_error
from tournament.models import Draw, Match, Round, Stage
from tournament.models.competition import RefereeUnit
from tournament.permissions import organiser_required
from tournament.selfscore import modes as recorders


# --------------------------------------------------------------------------- organiser pages
@organiser_required
def manage_stages(request, event):
    """The event's stages: made from its format (the places its knock-out plays off asked first), or added
    one by one; a refused setting is shown next to its field."""
    errors, posted = {}, {}
    if request.method == "POST":
        action = StageActionForm(request.POST)
        from_format = action.is_valid() and action.cleaned_data["action"] == "from_format"
        form = FromFormatForm(request.POST) if from_format else StageForm(request.POST, event=event)
        if form.is_valid():
            try:
                _create_stages(event, form)
            except UserError as exc:
                apply_user_error(form, exc)
            else:
                messages.success(request, _("Stages saved."))
                return redirect("competition_manage_stages", slug=event.slug)
        errors = first_errors(form)
        posted = {"form": "from_format" if from_format else "create", **typed(form)}
    return render(request, "tournament/competition/manage_stages.html", {
        "event": event, "tab": "stages", "stages": event.stages.select_related("source").order_by("order"),
        "kinds": Stage.Kind.choices, "default_places": stages.default_places_played(event.profile),
        "suggested_rounds": swiss_rounds.suggestion(event),
        "asks_places": stages.format_has_knockout(event), "places_choices": _places_choices(),
        "default_places_label": _places_label(stages.default_places_played(event.profile)),
        "errors": errors, "posted": posted,
    }, status=400 if errors else 200)


def _create_stages(event, form):
    """The stages the form asks for, through the stage services (their rules, the API's too)."""
    d = form.cleaned_data
    if isinstance(form, FromFormatForm):
        # the form asks (its radio buttons start on the profile's default); none sent: that default
        stages.create_stages_from_format(event, places_played=d["places_played"])
    elif d["kind"] == Stage.Kind.SWISS:
        swiss_rounds.create_swiss_stage(event, name=d["name"], rounds=d["rounds"])
    else:
        stages.create_stage(event, d["kind"], name=d["name"], source=d["source"], settings=form.settings())


def _places_choices():
    """(value, label) of the places a knock-out may play off, in the active language."""
    return [(value, _(label)) for value, label in stages.PLACES_CHOICES]


def _places_label(value) -> str:
    return next((label for v, label in _places_choices() if v == value), str(value))


EDITED_SETTINGS = ("n_groups", "qualifiers_per_group", "places_played", "rounds", "first_table")


def _stage_page(event, stage):
    return ("competition_manage_swiss" if stage.kind == Stage.Kind.SWISS else "competition_manage_stage",
            event.slug, stage.pk)


@organiser_required
def manage_stage_edit(request, event, stage_id):
    """Edit or delete a stage while it is not drawn; once drawn, void its draw first (with a reason)."""
    stage = get_object_or_404(event.stages.select_related("source", "event"), pk=stage_id)
    errors, posted = {}, {}
    if request.method == "POST":
        action = StageActionForm(request.POST)
        action = action.cleaned_data["action"] if action.is_valid() else ""
        form = {"delete": DeleteStageForm, "void": VoidDrawForm, "recorders": RecordersForm}.get(action)
        form = form(request.POST) if form else StageEditForm(request.POST, stage=stage)
        if form.is_valid():
            try:
                return _stage_edit_done(request, event, stage, action=action, form=form)
            except UserError as exc:
                apply_user_error(form, exc)
        errors, posted = first_errors(form), typed(form)
        stage = get_object_or_404(event.stages.select_related("source"), pk=stage_id)
    drawn = stages.is_drawn(stage)
    started = drawn and (stages.stage_started(stage) or stages.play_records(stage))
    earlier = [s for s in event.stages.order_by("order")
               if s.order < stage.order and s.kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS)]
    values = {k: posted.get(k, (stage.settings or {}).get(k, "")) for k in EDITED_SETTINGS}
    return render(request, "tournament/competition/manage_stage_edit.html", {
        "event": event, "tab": "stages", "stage": stage, "errors": errors, "drawn": drawn, "started": started,
        "name": posted.get("name", stage.label), "values": values,
        "source_id": whole(posted.get("source")) if "source" in posted else stage.source_id,
        "sources": [] if stage.kind == Stage.Kind.SWISS else earlier,
        "places_choices": _places_choices(),
        "default_places_label": _places_label(stages.default_places_played(event.profile)),
        "chosen_places": whole(values["places_played"]) if values["places_played"] != "" else None,
        "in_force": stages.draws_in_force(stage) if drawn else [], "reason": posted.get("reason", ""),
        "back": _stage_page(event, stage),
    }, status=400 if errors else 200)


def _stage_edit_done(request, event, stage, *, action, form):
    """Delete the stage, void its draw or save it (the services refuse with a UserError), and say so."""
    if action == "delete":
        stages.delete_stage(stage, user=request.user)
        messages.success(request, _("Stage %(stage)s deleted.") % {"stage": stage.name})
        return redirect("competition_manage_stages", slug=event.slug)
    if action == "void":
        draws.void_draws(stage, reason=form.cleaned_data["reason"], user=request.user)
        messages.success(request, _("The draw of %(stage)s is void: the stage may now be changed, "
                                    "deleted or drawn again.") % {"stage": stage.name})
        return redirect("competition_manage_stage_edit", slug=event.slug, stage_id=stage.pk)
    if action == "recorders":
        recorders.set_stage_recorders(stage, form.cleaned_data["recorders"], request.user)
        messages.success(request, _("Saved: who records the hands of %(stage)s from the next hand on.")
                         % {"stage": stage.name})
        return redirect("competition_manage_stage_edit", slug=event.slug, stage_id=stage.pk)
    stages.update_stage(stage, name=form.cleaned_data["name"], source=form.source_stage(), settings=form.settings())
    messages.success(request, _("Stage saved."))
    return redirect(*_stage_page(event, stage))


@organiser_required
def manage_stage(request, event, stage_id):
    stage = get_object_or_404(event.stages.select_related("source"), pk=stage_id)
    if stage.kind == Stage.Kind.SWISS:
        return redirect("competition_manage_swiss", slug=event.slug, stage_id=stage.pk)
    errors, posted = {}, {}
    if request.method == "POST":
        form = DrawForm(request.POST)
        if form.is_valid():
            try:
                draw = draws.do_draw(stage, form.cleaned_data["kind"], user=request.user, **form.options())
            except UserError as exc:
                apply_user_error(form, exc)
            else:
                messages.success(request, _("Draw recorded with seed %(seed)s.") % {"seed": draw.seed})
                return redirect("competition_manage_stage", slug=event.slug, stage_id=stage.pk)
        errors = first_errors(form)
        if form["kind"].value() != Draw.Kind.GROUPS or set(errors) <= {"stage", "kind"}:
            # only the group draw has fields to show a refusal next to: the others' go above the page
            for message in errors.values():
                messages.error(request, message)
            return redirect("competition_manage_stage", slug=event.slug, stage_id=stage.pk)
        posted = typed(form)
    names = pair_names(event)
    standings = group_standings.stage_standings(stage) if stage.kind == Stage.Kind.ROUND_ROBIN else None
    return render(request, "tournament/competition/manage_stage.html", {
        "event": event, "tab": "stages", "stage": stage, "history": draws.draw_history(stage),
        "redraw_allowed": draws.redraw_allowed(stage),
        "active": {k: draws.active_draw(stage, k) for k in Draw.Kind.values},
        "standings": standings, "bracket": bracket_columns(stage, names) if standings is None else None,
        "places_played": stages.places_played(stage) if stage.kind == Stage.Kind.ELIMINATION else None,
        "errors": errors, "posted": posted,
    }, status=400 if errors else 200)


def schedule_rounds(event, stage=None):
    """Rounds of the event (or one stage) with their matches, in play order."""
    rounds = Round.objects.filter(stage__event=event).select_related("stage").order_by("stage__order", "number")
    if stage is not None:
        rounds = rounds.filter(stage=stage)
    matches = (Match.objects.filter(round__in=rounds).select_related("ns__unit", "ew__unit", "winner", "group__stage")
               .prefetch_related("referees").order_by("round_id", "table", "pk"))
    by_round: dict = {}
    for m in matches:
        by_round.setdefault(m.round_id, []).append(m)
    return [(r, by_round.get(r.pk, [])) for r in rounds]


def _referees(event):
    units = dict(RefereeUnit.objects.filter(event=event).values_list("user_id", "unit__name"))
    people = referees_of(event)
    return [(u, units.get(u.pk, "")) for u in people]


def _say_refusal(request, form):
    """The form's refusals as messages above the page (its inputs are hidden or chosen from lists)."""
    for errors in form.errors.values():
        for message in errors:
            messages.error(request, message)


@organiser_required
def manage_schedule(request, event):
    if request.method == "POST":
        form = RefereeAssignForm(request.POST, event=event)
        if form.is_valid():
            change = referees.remove_referee if form.cleaned_data["action"] == "remove" else referees.assign_referee
            try:
                change(form.cleaned_data["match"], form.cleaned_data["referee"])
            except UserError as exc:
                apply_user_error(form, exc)
        if form.errors:
            _say_refusal(request, form)
        else:
            messages.success(request, _("Referees saved."))
        return redirect("competition_manage_schedule", slug=event.slug)
    return render(request, "tournament/competition/manage_schedule.html",
                  {"event": event, "tab": "manage_schedule", "rounds": schedule_rounds(event),
                   "referees": _referees(event)})


@organiser_required
def manage_referees(request, event):
    if request.method == "POST":
        form = RefereeUnitForm(request.POST, event=event)
        try:
            if form.is_valid():
                referees.set_referee_unit(event, form.cleaned_data["referee"], form.cleaned_data["unit"])
        except UserError as exc:
            apply_user_error(form, exc)
        except IntegrityError:
            form.add_error(None, _("Somebody changed the schedule at the same time: reload and retry."))
        if form.errors:
            _say_refusal(request, form)
        else:
            messages.success(request, _("Referees saved."))
        return redirect("competition_manage_referees", slug=event.slug)
    return render(request, "tournament/competition/manage_referees.html",
                  {"event": event, "tab": "referees", "referees": _referees(event),
                   "units": sorted(event.units.all(), key=lambda u: natural_key(u.name))})
