"""Serializers of the rulings API: what the console sends and what the penalty logs answer."""
from rest_framework import serializers

from common.seats import SEATS
from infra.inputs import StrictInput
from rulings.models import AppealDecision
from rulings.presenters import APPEAL_STATUSES
from scoring.models import SEAT_CHOICES  # the hands' own seat choices: one SeatEnum in the schema

SIDES = [("NS", "NS"), ("EW", "EW"), *((seat, seat) for seat in SEATS)]
ROLES = [("declarers", "declarers"), ("defenders", "defenders")]


class OffenceSerializer(StrictInput):
    """What the referee enters: the offence, the offending side and what the offence needs."""

    code = serializers.CharField(max_length=30)
    side = serializers.ChoiceField(choices=SIDES)
    minutes = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    seconds = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=59)
    cards = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=99)
    choice = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=40)
    role = serializers.ChoiceField(choices=ROLES, required=False, allow_null=True, allow_blank=True)
    waived_by = serializers.ChoiceField(choices=[("NS", "NS"), ("EW", "EW")], required=False, allow_null=True,
                                        allow_blank=True,
                                        help_text="the non-offending side that waives the sanction, where the rule "
                                                  "profile allows it (000 第十七条（三）; 2008 closing paragraph)")
    declarer = serializers.ChoiceField(choices=SEAT_CHOICES, required=False, allow_null=True, allow_blank=True,
                                       help_text="declarer seat, only while the table has none yet (the preview "
                                                 "refuses a sanction that moves the stage or the levels without it, "
                                                 "as the record does)")


class RecordSerializer(OffenceSerializer):
    hand_number = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=999)
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class SanctionEffectSerializer(serializers.Serializer):
    """What a sanction does to the match beyond points (the engine's ``Effect``)."""

    stage = serializers.CharField(allow_null=True, help_text="the side on stage after the ruling when the offending "
                                                             "declarers step down (null: unchanged)")
    gainer = serializers.CharField(allow_null=True, help_text="the side that goes up (null: nobody)")
    levels = serializers.IntegerField(help_text="how many levels the gainer goes up")
    next_declarer = serializers.CharField(allow_null=True, help_text="who declares the next hand (null: as the "
                                                                     "hand gives)")
    drop_to = serializers.ListField(child=serializers.ListField(child=serializers.CharField()),
                                    help_text="pairs [level, level]: declarers playing the first level drop to the "
                                              "second and nobody goes up")
    drop_keeps_levels = serializers.BooleanField(help_text="a drop (drop_to) keeps the levels the hand gives the "
                                                           "other side")
    levels_per_points = serializers.IntegerField(allow_null=True, help_text="the gainer goes up one level per this "
                                                                            "many of the defenders' points")
    max_levels = serializers.IntegerField(allow_null=True, help_text="at most this many levels that way")
    levels_from_points = serializers.IntegerField(
        required=False, help_text="the points levels_per_points counts from (absent in sanctions shown before it)")
    points_void = serializers.BooleanField(help_text="the hand's points do not count")
    redeal = serializers.BooleanField(help_text="the hand is dealt again")
    hand_ends = serializers.BooleanField(help_text="the hand ends here")
    applies_to = serializers.ChoiceField(choices=["current_hand", "first_hand"],
                                         help_text="the hand whose points it counts")


