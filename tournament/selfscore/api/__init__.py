"""REST API of the tables where the players record the hands (thin views over :mod:`tournament.selfscore`).

The players' writes (enter, confirm, dispute, withdraw) carry the side's code, ``Authorization: Side <match
id>:<code>`` (:mod:`tournament.selfscore.authentication`: the code's row owns the Idempotency-Key, so a phone's
queue uploads once); a referee decides with a login or a token; the desk issues the codes. Refusals are the one
error body: 400 (a wrong code on ``code``, a bad hand), 403, 404, 409 (the match over, an entry no longer
waiting, the previous hand not confirmed yet), 429 (too many wrong codes, with ``Retry-After``).
"""
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api_errors import error_responses
from infra.auth import client_address
from infra.idempotency import secret
from tournament import access
from tournament.models import Event, Match, Round, SideCode
from tournament.selfscore import codes, presenters, services, waiting
from tournament.selfscore.api.serializers import (
    EntryDecisionInputSerializer,
    EntryNoteInputSerializer,
    EntrySettledSerializer,
    HandEntryInputSerializer,
    HandEntrySerializer,
    OpenHandEntrySerializer,
    RoundCodesInputSerializer,
    SelfScoringTableSerializer,
    SideCodeInputSerializer,
    SideCodeIssuedSerializer,
)
from tournament.selfscore.authentication import SideCodeOrLogin, SideThrottle, code_sent

WRITE_ERRORS = error_responses(400, 403, 404, 409, 429)


def _valid(serializer_class, request):
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class _Players(APIView):
    """An operation a side takes with its code (the service checks the code: wrong ones counted and slowed)."""

    permission_classes = [SideCodeOrLogin]
    throttle_classes = [SideThrottle]
    side_code = True   # the description names the side's code as this operation's credential

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        if isinstance(exc, codes.CodesThrottled):
            response["Retry-After"] = str(max(1, int(exc.wait)))
        return response

    def side(self):
        """The code sent and the client's address, as the services take them."""
        return code_sent(self.request), client_address(self.request)


class TableEntriesView(_Players):
    """The table where the players record: its confirmed hands, the entry waiting apart (GET); a side enters the
    next hand or a correction of the last (POST)."""

    @extend_schema(responses={200: SelfScoringTableSerializer, 404: error_responses(404)[404]}, summary="a self-scoring table",
                   description="Readable where the event is (published, or its staff), and with the table's side "
                               "code. Only confirmed hands count; `waiting` is the entry waiting for the other "
                               "side (or disputed, for the floor referee).")
    def get(self, request, match_id):
        match = get_object_or_404(Match.objects.select_related("round__stage__event"), pk=match_id)
        own_code = isinstance(request.auth, SideCode) and request.auth.match_id == match.pk
        if not own_code and not access.may(request.user, access.VIEW, match=match):
            raise Http404
        return Response(SelfScoringTableSerializer(presenters.table_data(match)).data)

    @extend_schema(request=HandEntryInputSerializer, responses={201: HandEntrySerializer, **WRITE_ERRORS},
                   summary="a side enters a hand")
    def post(self, request, match_id):
        data = _valid(HandEntryInputSerializer, request)
        number, kind = data.pop("number"), data.pop("kind")
        code, address = self.side()
        entry = services.enter_hand(Match(pk=match_id), code, address=address, number=number, kind=kind,
                                    inputs=_plain(data))
        return Response(HandEntrySerializer(presenters.entry_data(entry, steps=())).data,   # made now: no step
                        status=status.HTTP_201_CREATED)


def _plain(data):
    """Validated data as JSON (nested serializers give ordered dicts)."""
    if isinstance(data, dict):
        return {key: _plain(value) for key, value in data.items()}
    return data


class ConfirmView(_Players):
    """The other side confirms the waiting entry: the hand counts from now on."""

    @extend_schema(request=EntryNoteInputSerializer, responses={201: EntrySettledSerializer, **WRITE_ERRORS},
                   summary="the other side confirms an entry")
    def post(self, request, match_id, entry_id):
        _valid(EntryNoteInputSerializer, request)
        code, address = self.side()
        settled = services.confirm_entry(entry_id, code, address=address, match_id=match_id)
        return Response(EntrySettledSerializer(presenters.settled_data(settled)).data, status=status.HTTP_201_CREATED)


