"""REST API of the referee console: preview, record, void, approve, choose, appeal, decide, logs.

Views are thin: they check permissions, validate the input and call ``rulings.services``. Every
unsafe request may carry an ``Idempotency-Key`` header (config.idempotency); the record call also
stores the key on the ruling, so a retry is applied once even past the middleware.
"""
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.models import Event, Match

from . import permissions as perms
from . import services
from .models import Appeal, AppealDecision, Ruling
from .presenters import entry_data, event_log, match_log

SIDES = [("NS", "NS"), ("EW", "EW"), ("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")]
ROLES = [("declarers", "declarers"), ("defenders", "defenders")]


# --- serializers ----------------------------------------------------------------------------------

class OffenceSerializer(serializers.Serializer):
    """What the referee enters: the offence, the offending side and what the offence needs."""

    code = serializers.CharField(max_length=30)
    side = serializers.ChoiceField(choices=SIDES)
    minutes = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=999)
    cards = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=99)
    choice = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=40)
    role = serializers.ChoiceField(choices=ROLES, required=False, allow_null=True, allow_blank=True)


class RecordSerializer(OffenceSerializer):
    hand_number = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=999)
    declarer = serializers.ChoiceField(choices=["N", "E", "S", "W"], required=False, allow_null=True, allow_blank=True,
                                       help_text="declarer seat, only while the table has none yet")
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class SanctionEffectSerializer(serializers.Serializer):
    stage = serializers.CharField(allow_null=True)
    gainer = serializers.CharField(allow_null=True)
    levels = serializers.IntegerField()
    next_declarer = serializers.CharField(allow_null=True)
    drop_to = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    levels_per_points = serializers.IntegerField(allow_null=True)
    max_levels = serializers.IntegerField(allow_null=True)
    points_void = serializers.BooleanField()
    redeal = serializers.BooleanField()
    hand_ends = serializers.BooleanField()
    applies_to = serializers.CharField()


class SanctionSerializer(serializers.Serializer):
    code = serializers.CharField()
    side = serializers.CharField()
    beneficiary = serializers.CharField()
    kinds = serializers.ListField(child=serializers.CharField())
    points = serializers.IntegerField()
    levels = serializers.IntegerField()
    needs_approval = serializers.BooleanField()
    options = serializers.ListField(child=serializers.CharField())
    referee_options = serializers.ListField(child=serializers.CharField())
    choice = serializers.CharField(allow_null=True)
    chooser = serializers.CharField(allow_null=True)
    role = serializers.CharField(allow_null=True)
    effect = SanctionEffectSerializer()
    explanation = serializers.CharField()
    clause = serializers.CharField()
    source = serializers.CharField()
    occurrence = serializers.IntegerField()
    escalated = serializers.ListField(child=serializers.CharField())
    waivable = serializers.BooleanField()
    pending_choice = serializers.BooleanField()


class SanctionPreviewSerializer(serializers.Serializer):
    sanction = SanctionSerializer()


class RulingActSerializer(serializers.Serializer):
    """Who did something to a ruling, and when."""

    by = serializers.CharField()
    at = serializers.DateTimeField()
    note = serializers.CharField(allow_blank=True)


class DecisionOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    instance = serializers.IntegerField()
    outcome = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)
    by = serializers.CharField()
    at = serializers.DateTimeField()


class AppealOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    ruling = serializers.IntegerField()
    side = serializers.CharField()
    grounds = serializers.CharField(allow_blank=True)
    by = serializers.CharField()
    at = serializers.DateTimeField()
    deadline = serializers.DateTimeField(allow_null=True)
    decisions = DecisionOutSerializer(many=True)


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
    code = serializers.CharField()
    side = serializers.CharField()
    role = serializers.CharField(allow_blank=True)
    offender_role = serializers.CharField(allow_blank=True)
    minutes = serializers.IntegerField(allow_null=True)
    cards = serializers.IntegerField(allow_null=True)
    choice = serializers.CharField(allow_blank=True)
    clause = serializers.CharField(allow_blank=True)
    profile = serializers.CharField()
    profile_version = serializers.IntegerField()
    note = serializers.CharField(allow_blank=True)
    recorded_by = serializers.CharField()
    recorded_at = serializers.DateTimeField()
    state = serializers.CharField()
    state_label = serializers.CharField()
    explanation = serializers.CharField()
    sanction = SanctionSerializer(allow_null=True)
    sanction_as_shown = SanctionSerializer()
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
    winner = serializers.CharField(allow_null=True)
    levels = serializers.DictField(child=serializers.CharField())
    declarer = serializers.CharField(allow_null=True)
    hand_number = serializers.IntegerField()


class MatchLogSerializer(serializers.Serializer):
    match = RulingMatchInfoSerializer()
    rulings = RulingOutSerializer(many=True)


class EventLogSerializer(serializers.Serializer):
    event = serializers.CharField()
    rulings = RulingOutSerializer(many=True)


class RulingVoidInSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class ApprovalInSerializer(serializers.Serializer):
    approved = serializers.BooleanField()
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class ChoiceInSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES)
    option = serializers.CharField(max_length=40)


class AppealInSerializer(serializers.Serializer):
    side = serializers.ChoiceField(choices=SIDES)
    grounds = serializers.CharField(required=False, allow_blank=True, max_length=4000)


class DecisionInSerializer(serializers.Serializer):
    instance = serializers.ChoiceField(choices=AppealDecision.Instance.choices)
    outcome = serializers.ChoiceField(choices=AppealDecision.Outcome.choices)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=4000)


class RefereeAssignInSerializer(serializers.Serializer):
    referee = serializers.IntegerField(help_text="user id of the table referee")


class RefereeAssignOutSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    referees = serializers.ListField(child=serializers.CharField())


class RulingErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    field = serializers.CharField(allow_null=True, required=False)


ERRORS = {
    400: OpenApiResponse(RulingErrorSerializer, description="输入有误 (bad input)"),
    403: OpenApiResponse(RulingErrorSerializer, description="无权限 (forbidden)"),
    404: OpenApiResponse(RulingErrorSerializer, description="不存在 (not found)"),
    409: OpenApiResponse(RulingErrorSerializer, description="并发冲突 (conflict)"),
}


# --- views ----------------------------------------------------------------------------------------

def _error(exc):
    code = status.HTTP_409_CONFLICT if isinstance(exc, services.Conflict) else status.HTTP_400_BAD_REQUEST
    return Response({"detail": str(exc), "field": exc.field}, status=code)


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


_RULING_OUT = RulingOutSerializer()  # one per process: its nested fields are built (deep-copied) once


def ruling_out(entry):
    """An Entry as the penalty log shows it (the fields of RulingOutSerializer, shared and stateless)."""
    return _RULING_OUT.to_representation(entry_data(entry))


def _entry_response(ruling, code=status.HTTP_200_OK):
    """The ruling as the log shows it, replayed with the match's other rulings."""
    entry = services.entry_of(ruling.match, ruling)
    return Response(ruling_out(entry), status=code)


class _MatchView(APIView):
    """Base: the match from the URL, checked against the view's permission classes.

    The requesting user's roles and assignment to the match are read in one query (see perms.read_requester).
    """

    related = ("profile", "round__stage__event", "ns", "ew")

    def get_match(self):
        queryset = Match.objects.select_related(*self.related_for(self.request.method))
        match = get_object_or_404(queryset, pk=self.kwargs["match_id"])
        perms.read_requester(match, self.request.user)
        self.check_object_permissions(self.request, match)
        return match

    def related_for(self, method):
        """The relations read with the match for a request of ``method``."""
        return self.related


class _RulingView(APIView):
    def get_ruling(self):
        ruling = get_object_or_404(Ruling.objects.select_related("match__round__stage__event", "profile"),
                                   pk=self.kwargs["pk"])
        self.check_object_permissions(self.request, ruling)
        return ruling


class PreviewView(_MatchView):
    """The sanction the console shows before the referee confirms (nothing is stored)."""

    permission_classes = [perms.CanRuleAtTable]
    serializer_class = OffenceSerializer

    @extend_schema(request=OffenceSerializer, responses={200: SanctionPreviewSerializer, **ERRORS}, operation_id="ruling_preview")
    def post(self, request, match_id):
        match = self.get_match()
        data = _valid(OffenceSerializer, request)
        try:
            sanction = services.preview(match, **data)
        except services.RulingError as exc:
            return _error(exc)
        return Response({"sanction": services.sanction_dict(sanction)})


class MatchRulingsView(_MatchView):
    """GET: the match's penalty log. POST: record a ruling (a retry with the same key is applied once)."""

    serializer_class = RecordSerializer

    def get_permissions(self):
        if self.request.method == "POST":
            return [perms.CanRuleAtTable()]
        return [perms.CanReadLog()]

    def related_for(self, method):
        """Recording needs only the profile and the round (the service locks and reads the match itself)."""
        return ("profile", "round") if method == "POST" else self.related

    @extend_schema(responses={200: MatchLogSerializer, **ERRORS}, operation_id="match_penalty_log")
    def get(self, request, match_id):
        return Response(MatchLogSerializer(match_log(self.get_match())).data)

    @extend_schema(request=RecordSerializer, responses={201: RulingOutSerializer, **ERRORS}, operation_id="ruling_record")
    def post(self, request, match_id):
        match = self.get_match()
        data = _valid(RecordSerializer, request)
        key = request.headers.get("Idempotency-Key", "").strip()[:200]
        try:
            entry = services.record_ruling_entry(match, request.user, idempotency_key=key, **data)
        except services.RulingError as exc:
            return _error(exc)
        return Response(ruling_out(entry), status=status.HTTP_201_CREATED)