class SanctionSerializer(serializers.Serializer):
    """The outcome of one offence, as the console previews it and the ruling stores it."""

    code = serializers.CharField(help_text="the offence's code in the event's rule profile")
    side = serializers.CharField(help_text="the offending side or seat")
    beneficiary = serializers.CharField(help_text="the side the points go to")
    kinds = serializers.ListField(child=serializers.CharField(), help_text="what the sanction does: points, levels, "
                                                                           "forfeit, choice, ...")
    points = serializers.IntegerField(help_text="points given to the beneficiary")
    levels = serializers.IntegerField(help_text="levels given to the beneficiary")
    needs_approval = serializers.BooleanField(help_text="waits for the chief referee's approval")
    automatic = serializers.BooleanField(help_text="a match forfeit the rules apply without approval (e.g. "
                                                   "lateness)")
    options = serializers.ListField(child=serializers.CharField(), help_text="the options the other side chooses "
                                                                             "from")
    referee_options = serializers.ListField(child=serializers.CharField(), help_text="the options the referee "
                                                                                     "chooses from")
    choice = serializers.CharField(allow_null=True, help_text="the option applied (null: none chosen yet)")
    chooser = serializers.CharField(allow_null=True, help_text="who chooses: the other side or the referee")
    role = serializers.CharField(allow_null=True, help_text="the offending side's role in the hand: declarers or "
                                                           "defenders (null: not asked)")
    effect = SanctionEffectSerializer()
    explanation = serializers.CharField(help_text="the sanction in a sentence, as stored (Chinese)")
    clause = serializers.CharField(help_text="the rule clause it applies")
    source = serializers.CharField(help_text="the rule document the clause is from")
    occurrence = serializers.IntegerField(help_text="which offence of its kind this is for the side (1: the first)")
    escalated = serializers.ListField(child=serializers.CharField(), help_text="the steps of the penalty ladder it "
                                                                               "climbed")
    waivable = serializers.BooleanField(help_text="the other side may waive it")
    waived_by = serializers.CharField(allow_null=True, required=False,
                                      help_text="the non-offending side that waived the sanction (null: none)")
    pending_choice = serializers.BooleanField(help_text="the other side still has to choose among options")


class ImpactSerializer(serializers.Serializer):
    """What recording the ruling now does to the match: the hand it goes to and the current levels."""

    hand_number = serializers.IntegerField()
    hand_in_play = serializers.IntegerField()
    earlier_hand = serializers.BooleanField(help_text="the ruling changes a hand already recorded")
    levels_before = serializers.DictField(child=serializers.CharField())
    levels_after = serializers.DictField(child=serializers.CharField())
    winner_after = serializers.ChoiceField(choices=["NS", "EW"], allow_null=True,
                                           help_text='the winning side after the ruling, "NS" or "EW" (null: none)')
    text = serializers.CharField(allow_blank=True)


class RefereeChoiceSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="what a ruling's `choice` takes")
    label = serializers.CharField(help_text="the option as the rules name it (in the active language)")


class SanctionPreviewSerializer(serializers.Serializer):
    sanction = SanctionSerializer()
    impact = ImpactSerializer()
    choices = RefereeChoiceSerializer(many=True, help_text="the options the referee may choose for this offence "
                                                           "now (empty: send no `choice`); e.g. only from the "
                                                           "third time for some offences")


# The referees' own words are for the event's staff (rulings.presenters.sees_private): everybody else gets the
# same keys with an empty string, so the answer has one shape for every reader.
STAFF_ONLY = " Staff of the event only: an empty string for everybody else."


class RulingActSerializer(serializers.Serializer):
    """Who did something to a ruling, and when."""

    by = serializers.CharField()
    at = serializers.DateTimeField()
    note = serializers.CharField(allow_blank=True, help_text="the void's reason or the approval's note." + STAFF_ONLY)


class DecisionOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    instance = serializers.IntegerField()
    outcome = serializers.CharField()
    outcome_label = serializers.CharField(help_text="维持 / 改判 / 撤销 (in the active language)")
    reason = serializers.CharField(allow_blank=True)
    replacement = serializers.IntegerField(allow_null=True, help_text="amended: the ruling that replaces it")
    by = serializers.CharField()
    at = serializers.DateTimeField()


class AppealOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruling = serializers.IntegerField()
    side = serializers.CharField()
    grounds = serializers.CharField(allow_blank=True, help_text="the appeal's grounds." + STAFF_ONLY)
    by = serializers.CharField()
    at = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True)
    decisions = DecisionOutSerializer(many=True)


class EventAppealDecisionSerializer(DecisionOutSerializer):
    result_stands = serializers.CharField(allow_blank=True, help_text="the side whose win the decision kept although "
                                          "it changes what the records give (NS/EW; empty: none)")


