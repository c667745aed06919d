"""REST API of the referee console: preview, record, void, approve, choose, appeal, decide, logs.

Views are thin: they check permissions (``rulings.permissions``, which ask ``tournament.access``),
validate the input and call the services; refused actions reach the one API error handler. Every
unsafe request may carry an ``Idempotency-Key`` header (infra.idempotency); the record call also
stores the key on the ruling, so a retry is applied once even past the middleware.
"""
from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api_errors import error_responses
from rulings import appeals, previews, services
from rulings import permissions as perms
from rulings.models import Appeal, Ruling
from rulings.presenters import entry_data, event_appeals, event_log, match_log, offence_menu, referee_choices
from rulings.serializers import (
    AppealInSerializer,
    AppealOutSerializer,
    ApprovalInSerializer,
    ApprovalPreviewSerializer,
    ChoiceInSerializer,
    DecisionInSerializer,
    EventAppealsSerializer,
    EventLogSerializer,
    MatchLogSerializer,
    OffenceCodeSerializer,
    OffenceSerializer,
    RecordSerializer,
    RefereeAssignInSerializer,
    RefereeAssignOutSerializer,
    RulingOutSerializer,
    RulingVoidInSerializer,
    SanctionPreviewSerializer,
    VoidPreviewSerializer,
)
from scoring.explanations import ruling_explanation
from tournament import access
from tournament.competition import referees
from tournament.models import Event, Match
from tournament.records.ledger import entry_of, sanction_dict

ERRORS = error_responses(400, 403, 404, 409)


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


# One instance per process renders every ruling answer: a serializer builds (deep-copies) its nested fields
# on every instantiation; rendering reads them only.
_RULING_OUT = RulingOutSerializer()


def ruling_out(entry, viewer):
    """An Entry as the penalty log shows it to ``viewer`` (``rulings.presenters`` decides what they read)."""
    return _RULING_OUT.to_representation(entry_data(entry, viewer))


def _entry_response(ruling, viewer, code=status.HTTP_200_OK):
    """The ruling as the log shows it to ``viewer``, replayed with the match's other rulings."""
    entry = entry_of(ruling.match, ruling)
    return Response(ruling_out(entry, viewer), status=code)


class _MatchView(APIView):
    """Base: the match from the URL, checked against the view's permission classes.

    The requesting user's roles and assignment to the match are read in one query (see tournament.access.load_access).
    """

    related = ("profile", "round__stage__event", "ns", "ew")

    def get_match(self):
        queryset = Match.objects.select_related(*self.related_for(self.request.method))
        match = get_object_or_404(queryset, pk=self.kwargs["match_id"])
        access.load_access(self.request.user, match)
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
        sanction, impact = previews.preview_with_impact(match, **data)
        shown = sanction_dict(sanction)
        shown["explanation"] = ruling_explanation(sanction, match.profile)   # in the console's language
        return Response({"sanction": shown, "impact": impact, "choices": referee_choices(match.profile, sanction)})


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

    @extend_schema(responses={200: MatchLogSerializer, **error_responses(404)}, operation_id="match_penalty_log")
    def get(self, request, match_id):
        return Response(MatchLogSerializer(match_log(self.get_match(), request.user)).data)

    @extend_schema(request=RecordSerializer, responses={201: RulingOutSerializer, **ERRORS}, operation_id="ruling_record")
    def post(self, request, match_id):
        """The service locks and reads the match once and asks this view's permission check on it."""
        self.check_permissions(request)
        serializer = RecordSerializer(data=request.data)
        if not serializer.is_valid():
            self.get_match()   # a refusal comes before the body's errors (the match is read only then)
            serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        key = request.headers.get("Idempotency-Key", "").strip()[:200]
        try:
            entry = services.record_ruling_entry(
                Match(pk=match_id), request.user, idempotency_key=key,
                check=lambda match: self.check_object_permissions(request, match), **data)
        except Match.DoesNotExist as exc:
            raise Http404 from exc
        return Response(ruling_out(entry, request.user), status=status.HTTP_201_CREATED)


