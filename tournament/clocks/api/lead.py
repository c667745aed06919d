"""``/api/matches/<id>/lead/``: GET the hand in play and whether its first lead was made; POST the
referee's answer (000 第十五条: a hand not yet led is not "in play" when the announcement comes)."""
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api_errors import error_responses
from infra.inputs import StrictInput
from tournament import access
from tournament.clocks import leads
from tournament.models import Match


class LeadInSerializer(StrictInput):
    hand_number = serializers.IntegerField(min_value=1)
    made = serializers.BooleanField(help_text="the first lead of this hand was made (已开始出牌)")


class LeadOutSerializer(serializers.Serializer):
    hand_number = serializers.IntegerField()
    made = serializers.BooleanField()
    reported = serializers.BooleanField(help_text="false: nobody reported yet (taken as made)")
    asked = serializers.BooleanField(help_text="the announcement reached this table with this hand in play: the "
                                               "answer given now decides whether it counts (000 第十五条)")
    over = serializers.BooleanField(help_text="the match is over: no hand is in play, nothing to report")


class MatchLeadView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = LeadInSerializer

    def _match(self, match_id):
        match = get_object_or_404(Match.objects.select_related("profile", "round__stage__event"), pk=match_id)
        if not access.may(self.request.user, access.VIEW, match=match):
            raise Http404
        return match

    @extend_schema(responses={200: LeadOutSerializer, **error_responses(404)}, operation_id="match_lead_read")
    def get(self, request, match_id):
        return Response(LeadOutSerializer(leads.lead_status(self._match(match_id))).data)

    @extend_schema(request=LeadInSerializer, responses={201: LeadOutSerializer, **error_responses(400, 403, 404)},
                   operation_id="match_lead_report")
    def post(self, request, match_id):
        match = self._match(match_id)
        data = LeadInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        leads.report_lead(match, request.user, **data.validated_data)
        return Response(LeadOutSerializer(leads.lead_status(match)).data, status=status.HTTP_201_CREATED)