class EventAppealSerializer(AppealOutSerializer):
    """One appeal of the event, with its ruling, table and round, its status and its window."""

    decisions = EventAppealDecisionSerializer(many=True, help_text="first instance first")
    by = serializers.CharField(help_text="who filed it (the name shown on the pages)")
    at = serializers.DateTimeField(help_text="when it was filed")
    deadline = serializers.DateTimeField(allow_null=True, help_text="the end of the ruling's appeal window (null: "
                                         "its time does not run yet, or the rules set no limit)")
    match = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(help_text="the round's id")
    round_number = serializers.IntegerField()
    stage = serializers.IntegerField(help_text="the stage's id")
    stage_name = serializers.CharField()
    code = serializers.CharField(help_text="the appealed ruling's offence code")
    ruling_side = serializers.CharField(help_text="the side the appealed ruling is against")
    status = serializers.ChoiceField(choices=APPEAL_STATUSES, help_text="pending (no decision yet), decided (the "
                                     "first instance decided, a second is open under the rules) or final")
    waiting_instance = serializers.IntegerField(allow_null=True, help_text="the instance still to decide (null: "
                                                "final)")
    instances = serializers.IntegerField(help_text="how many instances the event's rules give (1: the first is "
                                         "final)")
    outcome = serializers.ChoiceField(choices=AppealDecision.Outcome.values, allow_null=True,
                                      help_text="the latest decision's outcome (null: none yet)")
    results_published_at = serializers.DateTimeField(allow_null=True, help_text="when the round's results were "
                                                     "published (the window may count from it)")


class EventAppealsSerializer(serializers.Serializer):
    event = serializers.CharField()
    appeals = EventAppealSerializer(many=True)


class ApprovalOutSerializer(RulingActSerializer):
    approved = serializers.BooleanField()


class ChoiceOutSerializer(serializers.Serializer):
    side = serializers.CharField()
    option = serializers.CharField()
    by = serializers.CharField()
    at = serializers.DateTimeField()


class RulingOutSerializer(serializers.Serializer):
    """One ruling in a penalty log: its inputs, the sanction now in force, its state and history."""

    id = serializers.IntegerField()
    match = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    sequence = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    amends = serializers.IntegerField(allow_null=True, help_text="the ruling this one replaced on appeal (改判)")
    code = serializers.CharField()
    side = serializers.CharField()
    role = serializers.CharField(allow_blank=True)
    offender_role = serializers.CharField(allow_blank=True)
    minutes = serializers.IntegerField(allow_null=True)
    seconds = serializers.IntegerField(allow_null=True)
    cards = serializers.IntegerField(allow_null=True)
    choice = serializers.CharField(allow_blank=True)
    clause = serializers.CharField(allow_blank=True)
    profile = serializers.CharField()
    profile_version = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True, help_text="the recording referee's note." + STAFF_ONLY)
    recorded_by = serializers.CharField()
    proposer = serializers.CharField(help_text="who recorded (proposed) it: full name, else username")
    recorded_at = serializers.DateTimeField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    explanation = serializers.CharField()
    sanction = SanctionSerializer(allow_null=True)
    sanction_as_shown = SanctionSerializer()
    option_labels = serializers.DictField(child=serializers.CharField(), help_text="each of the sanction's `options` "
                                          "(the other side's choice) as the rules name it, in the active language")
    void = RulingActSerializer(allow_null=True)
    approval = ApprovalOutSerializer(allow_null=True)
    choice_made = ChoiceOutSerializer(allow_null=True)
    appeals = AppealOutSerializer(many=True)


class RulingMatchInfoSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    round = serializers.CharField()
    ns = serializers.CharField()
    ew = serializers.CharField()
    status = serializers.CharField()
    winner = serializers.ChoiceField(choices=["NS", "EW"], allow_null=True,
                                     help_text='the winning side, "NS" or "EW" (null: none)')
    winner_name = serializers.CharField(allow_null=True, help_text="the winning pair's name")
    levels = serializers.DictField(child=serializers.CharField())
    declarer = serializers.CharField(allow_null=True)
    hand_number = serializers.IntegerField()


class MatchLogSerializer(serializers.Serializer):
    match = RulingMatchInfoSerializer()
    rulings = RulingOutSerializer(many=True)


class EventLogSerializer(serializers.Serializer):
    event = serializers.CharField()
    rulings = RulingOutSerializer(many=True)


class RulingVoidInSerializer(StrictInput):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class ApprovalInSerializer(StrictInput):
    approved = serializers.BooleanField()
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class ChoiceInSerializer(StrictInput):
    side = serializers.ChoiceField(choices=SIDES)
    option = serializers.CharField(max_length=40)


class AppealInSerializer(StrictInput):
    side = serializers.ChoiceField(choices=SIDES)
    grounds = serializers.CharField(required=False, allow_blank=True, max_length=4000)


