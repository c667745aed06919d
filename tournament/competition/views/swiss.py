"""Pages of a Swiss stage and of the unit standings: the organiser pairs each round (seed, forced
rematches) and sets the unit scoring; the public sees each round's tables and the standings after it
(paginated: a round of thousands of tables loads one page at a time), and the unit standings with
their .xlsx. Views are thin: they call :mod:`.swiss_rounds`, :mod:`.swiss_standings` and
:mod:`.unit_standings`, and show a refusal (``str(error)``) next to the field it names."""
from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from common.errors import UserError
from common.numbers import whole
from tournament import pagecache
from tournament.access import visible_events
from tournament.competition import swiss_rounds, swiss_standings, unit_standings
from tournament.competition.forms import SwissForm, UnitScoringForm, first_errors
from tournament.form_fields import apply_user_error
from tournament.models import Event, Match, Pair, Round, Stage
from tournament.permissions import organiser_required

PAGE_SIZE = 100  # tables or standings lines per page


def _public_event(request, slug) -> Event:
    event = get_object_or_404(visible_events(request.user).select_related("profile"), slug=slug)
    pagecache.seen(request, event)
    return event


def _page(request, items, name="page"):
    return Paginator(items, PAGE_SIZE).get_page(request.GET.get(name))


def round_tables(stage: Stage, number: int, request, page_name="page"):
    """One page of a round's tables (the bye last), with the entries' names and units in one query."""
    matches = (Match.objects.filter(round__stage=stage, round__number=number)
               .select_related("ns__unit", "ew__unit", "winner")
               .order_by("table", "pk"))
    return _page(request, matches, page_name)


def _swiss_context(request, stage: Stage) -> dict:
    numbers = list(Round.objects.filter(stage=stage).order_by("number").values_list("number", flat=True))
    asked = request.GET.get("round") or ""
    chosen = whole(asked)
    current = chosen if chosen in numbers else (numbers[-1] if numbers else None)
    standings = swiss_standings.stage_standings(stage, after_round=current or 0)
    draws = swiss_rounds.round_draws(stage)
    draw = draws.get(current)
    names = dict(Pair.objects.filter(event_id=stage.event_id).values_list("pk", "name")) if draw else {}
    rematches = [(names.get(a, a), names.get(b, b)) for a, b in (draw.result.get("rematches") or [])] if draw else []
    return {
        "stage": stage, "numbers": numbers, "current": current, "standings": standings,
        "rows": _page(request, standings.rows, "spage"), "draw": draw, "rematches": rematches,
        "tables": round_tables(stage, current, request) if current else None,
        "published_at": Round.objects.filter(stage=stage, number=current).values_list("results_published_at",
                                                                                    flat=True).first(),
        "stage_query": f"stage={stage.pk}&", "round_query": f"stage={stage.pk}&round={current or ''}&",
    }


# --------------------------------------------------------------------------- public
@pagecache.public_page
def public_swiss(request, slug):
    event = _public_event(request, slug)
    stages = list(event.stages.filter(kind=Stage.Kind.SWISS).order_by("order"))
    stage = next((s for s in stages if str(s.pk) == request.GET.get("stage")), stages[0] if stages else None)
    context = {"event": event, "tab": "swiss", "stages": stages}
    if stage is not None:
        stage.event = event
        context.update(_swiss_context(request, stage))
    return render(request, "tournament/competition/swiss.html", context)


@pagecache.public_page
def public_units(request, slug):
    event = _public_event(request, slug)
    return render(request, "tournament/competition/units.html",
                  {"event": event, "tab": "units", "result": unit_standings.event_unit_standings(event)})


def units_xlsx(request, slug):
    event = _public_event(request, slug)
    with translation.override("zh-hans"):
        data = unit_standings.workbook(unit_standings.event_unit_standings(event), event.name)
    response = HttpResponse(data, content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-units.xlsx"'
    return response


# --------------------------------------------------------------------------- organiser
@organiser_required
def manage_swiss(request, event, stage_id):
    stage = get_object_or_404(event.stages.filter(kind=Stage.Kind.SWISS), pk=stage_id)
    stage.event = event
    errors = {}
    if request.method == "POST":
        form = SwissForm(request.POST)
        if not form.is_valid():
            errors = first_errors(form, above="round")
        else:
            try:
                return _swiss_done(request, event, stage, form.cleaned_data)
            except UserError as exc:  # shown where the page has a place for its field (entries, seed, rounds)
                errors = {exc.field or "round": str(exc)}
        stage.refresh_from_db()
        stage.event = event
    context = {"event": event, "errors": errors, "suggested": swiss_rounds.suggestion(event),
               "planned": swiss_standings.planned_rounds(stage), **_swiss_context(request, stage)}
    return render(request, "tournament/competition/manage_swiss.html", context, status=400 if errors else 200)


def _swiss_done(request, event, stage, d):
    """Change the number of rounds or pair the next round (the services refuse with a UserError), and say so."""
    if d["action"] == "rounds":
        swiss_rounds.set_rounds(stage, d["rounds"])
        messages.success(request, _("Number of rounds saved."))
    else:
        draw = swiss_rounds.pair_next_round(stage, seed=d["seed"], user=request.user)
        messages.success(request, _("Round %(round)s paired with seed %(seed)s.")
                         % {"round": draw.params["round"], "seed": draw.seed})
        if draw.result["rematches"]:
            messages.warning(request, _("No pairing avoids a rematch: %(count)s rematch(es) in this round.")
                             % {"count": len(draw.result["rematches"])})
    return redirect("competition_manage_swiss", slug=event.slug, stage_id=stage.pk)


@organiser_required
def manage_units(request, event):
    """The unit scoring: the form shows the rules in force, or what was typed next to its refusal."""
    rules = unit_standings.unit_rules(event)
    form = UnitScoringForm(request.POST if request.method == "POST" else None, initial={
        "points": "-".join(str(p) for p in rules["points"]), "best_n": rules["best_n"],
        "women_bonus": rules["women_bonus"], "seed": (event.unit_scoring or {}).get("lot_seed", "")})
    if form.is_valid():
        try:
            unit_standings.set_unit_rules(event, **form.cleaned_data)
            messages.success(request, _("Unit scoring saved."))
            return redirect("competition_manage_units", slug=event.slug)
        except UserError as exc:
            apply_user_error(form, exc)
    errors = first_errors(form, above="points")
    return render(request, "tournament/competition/manage_units.html", {
        "event": event, "errors": errors, "rules": rules, "form": form,
        "profile_rules": unit_standings.profile_rules(event), "default_seed": unit_standings.default_lot_seed(event),
        "seed_max": unit_standings.SEED_MAX_LENGTH,
        "result": unit_standings.event_unit_standings(event)}, status=400 if errors else 200)