class VoidLastView(_MatchView):
    """Void the match's latest ruling (the console's undo)."""

    permission_classes = [perms.CanRuleAtTable]
    serializer_class = RulingVoidInSerializer

    @extend_schema(request=RulingVoidInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_void_last")
    def post(self, request, match_id):
        match = self.get_match()
        data = _valid(RulingVoidInSerializer, request)
        try:
            row = services.void_last_ruling(match, request.user, data.get("reason", ""))
        except services.RulingError as exc:
            return _error(exc)
        return _entry_response(row.ruling)


class VoidView(_RulingView):
    """Void one ruling (a new void entry; nothing is deleted)."""

    permission_classes = [perms.CanRuleAtTable]
    serializer_class = RulingVoidInSerializer

    @extend_schema(request=RulingVoidInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_void")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(RulingVoidInSerializer, request)
        try:
            services.void_ruling(ruling, request.user, data.get("reason", ""))
        except services.RulingError as exc:
            return _error(exc)
        return _entry_response(ruling)


class ApprovalView(_RulingView):
    """The chief referee approves or rejects a proposed match forfeit or disqualification."""

    permission_classes = [perms.IsChiefReferee]
    serializer_class = ApprovalInSerializer

    @extend_schema(request=ApprovalInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_approve")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(ApprovalInSerializer, request)
        try:
            services.approve(ruling, request.user, approved=data["approved"], note=data.get("note", ""))
        except services.RulingError as exc:
            return _error(exc)
        return _entry_response(ruling)


class ChoiceView(_RulingView):
    """Record the option the non-offending side chose."""

    permission_classes = [perms.CanRuleAtTable]
    serializer_class = ChoiceInSerializer

    @extend_schema(request=ChoiceInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_choice")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(ChoiceInSerializer, request)
        try:
            services.record_choice(ruling, request.user, data["side"], data["option"])
        except services.RulingError as exc:
            return _error(exc)
        return _entry_response(ruling)


class AppealView(_RulingView):
    """A side appeals a ruling (before the profile's deadline)."""

    permission_classes = [perms.CanFileAppeal]
    serializer_class = AppealInSerializer

    @extend_schema(request=AppealInSerializer, responses={201: AppealOutSerializer, **ERRORS}, operation_id="ruling_appeal")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(AppealInSerializer, request)
        try:
            appeal = services.file_appeal(ruling, request.user, data["side"], data.get("grounds", ""))
        except services.RulingError as exc:
            return _error(exc)
        return Response(AppealOutSerializer(_appeal_data(appeal)).data, status=status.HTTP_201_CREATED)


def _appeal_data(appeal):
    appeal = Appeal.objects.select_related("ruling__match__round", "filed_by").get(pk=appeal.pk)
    entry = services.entry_of(appeal.ruling.match, appeal.ruling)
    return next(a for a in entry_data(entry)["appeals"] if a["id"] == appeal.pk)


class DecisionView(APIView):
    """Decide an appeal: instance 1 the chief referee, instance 2 the arbitration group."""

    permission_classes = [perms.CanDecideAppeal]
    serializer_class = DecisionInSerializer

    @extend_schema(request=DecisionInSerializer, responses={201: AppealOutSerializer, **ERRORS}, operation_id="appeal_decide")
    def post(self, request, pk):
        appeal = get_object_or_404(Appeal.objects.select_related("ruling__match"), pk=pk)
        data = _valid(DecisionInSerializer, request)
        try:
            services.decide_appeal(appeal, request.user, instance=int(data["instance"]), outcome=data["outcome"],
                                   reason=data.get("reason", ""))
        except services.RulingError as exc:
            return _error(exc)
        return Response(AppealOutSerializer(_appeal_data(appeal)).data, status=status.HTTP_201_CREATED)


class EventRulingsView(APIView):
    """The event's penalty log: staff always, everybody once the event is published."""

    permission_classes = [perms.CanReadLog]
    serializer_class = EventLogSerializer

    @extend_schema(responses={200: EventLogSerializer, **ERRORS}, operation_id="event_penalty_log")
    def get(self, request, slug):
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return Response(EventLogSerializer(event_log(event)).data)


class AssignRefereeView(_MatchView):
    """An organiser assigns a table referee to a match."""

    permission_classes = [perms.IsOrganiser]
    serializer_class = RefereeAssignInSerializer

    @extend_schema(request=RefereeAssignInSerializer, responses={200: RefereeAssignOutSerializer, **ERRORS}, operation_id="match_assign_referee")
    def post(self, request, match_id):
        match = self.get_match()
        data = _valid(RefereeAssignInSerializer, request)
        referee = get_object_or_404(get_user_model(), pk=data["referee"])
        try:
            services.assign_referee(match, referee, request.user)
        except services.RulingError as exc:
            return _error(exc)
        names = list(match.referees.order_by("username").values_list("username", flat=True))
        return Response({"match": match.pk, "referees": names})