class AmendmentInSerializer(StrictInput):
    """The new sanction of an amended ruling (改判): the engine's inputs; code and side default to the
    appealed ruling's."""

    code = serializers.CharField(required=False, allow_blank=True, max_length=30)
    side = serializers.ChoiceField(choices=SIDES, required=False, allow_blank=True)
    minutes = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=600)
    seconds = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=59)
    cards = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=60)
    choice = serializers.CharField(required=False, allow_blank=True, max_length=40)
    role = serializers.ChoiceField(choices=[("declarers", "declarers"), ("defenders", "defenders")], required=False,
                                   allow_blank=True)


class DecisionInSerializer(StrictInput):
    instance = serializers.ChoiceField(choices=AppealDecision.Instance.choices)
    outcome = serializers.ChoiceField(choices=AppealDecision.Outcome.choices,
                                      help_text="upheld 维持 / amended 改判 (give `amendment`) / reversed 撤销")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=4000)
    amendment = AmendmentInSerializer(required=False, help_text="amended only: the new sanction")
    result_stands = serializers.BooleanField(
        required=False, default=False,
        help_text="keep the match's winner although the decision changes what the records give (offered by the "
                  "409 when the winner's next match has begun or the round is closed)")


class RefereeAssignInSerializer(StrictInput):
    referee = serializers.IntegerField(help_text="user id of the table referee")


class RefereeAssignOutSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    referees = serializers.ListField(child=serializers.CharField())


class ApprovalPreviewSerializer(serializers.Serializer):
    """What approving (核准) a ruling would do; nothing is stored (``rulings.previews.approval_impact``)."""

    ends_match = serializers.BooleanField(help_text="approving ends the match (a match loss or a disqualification): "
                                                    "the pages ask the chief referee to confirm")
    disqualification = serializers.BooleanField(help_text="the offending pair also leaves the event's remaining matches")
    loser = serializers.ChoiceField(choices=["NS", "EW"], allow_null=True, help_text='the side that loses, "NS" or "EW"')
    winner_after = serializers.ChoiceField(choices=["NS", "EW"], allow_null=True,
                                           help_text='the winning side once approved, "NS" or "EW" (null: none)')
    text = serializers.CharField(allow_blank=True, help_text="the sentence to confirm, in the active language")


class VoidChangeSerializer(serializers.Serializer):
    """A later ruling whose sanction the ledger counts again once the ruling is void."""

    ruling = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    side = serializers.ChoiceField(choices=["NS", "EW"])
    before = serializers.CharField(help_text="its sanction now, as the log reads it")
    after = serializers.CharField(help_text="its sanction after the void")
    state_before = serializers.CharField()
    state_after = serializers.CharField()


class ResultSketchSerializer(serializers.Serializer):
    over = serializers.BooleanField()
    winner = serializers.ChoiceField(choices=["NS", "EW"], allow_null=True,
                                     help_text='the winning side, "NS" or "EW" (null: none)')


class VoidPreviewSerializer(serializers.Serializer):
    """What voiding (撤销) a ruling would change; nothing is stored (``rulings.previews.void_impact``)."""

    changes = VoidChangeSerializer(many=True)
    levels_before = serializers.DictField(child=serializers.CharField())
    levels_after = serializers.DictField(child=serializers.CharField())
    result_before = ResultSketchSerializer()
    result_after = ResultSketchSerializer()
    reopens = serializers.BooleanField(help_text="the match's result is undone: it is back in play")
    lifts_removal = serializers.BooleanField(help_text="a pair these rulings took out of the event plays on")
    refused = serializers.BooleanField(help_text="the winner's next match has begun: the result cannot change, "
                                                 "the void would be refused (409)")
    text = serializers.ListField(child=serializers.CharField(),
                                 help_text="what changes, a sentence each, in the active language (empty: nothing)")


class OffenceOptionSerializer(serializers.Serializer):
    id = serializers.CharField()
    label = serializers.CharField()


class OffenceCodeSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="what a ruling's `code` takes")
    name = serializers.CharField(help_text="the offence's name in the rule profile")
    options = OffenceOptionSerializer(many=True, help_text="the referee's choices (a ruling's `choice`), if any")
    default = serializers.CharField(allow_null=True)
    needs = serializers.DictField(child=serializers.ListField(child=serializers.CharField()),
                                  help_text="per choice (\"\": any) the inputs a ruling needs: minutes, seconds, "
                                            "cards, role")
    common = serializers.BooleanField(help_text="one of the offences the console shows first")
