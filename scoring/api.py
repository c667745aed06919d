"""REST API for a table: the match state, recording the next hand, correcting the last one, the history.

Thin views over :mod:`scoring.services`. Errors reach the one API handler (``infra.api_errors``) and
answer ``{"field", "detail"}``: 400 bad input, 403 not allowed, 404 not visible, 409 conflict (the hand
number is already taken, the match is over).
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import UserError, gettext_noop
from infra.api_errors import error_responses
from scoring import services
from scoring.engine.lines import chinese_lines
from scoring.hand_inputs import HandInputSerializer
from scoring.models import Hand
from scoring.presenters import state_payload
from tournament import access
from tournament.models import Match
from tournament.records.hands import hand_history


class SupersededBySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField()
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class HandSerializer(serializers.ModelSerializer):
    """A stored hand version with who recorded it, and who superseded it and when. A rebellion (outcome
    "rebel") has the number of the deal it precedes and is listed before that deal's versions."""

    recorded_by = serializers.CharField(source="recorded_by.get_username", read_only=True)
    declarer_seat = serializers.CharField(read_only=True)
    next_declarer = serializers.CharField(read_only=True)
    trump_label = serializers.CharField(source="get_trump_display", read_only=True)
    current = serializers.BooleanField(source="is_current", read_only=True)
    superseded_by = serializers.SerializerMethodField()
    explanation = serializers.SerializerMethodField()

    class Meta:
        model = Hand
        fields = ["id", "number", "version", "current", "declarer_seat", "trump", "trump_label",
                  "defender_points", "bottom_points", "last_trick", "reclaim", "penalty_points", "outcome",
                  "called_by", "bid_winner",
                  "level_played", "final_points", "declarer_keeps", "ns_level", "ew_level", "next_declarer",
                  "match_won", "explanation", "recorded_by", "recorded_at", "superseded_by"]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_explanation(self, hand):
        """The engine's Chinese lines (a version stored with the explanation's items gives them written out)."""
        return chinese_lines(hand.explanation)

    @extend_schema_field(SupersededBySerializer(allow_null=True))
    def get_superseded_by(self, hand):
        """Who replaced this version and when (null for the current version)."""
        if hand.is_current:
            return None
        newer = hand.superseded_by
        return SupersededBySerializer({"id": newer.pk, "version": newer.version,
                                       "recorded_by": newer.recorded_by.get_username(),
                                       "recorded_at": newer.recorded_at}).data


class HandStateSerializer(serializers.Serializer):
    """One hand as the replay sees it now (a ruling may have changed its outcome since it was stored)."""

    number = serializers.IntegerField(help_text="the hand's number; a rebellion (kind \"rebel\") has the "
                                                "number of the deal after it, listed before that deal")
    kind = serializers.CharField(help_text='"hand", "award" (decided by a ruling), "redeal" (nobody declared '
                                           'trump), "rebel" (造反: next_declarer won the new bidding) or "forfeit"')
    declarer_seat = serializers.CharField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    trump_label = serializers.CharField(allow_null=True)
    defender_points = serializers.IntegerField(allow_null=True, help_text="trick points as entered")
    final_points = serializers.IntegerField(allow_null=True, help_text="with penalties and the bottom")
    declarer_keeps = serializers.BooleanField()
    level_played = serializers.CharField()
    ns_level = serializers.CharField()
    ew_level = serializers.CharField()
    next_declarer = serializers.CharField(allow_null=True)
    match_won = serializers.BooleanField()
    explanation = serializers.ListField(child=serializers.CharField())
    items = serializers.ListField(child=serializers.DictField(), help_text="the explanation as data: each line a "
                                  '{"code", "values"} item, in the order of the lines')
    version = serializers.IntegerField(allow_null=True)
    recorded_by = serializers.CharField(allow_null=True)
    recorded_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, hand):
        """The presenter's values are plain already (``scoring.presenters``): only the explanation's lazy
        texts and the time are converted. The same answer as DRF's field by field rendering (a test compares),
        for an answer that lists every hand of the match on every hand recorded."""
        out = dict(hand)
        out["explanation"] = [str(line) for line in hand["explanation"]]
        at = hand["recorded_at"]
        out["recorded_at"] = None if at is None else self.fields["recorded_at"].to_representation(at)
        return out


