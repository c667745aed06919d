"""The players' operations' bodies and answers (described for the OpenAPI schema)."""
from rest_framework import serializers

from infra.inputs import StrictInput
from scoring.hand_inputs import HandInputSerializer
from scoring.models import Hand
from tournament.models import EntryStep, Event, HandEntry
from tournament.selfscore import services, waiting

SIDES = [("NS", "NS"), ("EW", "EW")]
STATES = [(state, state) for state in (waiting.WAITING, waiting.DISPUTED, *EntryStep.ENDINGS, waiting.LAPSED)]


class HandEntryInputSerializer(HandInputSerializer):
    """A side's entry of a hand: the hand as the referee's hand API takes it, and whether it is a new hand or a
    correction of the last one (then ``number`` is the last hand's)."""

    kind = serializers.ChoiceField(choices=HandEntry.Kind.choices, required=False, default=HandEntry.Kind.NEW,
                                   help_text='"new": the next hand; "correction": the last hand as it should be '
                                             "(the other side confirms it as well)")

    #: The hand API's alternatives under titles of their own: a generated client names a class by its title,
    #: and the same title for two shapes makes it drop both operations.
    one_of = [{**branch, "title": f"{branch['title']} entry"} for branch in HandInputSerializer.one_of]


class EntryNoteInputSerializer(StrictInput):
    """A confirmation, a dispute or a withdrawal: a note, optional (a dispute's reason)."""

    closed = True   # a key it does not name is refused
    note = serializers.CharField(required=False, allow_blank=True, max_length=services.NOTE_MAX, default="",
                                 help_text="a dispute's reason, for the floor referee (optional)")


class EntryDecisionInputSerializer(StrictInput):
    """A referee's decision of an entry: as entered, another hand, or nothing."""

    closed = True   # a key it does not name is refused
    action = serializers.ChoiceField(choices=[(a, a) for a in services.ACTIONS], help_text=(
        '"confirm": record the hand as entered; "record": record `hand` instead (the hand as it was played); '
        '"reject": record nothing (the table enters again)'))
    hand = HandInputSerializer(required=False, default=None,
                               help_text='the hand as it was ("record" only); its number is not read: the entry\'s')
    note = serializers.CharField(required=False, allow_blank=True, max_length=services.NOTE_MAX, default="")

    #: The description states what ``validate`` checks (infra.api_schema): "record" sends the hand.
    one_of = [
        {"title": "as entered, or nothing", "properties": {"action": {"enum": ["confirm", "reject"]}},
         "required": ["action"]},
        {"title": "another hand", "properties": {"action": {"enum": ["record"]}, "hand": {"type": "object"}},
         "required": ["action", "hand"]},
    ]

    def validate(self, attrs):
        if attrs["action"] == "record" and not attrs.get("hand"):
            raise serializers.ValidationError({"hand": self.fields["hand"].error_messages["required"]})
        return attrs


class SideCodeInputSerializer(StrictInput):
    closed = True   # a key it does not name is refused

    side = serializers.ChoiceField(choices=SIDES, help_text="the side that gets a new code (its old code dies)")


class RoundCodesInputSerializer(StrictInput):
    closed = True   # a key it does not name is refused

    tables = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=32767), required=False,
                                   max_length=4096, default=list,
                                   help_text="these tables only (empty: every open table of the round)")


class EntryStepSerializer(serializers.Serializer):
    state = serializers.ChoiceField(choices=EntryStep.State.choices)
    side = serializers.ChoiceField(choices=SIDES, allow_null=True, help_text="the side whose code took the step")
    by = serializers.CharField(allow_null=True, help_text="the referee who decided (null: a side)")
    note = serializers.CharField(allow_blank=True)
    hand = serializers.IntegerField(allow_null=True, help_text="the hand recorded by this step")
    at = serializers.DateTimeField()


class HandEntrySerializer(serializers.Serializer):
    """A side's entry and what happened to it since."""

    id = serializers.IntegerField()
    match = serializers.IntegerField()
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=HandEntry.Kind.choices)
    side = serializers.ChoiceField(choices=SIDES, help_text="the side that entered it")
    inputs = serializers.DictField(help_text="the hand as entered (the hand API's fields)")
    state = serializers.ChoiceField(choices=STATES, help_text=(
        '"waiting": for the other side; "disputed": for the floor referee; "confirmed", "decided", "withdrawn": '
        'over; "lapsed": the hand was recorded otherwise, the entry counts for nothing'))
    entered_at = serializers.DateTimeField()
    steps = EntryStepSerializer(many=True)


class OpenHandEntrySerializer(HandEntrySerializer):
    table = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField()
    stage = serializers.CharField()
    disputed_at = serializers.DateTimeField(allow_null=True)


class CountedHandSerializer(serializers.Serializer):
    """A hand that counts (confirmed by the other side, decided by a referee, or a referee's own)."""

    id = serializers.IntegerField()
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=Hand.Outcome.choices)
    declarer_seat = serializers.CharField(allow_null=True)
    trump = serializers.CharField(allow_null=True)
    defender_points = serializers.IntegerField(allow_null=True)
    final_points = serializers.IntegerField(allow_null=True)
    ns_level = serializers.CharField()
    ew_level = serializers.CharField()
    by_players = serializers.BooleanField(help_text="entered by a side and confirmed by the other")
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()


class SideLevelsSerializer(serializers.Serializer):
    NS = serializers.CharField(allow_null=True)
    EW = serializers.CharField(allow_null=True)


class SelfScoringTableSerializer(serializers.Serializer):
    """A table where the players record: the hands that count, and the entry waiting apart."""

    match = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField()
    status = serializers.CharField()
    recorders = serializers.ChoiceField(choices=Event.Recorders.choices, help_text="who records the hands here")
    levels = SideLevelsSerializer(help_text="the levels the confirmed hands left")
    winner = serializers.ChoiceField(choices=SIDES, allow_null=True)
    over = serializers.BooleanField()
    next_number = serializers.IntegerField(help_text="the next hand's number after the recorded ones")
    hands = CountedHandSerializer(many=True, help_text="the confirmed hands only")
    waiting = HandEntrySerializer(allow_null=True, help_text="the entry waiting for confirmation or a decision")
    entries = HandEntrySerializer(many=True, help_text="the last entries, newest first")


class EntrySettledSerializer(serializers.Serializer):
    """A confirmation's or a decision's answer."""

    entry = HandEntrySerializer()
    hand = CountedHandSerializer(allow_null=True, help_text="the hand recorded (null: rejected)")
    status = serializers.CharField()
    levels = SideLevelsSerializer()
    winner = serializers.ChoiceField(choices=SIDES, allow_null=True)


class SideCodeIssuedSerializer(serializers.Serializer):
    """A side's new code, shown once (print it on the side's slip)."""

    match = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    side = serializers.ChoiceField(choices=SIDES)
    code = serializers.CharField()
