"""A union team's reserve pair brought in after the draw (003 二.2), for organisers and chief referees:
the page ``/manage/<event>/entries/<pair>/substitute/`` and ``POST /api/pairs/<pair>/substitution/``.
Thin over :mod:`tournament.entries.substitutions`, which checks the right again."""
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import UserError
from infra.api_errors import error_responses
from infra.inputs import StrictInput
from tournament.entries import substitutions
from tournament.entries.forms import SubstitutionForm
from tournament.form_fields import Refusal
from tournament.models import Event, Pair


def pair_substitute(request, event_slug, pk):
    """GET: the pair, its team's reserves and the substitutions so far; POST: bring a reserve in."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    event = get_object_or_404(Event, slug=event_slug)
    if not substitutions.may_substitute(request.user, event):
        raise PermissionDenied(_("Only an organiser or a chief referee may bring in a reserve pair."))
    pair = get_object_or_404(Pair.objects.select_related("unit", "team", "player1", "player2"), event=event, pk=pk)
    form = SubstitutionForm(request.POST if request.method == "POST" else None, event=event)
    error = None
    if form.is_valid():
        pair_in = form.cleaned_data["pair_in"]
        try:
            substitutions.substitute_reserve(pair, pair_in, request.user, reason=form.cleaned_data["reason"])
            messages.success(request, _("%(reserve)s comes in for %(pair)s in every match not yet begun.")
                             % {"reserve": pair_in.name, "pair": pair.name})
            return redirect("entries_substitute", event.slug, pair_in.pk)
        except UserError as exc:
            error = exc
    error = error or Refusal.first_of(form)
    team_rows = [s for s in substitutions.substitutions_of(event) if pair.team_id and s.pair_in.team_id == pair.team_id]
    return render(request, "tournament/entries/substitute.html", {
        "event": event, "pair": pair, "reserves": substitutions.reserves_for(pair), "error": error,
        "history": team_rows, "reason_max": substitutions.REASON_MAX})


class SubstitutionInSerializer(StrictInput):
    pair_in = serializers.IntegerField(help_text="the team's reserve pair coming in")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=substitutions.REASON_MAX)


class SubstitutionOutSerializer(serializers.Serializer):
    pair_out = serializers.IntegerField()
    pair_in = serializers.IntegerField()
    reason = serializers.CharField(allow_blank=True)
    decided_by = serializers.CharField()
    decided_at = serializers.DateTimeField()


class PairSubstitutionView(APIView):
    """Bring the team's reserve pair in for this pair: it takes the pair's place in every match not yet begun."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = SubstitutionInSerializer

    @extend_schema(request=SubstitutionInSerializer, responses={201: SubstitutionOutSerializer,
                                                                **error_responses(400, 403, 404, 409)},
                   operation_id="pair_substitution")
    def post(self, request, pk):
        pair = get_object_or_404(Pair, pk=pk)
        data = SubstitutionInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        pair_in = Pair.objects.filter(event_id=pair.event_id, pk=data.validated_data["pair_in"]).first()
        row = substitutions.substitute_reserve(pair, pair_in, request.user, reason=data.validated_data.get("reason", ""))
        return Response(SubstitutionOutSerializer({
            "pair_out": row.pair_out_id, "pair_in": row.pair_in_id, "reason": row.reason,
            "decided_by": row.decided_by.get_username(), "decided_at": row.decided_at}).data,
            status=status.HTTP_201_CREATED)