class ActionsSerializer(serializers.Serializer):
    record = serializers.BooleanField(help_text="may record the next hand")
    correct = serializers.BooleanField(help_text="may correct the last hand")


class MatchStateSerializer(serializers.Serializer):
    """The match as the engine replays it from the current hands and rulings."""

    match = serializers.IntegerField()
    status = serializers.CharField()
    profile = serializers.CharField()
    ns = serializers.CharField(allow_null=True)
    ew = serializers.CharField(allow_null=True)
    levels = serializers.DictField(child=serializers.CharField())
    declarer = serializers.CharField(allow_null=True, help_text="seat declaring the next hand (null before the first)")
    winner = serializers.ChoiceField(choices=["NS", "EW"], allow_null=True,
                                     help_text='the winning side, "NS" or "EW" (null: none)')
    policy_pending = serializers.CharField(allow_null=True, help_text="the policy return: the level the declarers may return to")
    next_number = serializers.IntegerField(help_text="the number the next hand is recorded under (after a "
                                                     "rebellion: the same number, the deal it precedes)")
    hands = HandStateSerializer(many=True)
    actions = ActionsSerializer()


class RecordedSerializer(serializers.Serializer):
    hand = HandSerializer()
    state = MatchStateSerializer()


# The write's answer renders through one serializer instance per process: a serializer builds (deep-copies)
# its nested fields, the ModelSerializer's from the model, on every instantiation; rendering reads them only.
_RECORDED = RecordedSerializer()

ERRORS = error_responses(400, 403, 404, 409)


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------
class MatchMixin:
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_match(self, match_id):
        match = get_object_or_404(Match.objects.select_related("profile", "ns", "ew", "round__stage__event"),
                                  pk=match_id)
        if not access.may(self.request.user, access.VIEW, match=match):
            raise Http404
        return match

    def write(self, match_id, service, number=None):
        """Validate the body, call the record/correct service and answer 201 with the hand and the state.

        The answer is built from what the service computed (the locked match, the replay after the
        write): no second read or replay of the match. The service reads the match itself (locked) and
        asks whether the user may see it (404) and record there (403): the view reads nothing before.
        """
        data = self.request.data
        if number is not None:
            data = {**(data.dict() if hasattr(data, "dict") else data), "number": number}
        serializer = HandInputSerializer(data=data)
        if not serializer.is_valid():
            self.get_match(match_id)   # a match the user may not see is a 404 before the body's errors
            serializer.is_valid(raise_exception=True)
        written = service(Match(pk=match_id), self.request.user, **serializer.validated_data)
        state = state_payload(written.match, self.request.user, written.replay, allowed=True)
        return Response(_RECORDED.to_representation({"hand": written.hand, "state": state}),
                        status=status.HTTP_201_CREATED)


class MatchStateView(MatchMixin, APIView):
    """The state of a match: levels, declarer, winner, the hands with explanations, what you may do."""

    @extend_schema(responses={200: MatchStateSerializer, 404: ERRORS[404]}, summary="match state")
    def get(self, request, match_id):
        match = self.get_match(match_id)
        return Response(MatchStateSerializer(state_payload(match, request.user)).data)


class HandListView(MatchMixin, APIView):
    """The hand history (every version, superseded ones with who and when), and recording the next hand."""

    @extend_schema(responses={200: HandSerializer(many=True), 404: ERRORS[404]},
                   summary="hand history, corrections included")
    def get(self, request, match_id):
        match = self.get_match(match_id)
        return Response(HandSerializer(hand_history(match), many=True).data)

    @extend_schema(request=HandInputSerializer, responses={201: RecordedSerializer, **ERRORS},
                   summary="record the next hand")
    def post(self, request, match_id):
        return self.write(match_id, services.record_hand)


class HandCorrectView(MatchMixin, APIView):
    """Correct the last hand: a new version supersedes it and the match is replayed."""

    @extend_schema(request=HandInputSerializer, responses={201: RecordedSerializer, **ERRORS},
                   summary="correct the last hand")
    def post(self, request, match_id, number):
        if request.data.get("number") not in (None, number):
            raise UserError(gettext_noop("The hand number in the body differs from the one in the address."),
                            field="number")
        return self.write(match_id, services.correct_last_hand, number=number)
