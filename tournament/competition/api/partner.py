"""REST reads a partner's program needs besides finding its way (:mod:`tournament.competition.api.reads`): its
scoreboards and its ranking read a Swiss stage's standings and the unit standings, and a console of its own
the offence codes of the event's profile. Visible as the pages are (``tournament.access.visible_events``)."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api_errors import error_responses
from tournament.access import visible_events
from tournament.competition import swiss_standings, unit_standings
from tournament.competition.api.reads import visible_event, whole_number
from tournament.models import Stage


class SwissRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pair_id", help_text="the pair's id")
    name = serializers.CharField(source="entry.name")
    unit = serializers.CharField(source="entry.unit")
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    points = serializers.FloatField()
    buchholz = serializers.FloatField()
    net_levels = serializers.IntegerField()
    tie_note = serializers.CharField(help_text="how a tie was broken (empty: none)")
    shared = serializers.BooleanField(help_text="the place is shared")


class SwissStandingsSerializer(serializers.Serializer):
    stage = serializers.IntegerField(source="stage_id")
    name = serializers.CharField()
    after_round = serializers.IntegerField(help_text="the standings count rounds 1 to this one")
    rounds_paired = serializers.IntegerField()
    rounds_planned = serializers.IntegerField()
    complete = serializers.BooleanField(help_text="every planned round paired and decided: the final ranking")
    rows = SwissRowSerializer(many=True)
    order_labels = serializers.ListField(child=serializers.CharField(), help_text="the tie-breaks, in order")
    notes = serializers.ListField(child=serializers.CharField())


class SwissStandingsRead(APIView):
    """A Swiss stage's standings (points, Buchholz, net levels), after its last round paired or ``after_round``."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=[OpenApiParameter("after_round", OpenApiTypes.INT,
                                                description="the standings after this round (default: the last)")],
                   responses={200: SwissStandingsSerializer, **error_responses(400, 404)},
                   summary="a Swiss stage's standings")
    def get(self, request, stage_id):
        stage = get_object_or_404(Stage.objects.select_related("event__profile"), pk=stage_id,
                                  event__in=visible_events(request.user))
        result = swiss_standings.stage_standings(stage, whole_number(request.query_params, "after_round"))
        return Response(SwissStandingsSerializer(result).data)


class CountedPairSerializer(serializers.Serializer):
    name = serializers.CharField()
    place = serializers.IntegerField()
    points = serializers.FloatField()


class UnitLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    unit = serializers.CharField()
    score = serializers.FloatField()
    pairs = CountedPairSerializer(many=True, help_text="the pairs counted, with their place and points")
    bonus = serializers.IntegerField()
    firsts = serializers.IntegerField()
    seconds = serializers.IntegerField()
    tie = serializers.CharField(help_text="how a tie was broken (empty: none)")


class UnitStandingsSerializer(serializers.Serializer):
    complete = serializers.BooleanField()
    lines = UnitLineSerializer(many=True)
    rules_text = serializers.ListField(child=serializers.CharField(), help_text="the rules counted, in words")


class UnitStandingsRead(APIView):
    """The event's unit standings (团体总分), from its final ranking so far and the organiser's unit rules."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: UnitStandingsSerializer, **error_responses(404)}, summary="the unit standings")
    def get(self, request, slug):
        return Response(UnitStandingsSerializer(unit_standings.event_unit_standings(visible_event(request, slug))).data)
