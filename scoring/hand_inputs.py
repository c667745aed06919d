"""What a hand's inputs are, as the API takes them (the referee's hand API and the players' entries,
``tournament.selfscore``): one serializer shared by the API modules, which never import each other."""
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from infra.inputs import StrictInput
from scoring.engine import MAX_TRICK_PAIRS
from scoring.models import SEAT_CHOICES, Hand

WINNERS = [("defenders", _("Defenders (bottom captured)")), ("declarers", _("Declarers (bottom kept)"))]
BURIERS = [("declarers", _("Declarers buried the bottom")),
           ("defenders", _("Defenders buried the bottom after overturning the trump"))]


#: Bounds that keep every number inside the database's integer columns (the engine checks the real rules).
MOST_HANDS = 10_000
MOST_POINTS = 10_000


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
