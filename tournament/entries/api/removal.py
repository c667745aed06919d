"""``POST /api/pairs/<id>/removal/``: the chief referee suspends or disqualifies a pair."""
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api_errors import error_responses
from infra.inputs import StrictInput
from tournament.entries import removals
from tournament.models import Pair


class RemovalInSerializer(StrictInput):
    kind = serializers.ChoiceField(choices=list(Pair.REMOVED), help_text='"suspended" (停赛) or "disqualified"')
    reason = serializers.CharField(required=False, allow_blank=True, max_length=removals.REASON_MAX)


class RemovalOutSerializer(serializers.Serializer):
    pair = serializers.IntegerField()
    status = serializers.CharField()
    status_label = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    decided_by = serializers.CharField()
    decided_at = serializers.DateTimeField()


class PairRemovalView(APIView):
    """Remove a pair from the event's remaining play (its matches still to play become walkovers)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = RemovalInSerializer

    @extend_schema(request=RemovalInSerializer, responses={201: RemovalOutSerializer,
                                                           **error_responses(400, 403, 404, 409)},
                   operation_id="pair_removal")
    def post(self, request, pk):
        pair = get_object_or_404(Pair, pk=pk)
        data = RemovalInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = removals.remove_pair(pair, request.user, kind=data.validated_data["kind"],
                                   reason=data.validated_data.get("reason", ""))
        return Response(RemovalOutSerializer({
            "pair": row.pair_id, "status": row.kind, "status_label": row.get_kind_display(), "reason": row.reason,
            "decided_by": row.decided_by.get_username(), "decided_at": row.decided_at}).data,
            status=status.HTTP_201_CREATED)