class DisputeView(_Players):
    """A side disputes the waiting entry (有异议): the table stops, the floor referee decides."""

    @extend_schema(request=EntryNoteInputSerializer, responses={201: HandEntrySerializer, **WRITE_ERRORS},
                   summary="a side disputes an entry")
    def post(self, request, match_id, entry_id):
        note = _valid(EntryNoteInputSerializer, request)["note"]
        code, address = self.side()
        services.dispute_entry(entry_id, code, address=address, note=note, match_id=match_id)
        return Response(HandEntrySerializer(_entry(match_id, entry_id)).data, status=status.HTTP_201_CREATED)


class WithdrawView(_Players):
    """The side that entered the waiting entry takes it back."""

    @extend_schema(request=EntryNoteInputSerializer, responses={201: HandEntrySerializer, **WRITE_ERRORS},
                   summary="a side withdraws its entry")
    def post(self, request, match_id, entry_id):
        _valid(EntryNoteInputSerializer, request)
        code, address = self.side()
        services.withdraw_entry(entry_id, code, address=address, match_id=match_id)
        return Response(HandEntrySerializer(_entry(match_id, entry_id)).data, status=status.HTTP_201_CREATED)


def _entry(match_id, entry_id):
    return presenters.entry_data(waiting.entries_of(match_id, limit=None, ids=[entry_id])[0])


class DecideView(APIView):
    """A referee of the match (its floor referee, a chief) decides an entry disputed or waiting at time-up."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=EntryDecisionInputSerializer, responses={201: EntrySettledSerializer, **WRITE_ERRORS},
                   summary="the floor referee decides an entry")
    def post(self, request, match_id, entry_id):
        data = _valid(EntryDecisionInputSerializer, request)
        hand = _plain(data["hand"]) if data["hand"] else None
        if hand is not None:
            hand.pop("number", None)
        settled = services.decide_entry(entry_id, request.user, action=data["action"], inputs=hand,
                                        note=data["note"], match_id=match_id)
        return Response(EntrySettledSerializer(presenters.settled_data(settled)).data, status=status.HTTP_201_CREATED)


class SideCodeView(APIView):
    """The desk issues a side a new code (its old code dies); the code is shown once, for the side's slip."""

    permission_classes = [IsAuthenticated]
    shows_secret = True   # a code is shown once (410 on a retry)

    @extend_schema(request=SideCodeInputSerializer, responses={201: SideCodeIssuedSerializer, **WRITE_ERRORS},
                   summary="issue a side's code")
    def post(self, request, match_id):
        side = _valid(SideCodeInputSerializer, request)["side"]
        match = get_object_or_404(Match.objects.select_related("round__stage__event"), pk=match_id)
        if not access.may(request.user, access.VIEW, match=match):
            raise Http404
        code = codes.issue_code(match, side, request.user)
        body = {"match": match.pk, "table": match.table, "side": side, "code": code}
        return secret(Response(SideCodeIssuedSerializer(body).data, status=status.HTTP_201_CREATED))


class RoundCodesView(APIView):
    """The desk issues new codes for both sides of a round's open tables (the slips of a round)."""

    permission_classes = [IsAuthenticated]
    shows_secret = True   # the codes are shown once (410 on a retry)

    @extend_schema(request=RoundCodesInputSerializer, responses={201: SideCodeIssuedSerializer(many=True), **WRITE_ERRORS},
                   summary="issue the codes of a round's tables")
    def post(self, request, round_id):
        tables = _valid(RoundCodesInputSerializer, request)["tables"]
        rnd = get_object_or_404(Round.objects.select_related("stage__event"), pk=round_id)
        if not access.may(request.user, access.VIEW, event=rnd.stage.event):
            raise Http404
        issued = codes.issue_round_codes(rnd, request.user, tables=tables)
        body = [{"match": i.match_id, "table": i.table, "side": i.side, "code": i.code} for i in issued]
        return secret(Response(SideCodeIssuedSerializer(body, many=True).data, status=status.HTTP_201_CREATED))


class OpenEntriesView(APIView):
    """The entries waiting or disputed in an event, newest first: the desk's list, and with ``mine`` a floor
    referee's tables only."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: OpenHandEntrySerializer(many=True), 404: error_responses(404)[404]},
                   parameters=[OpenApiParameter("mine", bool, description="only the tables assigned to me")],
                   summary="the entries waiting in an event")
    def get(self, request, slug):
        event = get_object_or_404(Event, slug=slug)
        if not access.roles_of(request.user, event):
            raise Http404
        referee = request.user if request.query_params.get("mine") in ("1", "true") else None
        rows = presenters.open_entry_rows(waiting.open_entries(event=event, referee=referee))
        return Response(OpenHandEntrySerializer(rows, many=True).data)