class VoidLastView(_MatchView):
    """Void the match's latest ruling (the console's undo)."""

    permission_classes = [perms.CanRuleAtTable]
    serializer_class = RulingVoidInSerializer

    @extend_schema(request=RulingVoidInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_void_last")
    def post(self, request, match_id):
        match = self.get_match()
        data = _valid(RulingVoidInSerializer, request)
        row = services.void_last_ruling(match, request.user, data.get("reason", ""))
        return _entry_response(row.ruling, request.user)


class VoidView(_RulingView):
    """Void one ruling (a new void entry; nothing is deleted)."""

    permission_classes = [perms.CanRuleAtTable]
    serializer_class = RulingVoidInSerializer

    @extend_schema(request=RulingVoidInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_void")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(RulingVoidInSerializer, request)
        services.void_ruling(ruling, request.user, data.get("reason", ""))
        return _entry_response(ruling, request.user)


class VoidPreviewView(_RulingView):
    """What voiding the ruling would change in the later rulings and the match's result (nothing is stored):
    the pages show it before the void is confirmed."""

    permission_classes = [perms.CanRuleAtTable]

    @extend_schema(responses={200: VoidPreviewSerializer, **error_responses(400, 403, 404)},
                   operation_id="ruling_void_preview")
    def get(self, request, pk):
        return Response(VoidPreviewSerializer(previews.void_impact(self.get_ruling())).data)


class ApprovalPreviewView(_RulingView):
    """What approving the ruling would do (nothing is stored): the pages ask the chief to confirm an approval
    that ends the match; a program approves in one call (``ruling_approve``)."""

    permission_classes = [perms.IsChiefReferee]

    @extend_schema(responses={200: ApprovalPreviewSerializer, **error_responses(403, 404)},
                   operation_id="ruling_approval_preview")
    def get(self, request, pk):
        return Response(ApprovalPreviewSerializer(previews.approval_impact(self.get_ruling())).data)


class ApprovalView(_RulingView):
    """The chief referee approves or rejects a proposed match forfeit or disqualification."""

    permission_classes = [perms.IsChiefReferee]
    serializer_class = ApprovalInSerializer

    @extend_schema(request=ApprovalInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_approve")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(ApprovalInSerializer, request)
        services.approve(ruling, request.user, approved=data["approved"], note=data.get("note", ""))
        return _entry_response(ruling, request.user)


class ChoiceView(_RulingView):
    """Record the option the non-offending side chose."""

    permission_classes = [perms.CanRuleAtTable]
    serializer_class = ChoiceInSerializer

    @extend_schema(request=ChoiceInSerializer, responses={200: RulingOutSerializer, **ERRORS}, operation_id="ruling_choice")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(ChoiceInSerializer, request)
        services.record_choice(ruling, request.user, data["side"], data["option"])
        return _entry_response(ruling, request.user)


class AppealView(_RulingView):
    """A side appeals a ruling (before the profile's deadline)."""

    permission_classes = [perms.CanFileAppeal]
    serializer_class = AppealInSerializer

    @extend_schema(request=AppealInSerializer, responses={201: AppealOutSerializer, **ERRORS}, operation_id="ruling_appeal")
    def post(self, request, pk):
        ruling = self.get_ruling()
        data = _valid(AppealInSerializer, request)
        appeal = appeals.file_appeal(ruling, request.user, data["side"], data.get("grounds", ""))
        return Response(AppealOutSerializer(_appeal_data(appeal, request.user)).data, status=status.HTTP_201_CREATED)


def _appeal_data(appeal, viewer):
    appeal = Appeal.objects.select_related("ruling__match__round", "filed_by").get(pk=appeal.pk)
    entry = entry_of(appeal.ruling.match, appeal.ruling)
    return next(a for a in entry_data(entry, viewer)["appeals"] if a["id"] == appeal.pk)


class DecisionView(APIView):
    """Decide an appeal: instance 1 the chief referee, instance 2 the arbitration group."""

    permission_classes = [perms.CanDecideAppeal]
    serializer_class = DecisionInSerializer

    @extend_schema(request=DecisionInSerializer, responses={201: AppealOutSerializer, **ERRORS}, operation_id="appeal_decide")
    def post(self, request, pk):
        appeal = get_object_or_404(Appeal.objects.select_related("ruling__match"), pk=pk)
        data = _valid(DecisionInSerializer, request)
        appeals.decide_appeal(appeal, request.user, instance=int(data["instance"]), outcome=data["outcome"],
                               reason=data.get("reason", ""), amendment=data.get("amendment"),
                               result_stands=data.get("result_stands", False))
        return Response(AppealOutSerializer(_appeal_data(appeal, request.user)).data, status=status.HTTP_201_CREATED)


class EventRulingsView(APIView):
    """The event's penalty log: staff always, everybody once the event is published."""

    permission_classes = [perms.CanReadLog]
    serializer_class = EventLogSerializer

    @extend_schema(responses={200: EventLogSerializer, **error_responses(404)}, operation_id="event_penalty_log")
    def get(self, request, slug):
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return Response(EventLogSerializer(event_log(event, request.user)).data)


class EventAppealsView(APIView):
    """The event's appeals with their decisions, status and window: read as the penalty log is (staff always,
    everybody once the event is published; the grounds for staff only)."""

    permission_classes = [perms.CanReadLog]
    serializer_class = EventAppealsSerializer

    @extend_schema(responses={200: EventAppealsSerializer, **error_responses(404)}, operation_id="event_appeals")
    def get(self, request, slug):
        event = get_object_or_404(Event, slug=slug)
        self.check_object_permissions(request, event)
        return Response(EventAppealsSerializer(event_appeals(event, request.user)).data)


class AssignRefereeView(_MatchView):
    """An organiser assigns a table referee to a match."""

    permission_classes = [perms.IsOrganiser]
    serializer_class = RefereeAssignInSerializer

    @extend_schema(request=RefereeAssignInSerializer, responses={200: RefereeAssignOutSerializer, **ERRORS}, operation_id="match_assign_referee")
    def post(self, request, match_id):
        match = self.get_match()
        data = _valid(RefereeAssignInSerializer, request)
        referee = get_object_or_404(get_user_model(), pk=data["referee"])
        referees.assign_referee(match, referee)
        names = list(match.referees.order_by("username").values_list("username", flat=True))
        return Response({"match": match.pk, "referees": names})


class OffenceList(APIView):
    """The offences of the event's rule profile: the codes a ruling takes, their names and what each needs."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OffenceCodeSerializer(many=True), **error_responses(404)},
                   summary="the offence codes of the event's profile")
    def get(self, request, slug):
        event = get_object_or_404(access.visible_events(request.user), slug=slug)
        return Response(OffenceCodeSerializer(offence_menu(event.profile) if event.profile_id else [], many=True).data)
