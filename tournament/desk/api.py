"""REST API of the event day's decisions: close or reopen a round, decide a result the hands cannot decide.

    POST api/rounds/<round_id>/close/      chief referee or organiser → {"round", "results_published_at"}
    POST api/rounds/<round_id>/reopen/     chief referee, with a reason
    POST api/matches/<match_id>/result/    chief referee: {"winner": "NS"|"EW", "reason", "kind"?}

Refusals reach the one API error handler (``{"field", "detail"}``): 403 not allowed, 409 when the round
has undecided tables (named) or the hands already decide the match.
"""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api_errors import error_responses
from infra.inputs import StrictInput
from tournament.competition import results, rounds
from tournament.models import Match, ResultDecision, Round


class RoundStateSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    results_published_at = serializers.DateTimeField(allow_null=True)


class ReopenSerializer(StrictInput):
    reason = serializers.CharField(max_length=300)


class ResultDecisionInSerializer(StrictInput):
    winner = serializers.ChoiceField(choices=["NS", "EW"])
    reason = serializers.CharField(max_length=300)
    kind = serializers.ChoiceField(choices=ResultDecision.Kind.choices, default=ResultDecision.Kind.DECIDED)


class ResultDecisionOutSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    status = serializers.CharField()
    winner = serializers.ChoiceField(choices=["NS", "EW"], allow_null=True,
                                     help_text='the winning side, "NS" or "EW" (null: none)')
    kind = serializers.CharField()
    reason = serializers.CharField()
    decided_by = serializers.CharField()
    decided_at = serializers.DateTimeField()


def _round(round_id):
    return get_object_or_404(Round.objects.select_related("stage__event"), pk=round_id)


def _state(rnd):
    return Response({"round": rnd.pk, "results_published_at": rnd.results_published_at})


class RoundCloseView(APIView):
    """Close the round: its results are published and the appeal deadline starts."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: RoundStateSerializer, **error_responses(403, 404, 409)})
    def post(self, request, round_id):
        return _state(rounds.close_round(_round(round_id), request.user))


class RoundReopenView(APIView):
    """Reopen a closed round (a chief referee, with the reason)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ReopenSerializer, responses={200: RoundStateSerializer, **error_responses(400, 403, 404, 409)})
    def post(self, request, round_id):
        data = ReopenSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return _state(rounds.reopen_round(_round(round_id), request.user, data.validated_data["reason"]))


class MatchResultView(APIView):
    """A chief referee decides a match the recorded hands cannot decide (a walkover or a decided winner)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=ResultDecisionInSerializer, responses={200: ResultDecisionOutSerializer, **error_responses(400, 403, 404, 409)})
    def post(self, request, match_id):
        match = get_object_or_404(Match.objects.select_related("round__stage__event"), pk=match_id)
        data = ResultDecisionInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = results.decide_match(match, request.user, **data.validated_data)
        match.refresh_from_db()
        return Response({
            "match": match.pk, "status": match.status,
            "winner": match.winner_side,
            "kind": row.kind, "reason": row.reason, "decided_by": row.decided_by.get_username(),
            "decided_at": row.decided_at,
        })
