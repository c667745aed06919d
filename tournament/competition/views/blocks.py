"""The referee grid's blocks of tables: one referee (or several sharing the range) for tables first..last of a
round or of every round of a stage, in one step, and who covers which tables now. Thin:
:mod:`tournament.competition.blocks` checks and saves; its refusal is shown next to its field."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from common.errors import UserError
from common.names import display_name
from common.punctuation import list_separator
from tournament.competition import blocks
from tournament.competition.floor_forms import RefereeBlockForm
from tournament.competition.forms import GridStageForm, first_errors
from tournament.competition.referees import referees_of
from tournament.form_fields import apply_user_error
from tournament.models import Stage
from tournament.permissions import organiser_required


@organiser_required
def referee_blocks(request, event):
    stages = list(Stage.objects.filter(event=event).order_by("order"))
    chosen = GridStageForm(request.POST if request.method == "POST" else request.GET, event=event)
    stage = chosen.cleaned_data["stage"] if chosen.is_valid() else (stages[0] if stages else None)
    if stage is None:
        return render(request, "tournament/competition/referee_blocks.html", {"event": event, "stages": stages})
    form = RefereeBlockForm(request.POST if request.method == "POST" else None, stage=stage,
                            referees=referees_of(event), initial={"stage": stage.pk})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        referees = list(data["referees"])
        try:
            outcome = blocks.assign_blocks(stage, rounds=form.rounds(),
                                           blocks=blocks.split(data["first"], data["last"], referees))
        except UserError as error:
            apply_user_error(form, error)
        else:
            _say(request, outcome)
            return redirect(reverse("competition_referee_blocks", args=[event.slug]) + f"?stage={stage.pk}")
    errors = first_errors(form) if form.is_bound else {}
    return render(request, "tournament/competition/referee_blocks.html", {
        "event": event, "stages": stages, "stage": stage, "form": form, "errors": errors,
        "coverage": blocks.coverage(stage.rounds.order_by("number")),
    }, status=400 if errors else 200)


def _say(request, outcome: blocks.BlockOutcome) -> None:
    """The step's outcome as the page's messages: the tables assigned, then the own-unit tables, per referee
    (handed to another referee of the step, or left for the organiser), the finished tables left alone."""
    messages.success(request, _("Saved: %(count)s tables given their referee, %(same)s already theirs.") % {
        "count": outcome.assigned, "same": outcome.unchanged})
    groups: dict = {}
    for handed in outcome.handed:
        groups.setdefault((handed.referee, handed.to), {}).setdefault(handed.round_label, []).append(handed.table)
    for (referee, to), tables in list(groups.items())[:blocks.LISTED_AT_MOST]:
        words = {"tables": _where(tables), "name": display_name(referee), "other": display_name(to)}
        if to is None:
            messages.warning(request, _("%(tables)s: the unit of %(name)s plays there, so they were not given to "
                                        "them; assign another referee.") % words)
        else:
            messages.info(request, _("%(tables)s: the unit of %(name)s plays there; %(other)s referees them "
                                     "instead.") % words)
    if len(groups) > blocks.LISTED_AT_MOST:
        rest = sum(len(t) for tables in list(groups.values())[blocks.LISTED_AT_MOST:] for t in tables.values())
        messages.warning(request, _("… and %(count)s more tables of the referees' own units.") % {"count": rest})
    if outcome.finished:
        messages.info(request, _("%(count)s finished tables were left as they are.") % {"count": outcome.finished})


def _where(tables: dict) -> str:
    """{round label: [table, ...]} in words: "第1轮第1–3、7桌；第2轮第5桌"."""
    sep = list_separator(get_language())
    between = "；" if sep == "、" else "; "
    return between.join(_("%(round)s, tables %(tables)s") % {"round": label, "tables": sep.join(blocks.runs(t))}
                        for label, t in tables.items())
