"""Organiser pages for entries: list, add/edit/withdraw/replace, individual sign-ups and their
partner draw, import with a row-by-row error report, and .xlsx exports. Thin: services decide.

Its modules `cleanup`, `register`, `removal` and `substitution` hold the other pages (so `**.views` in
.importlinter covers them all); no name this module imports may be a submodule's name (importing the submodule
would overwrite it)."""

from types import SimpleNamespace

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.naturalsort import natural_key
from tournament import access
from tournament.entries import individuals as signups
from tournament.entries import pairs as entry_pairs
from tournament.entries import registration, spreadsheets
from tournament.entries import services as svc
from tournament.entries.cleanup import deletable_ids
from tournament.entries.forms import (
    ActionForm,
    DrawPairsForm,
    ImportForm,
    IndividualForm,
    PairForm,
    ReplacePlayerForm,
    WithdrawSignupForm,
    apply_entry_error,
)
from tournament.models import Pair
from tournament.permissions import organiser_required

CONFLICT = gettext_lazy("Another organiser has just changed the entries: reload and retry.")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
EXPORTS = {
    "entries": (spreadsheets.export_entries, "entries"),
    "schedule": (spreadsheets.export_schedule, "schedule"),
    "results": (spreadsheets.export_results, "results"),
}


def _run(form, action):
    """Call a service; on EntryError (or a lost race) put the message on the form and return None."""
    try:
        return action()
    except svc.EntryError as exc:
        apply_entry_error(form, exc)
    except IntegrityError:
        form.add_error(None, CONFLICT)
    return None


def _page(request, event, template, **context):
    return render(request, f"tournament/entries/{template}", {
        "event": event, "locked": svc.entries_locked_reason(event), **context})


@organiser_required
def entries_list(request, event):
    """Units, pairs, players, teams and their status; team-rule problems shown on top. Each unit says where
    its registration through its link stands: a unit with a link and no entries yet is listed too."""
    pairs = sorted(event.pairs.select_related("unit", "team", "player1", "player2"),
                   key=lambda p: (natural_key(p.unit.name), p.status, natural_key(p.name)))
    by_unit = {}
    for pair in pairs:
        by_unit.setdefault(pair.unit.name, []).append(pair)
    statuses = registration.unit_statuses(event)
    units = [SimpleNamespace(name=name, pairs=by_unit.get(name, []), registration=statuses.get(name))
             for name in sorted(set(by_unit) | set(statuses), key=natural_key)]
    return _page(request, event, "list.html", units=units, problems=svc.team_problems(event),
                 rule=svc.team_rule(event), active=sum(p.status == Pair.Status.ACTIVE for p in pairs),
                 waiting=event.registrations.filter(status="active", pair__isnull=True).count(),
                 may_remove=access.may(request.user, access.APPROVE, event=event), deletable=deletable_ids(event),
                 reserve_teams={p.team_id for p in pairs if p.reserve and p.status == Pair.Status.ACTIVE})


@organiser_required
def pair_add(request, event):
    form = PairForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        pair = _run(form, lambda: entry_pairs.add_pair(event, form.to_data()))
        if pair:
            messages.success(request, _("Entry “%(name)s” added.") % {"name": pair.name})
            return redirect("entries_list", event.slug)
    return _page(request, event, "pair_form.html", form=form, title=_("Add a pair"))


def _pair(event, pk):
    return get_object_or_404(Pair.objects.select_related("unit", "team", "player1", "player2"), event=event, pk=pk)


@organiser_required
def pair_edit(request, event, pk):
    pair = _pair(event, pk)
    form = PairForm(request.POST or None, initial=PairForm.initial_from(entry_pairs.pair_data(pair)))
    if request.method == "POST" and form.is_valid():
        if _run(form, lambda: entry_pairs.edit_pair(pair, form.to_data())):
            messages.success(request, _("Entry “%(name)s” saved.") % {"name": form.cleaned_data["name"] or pair})
            return redirect("entries_list", event.slug)
    return _page(request, event, "pair_form.html", form=form, pair=pair, title=_("Edit a pair"))


