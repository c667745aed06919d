"""REST API for a table: the match state, recording the next hand, correcting the last one, the history.

Thin views over :mod:`scoring.services`. Errors reach the one API handler (``infra.api_errors``) and
answer ``{"field", "detail"}``: 400 bad input, 403 not allowed, 404 not visible, 409 conflict (the hand
number is already taken, the match is over).
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import UserError, gettext_noop
from infra.api_errors import error_responses
from infra.inputs import StrictInput
from scoring import services
from scoring.engine import MAX_TRICK_PAIRS
from scoring.hands import hand_history
from scoring.models import SEAT_CHOICES, Hand
from scoring.presenters import state_payload
from tournament import access
from tournament.models import Match

WINNERS = [("defenders", _("Defenders (bottom captured)")), ("declarers", _("Declarers (bottom kept)"))]
BURIERS = [("declarers", _("Declarers buried the bottom")),
           ("defenders", _("Defenders buried the bottom after overturning the trump"))]


#: Bounds that keep every number inside the database's integer columns (the engine checks the real rules).
MOST_HANDS = 10_000
MOST_POINTS = 10_000

# --------------------------------------------------------------------------------------------
# Serializers
# --------------------------------------------------------------------------------------------
class LastTrickSerializer(StrictInput):
    """The winning play of the last trick (for the bottom multiplier and the J/A capture rules)."""

    by = serializers.ChoiceField(choices=WINNERS, help_text="who won the last trick")
    shape = serializers.ChoiceField(choices=["single", "pair", "tractor", "throw"],
                                    help_text='"throw": a throw (甩牌) won the last trick; it counts as the '
                                              "event's reading says (bottom.throw), with cards and pairs")
    pairs = serializers.IntegerField(required=False, default=1, min_value=0, max_value=MAX_TRICK_PAIRS,
                                     help_text="a tractor's pairs; a throw's: the pairs of its largest "
                                               "combination (0: a single), or every pair in it where all its "
                                               "cards count")
    cards = serializers.IntegerField(required=False, min_value=2, max_value=2 * MAX_TRICK_PAIRS,
                                     help_text="a throw only: how many cards it holds")
    trump = serializers.BooleanField(required=False, default=True)
    rank = serializers.CharField(required=False, allow_null=True, allow_blank=True, default=None)
    main_rank = serializers.BooleanField(required=False, allow_null=True, default=None)
    buried_by = serializers.ChoiceField(choices=BURIERS, required=False, default="declarers")

    def validate_rank(self, value):
        return value or None


class HandInputSerializer(StrictInput):
    """What the referee enters for one hand; levels and the next declarer are computed, never sent."""

    number = serializers.IntegerField(min_value=1, max_value=MOST_HANDS, help_text="the hand's number: the next one (or the last, to correct); "
                                                  "a rebellion takes the number of the deal it precedes, which "
                                                  "is then recorded under the same number")
    declarer = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_null=True, default=None,
                                       help_text="the declarer's seat; needed for the first hand only (and for a "
                                                 "rebellion: the seat that won the new bidding)")
    outcome = serializers.ChoiceField(choices=Hand.Outcome.choices, required=False, default=Hand.Outcome.PLAYED,
                                      help_text='"redeal": nobody declared trump (shenzhen 第五条), no score; '
                                                '"rebel": an attacker called 造反 (company league 二.7), the deal '
                                                "redone and the stage bid for anew (called_by, declarer); "
                                                "trump and points are then not sent")
    called_by = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_null=True, default=None,
                                        help_text="a rebellion: the attacker's seat who called it")
    trump = serializers.ChoiceField(choices=Hand.Trump.choices, required=False)
    defender_points = serializers.IntegerField(required=False, min_value=-MOST_POINTS, max_value=MOST_POINTS)
    bottom_points = serializers.IntegerField(required=False, default=0, min_value=-MOST_POINTS, max_value=MOST_POINTS)
    last_trick = LastTrickSerializer(required=False, allow_null=True, default=None)
    reclaim = serializers.BooleanField(required=False, default=False,
                                       help_text="the policy return: back to the level after a J/A-capture restart")

    #: The description states what ``validate`` checks (infra.api_schema): a played hand (the default) names
    #: its trump and points; a redeal says so and needs nothing else (what else it holds is not read).
    one_of = [
        {"title": "played", "properties": {"outcome": {"enum": [Hand.Outcome.PLAYED.value]}},
         "required": ["trump", "defender_points"]},
        {"title": "redeal", "properties": {"outcome": {"enum": [Hand.Outcome.REDEAL.value]}}, "required": ["outcome"]},
        {"title": "rebel", "properties": {"outcome": {"enum": [Hand.Outcome.REBEL.value]},
                                          "called_by": {"enum": [seat for seat, _label in SEAT_CHOICES]},
                                          "declarer": {"enum": [seat for seat, _label in SEAT_CHOICES]}},
         "required": ["outcome", "called_by", "declarer"]},   # both seats, never null
    ]

    def validate(self, attrs):
        """A played hand needs its trump and points (a redeal has neither); a rebellion its two seats."""
        outcome = attrs.get("outcome")
        if outcome == Hand.Outcome.REBEL:
            missing = [name for name in ("called_by", "declarer") if not attrs.get(name)]
            if missing:
                raise serializers.ValidationError({missing[0]: self.fields[missing[0]].error_messages["required"]})
        elif outcome != Hand.Outcome.REDEAL:
            missing = [name for name in ("trump", "defender_points") if name not in attrs]
            if missing:
                raise serializers.ValidationError({missing[0]: self.fields[missing[0]].error_messages["required"]})
        return attrs


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

    class Meta:
        model = Hand
        fields = ["id", "number", "version", "current", "declarer_seat", "trump", "trump_label",
                  "defender_points", "bottom_points", "last_trick", "reclaim", "penalty_points", "outcome",
                  "called_by", "bid_winner",
                  "level_played", "final_points", "declarer_keeps", "ns_level", "ew_level", "next_declarer",
                  "match_won", "explanation", "recorded_by", "recorded_at", "superseded_by"]

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