@organiser_required
def pair_withdraw(request, event, pk):
    pair = _pair(event, pk)
    error = None
    if request.method == "POST":
        try:
            entry_pairs.withdraw_pair(pair)
            messages.success(request, _("Entry “%(name)s” withdrawn.") % {"name": pair.name})
            return redirect("entries_list", event.slug)
        except svc.EntryError as exc:
            error = str(exc)
    return _page(request, event, "withdraw.html", pair=pair, error=error)


@organiser_required
def pair_replace(request, event, pk):
    pair = _pair(event, pk)
    form = ReplacePlayerForm(request.POST or None, pair=pair)
    if request.method == "POST" and form.is_valid():
        if _run(form, lambda: entry_pairs.replace_player(pair, form.cleaned_data["slot"], form.to_player())):
            messages.success(request, _("Player replaced in “%(name)s”.") % {"name": pair.name})
            return redirect("entries_list", event.slug)
    return _page(request, event, "replace.html", form=form, pair=pair)


@organiser_required
def individuals(request, event):
    """Individual sign-ups: add, withdraw, and the partner draw by lot with its seed. A refused withdrawal is
    said in the sign-up's row (above the list for a sign-up that is not the event's)."""
    form, draw_form, withdraw_form = IndividualForm(), DrawPairsForm(), None
    action = ActionForm.sent(request, ("add", "withdraw", "draw"))
    if action == "add":
        form = IndividualForm(request.POST)
        if form.is_valid() and _add_individual(form, event):
            messages.success(request, _("Sign-up added."))
            return redirect("entries_individuals", event.slug)
    elif action == "withdraw":
        withdraw_form = WithdrawSignupForm(request.POST, event=event)
        if withdraw_form.is_valid() and _run(withdraw_form, lambda: signups.withdraw_individual(
                withdraw_form.cleaned_data["registration"])):
            messages.success(request, _("Sign-up withdrawn."))
            return redirect("entries_individuals", event.slug)
    elif action == "draw":
        draw_form = DrawPairsForm(request.POST)
        if draw_form.is_valid() and _run(draw_form, lambda: signups.draw_individual_pairs(
                event, draw_form.cleaned_data["seed"], request.user)):
            messages.success(request, _("Partners drawn."))
            return redirect("entries_individuals", event.slug)
    regs = sorted(event.registrations.select_related("player__unit", "team", "pair").order_by("id"),
                  key=lambda r: natural_key(r.player.unit.name))      # sign-up order within a unit
    history = event.draws.filter(kind="pairs").select_related("created_by").order_by("-created_at")
    return _page(request, event, "individuals.html", form=form, draw_form=draw_form, registrations=regs,
                 draw=signups.live_pairs_draw(event), history=history, by_lot=svc.partners_by_lot(event),
                 withdraw_form=withdraw_form,
                 withdrawn=withdraw_form.cleaned_data.get("registration") if withdraw_form else None)


def _add_individual(form, event):
    d = form.cleaned_data
    return _run(form, lambda: signups.add_individual(
        event, d["unit"], svc.PlayerData(d["player1"], d["gender1"], d["phone1"]),
        team=d["team"], reserve=d["reserve"], pool=d["pool"]))


@organiser_required
def import_entries(request, event):
    """Upload .xlsx/.csv; on any bad row show every error in a table and save nothing."""
    form = ImportForm(request.POST or None, request.FILES or None)
    errors = None
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            created = spreadsheets.import_entries(event, upload.read(), upload.name)
            messages.success(request, _("%(count)d entries imported.") % {"count": len(created)})
            return redirect("entries_list", event.slug)
        except spreadsheets.ImportFailed as exc:
            errors = exc.errors
        except IntegrityError:
            form.add_error(None, CONFLICT)
    return _page(request, event, "import.html", form=form, errors=errors, columns=spreadsheets.ENTRY_HEADER,
                 guide=spreadsheets.column_guide())


@organiser_required
def export(request, event, what):
    """Download entries, schedule, results or the empty import template as .xlsx."""
    if what == "template":
        content, name = spreadsheets.import_template(), "import-template"
    elif what in EXPORTS:
        build, name = EXPORTS[what]
        content, name = build(event), f"{event.slug}-{name}"
    else:
        raise Http404
    response = HttpResponse(content, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
    return response
