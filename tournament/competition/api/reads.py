"""REST reads a program needs to find its way without a person: an event's rounds with their ids, stage,
planned start, status and clock; the event's matches filtered by round, stage, status and table; one match
with its stage, round, table and planned start (what a partner needs besides, a Swiss stage's standings,
the unit standings and the offence codes, is :mod:`tournament.competition.api.partner`); one round, and its
planned start set by its organisers through the referee grid page's service
(:func:`tournament.competition.timetable.set_round_start`); the event's match changes as server-sent events
for scoreboards (:class:`EventFeed`).

Visible as the pages are (``tournament.access.visible_events``): published events for everybody, the
event's own for its staff. A round's status is :func:`tournament.competition.rounds.round_status`.
"""
from __future__ import annotations

import json

from django.db.models import Prefetch, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import permissions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import UserError, gettext_noop
from common.numbers import whole
from common.seats import SIDES
from infra import clock
from infra.api_errors import error_responses
from infra.inputs import StrictInput
from infra.renderers import EventStreamRenderer, JSONRenderer
from tournament import access
from tournament.access import visible_events
from tournament.competition import timetable
from tournament.competition.rounds import ROUND_STATUSES, round_status
from tournament.engines.clock import status_of
from tournament.models import ClockEvent, Match, Round
from tournament.records.notes import note_words

CLOCK_STATUSES = ["not_started", "running", "paused"]


class RoundReadSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    stage = serializers.IntegerField(source="stage_id")
    stage_name = serializers.CharField(source="stage.name")
    number = serializers.IntegerField()
    name = serializers.CharField(help_text="the round's name; empty when it has none")
    scheduled_start = serializers.DateTimeField(allow_null=True, help_text="planned start (null: none set)")
    status = serializers.ChoiceField(choices=ROUND_STATUSES,
                                     help_text="not_started, in_progress (the clock started or a table began) "
                                               "or closed (its results published by the chief)")
    clock = serializers.ChoiceField(source="clock_status", choices=CLOCK_STATUSES,
                                    help_text="the hall clock of the round")
    results_published_at = serializers.DateTimeField(allow_null=True)
    tables = serializers.IntegerField(source="table_count", help_text="how many matches the round has")


class MatchReadSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    stage = serializers.IntegerField(source="round.stage_id")
    stage_name = serializers.CharField(source="round.stage.name")
    round = serializers.IntegerField(source="round_id")
    round_number = serializers.IntegerField(source="round.number")
    round_name = serializers.CharField(source="round.name")
    scheduled_start = serializers.DateTimeField(source="round.scheduled_start", allow_null=True)
    group_name = serializers.CharField(source="group.name", default=None, allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    bracket_key = serializers.CharField()
    ns = serializers.IntegerField(source="ns_id", allow_null=True)
    ns_name = serializers.CharField(source="ns.name", default=None, allow_null=True)
    ew = serializers.IntegerField(source="ew_id", allow_null=True)
    ew_name = serializers.CharField(source="ew.name", default=None, allow_null=True)
    ns_source = serializers.CharField()
    ew_source = serializers.CharField()
    status = serializers.ChoiceField(choices=Match.Status.values)
    winner = serializers.ChoiceField(source="winner_side", choices=SIDES, allow_null=True,
                                     help_text='the winning side, "NS" or "EW" (null: none)')
    winner_pair = serializers.IntegerField(source="winner_id", allow_null=True, help_text="the winning pair's id")
    ns_level = serializers.CharField()
    ew_level = serializers.CharField()
    winner_name = serializers.CharField(source="winner.name", default=None, allow_null=True)
    result_note = serializers.CharField(help_text="the note as stored (Chinese: the record)")
    result_words = serializers.SerializerMethodField(help_text="the note in the answer's language (the results "
                                                               "sheet's 说明)")
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    changed_at = serializers.DateTimeField(help_text="the last change of this match (for changed_since)")
    referees = serializers.SerializerMethodField(help_text="the table referees' login names")

    def get_result_words(self, match) -> str:
        return note_words(match.result_note)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_referees(self, match):
        return [user.username for user in match.referees.all()]


def visible_event(request, slug):
    """The event of ``slug`` if the user may see it (else a 404)."""
    return get_object_or_404(visible_events(request.user), slug=slug)


def _matches():
    return (Match.objects.select_related("round__stage", "group", "ns", "ew", "winner").prefetch_related("referees")
            .order_by("round__stage__order", "round__number", "table", "pk"))


def whole_number(params, name):
    """A query's whole number ``name`` (None when not sent; else a 400 naming it)."""
    raw = params.get(name)
    if raw in (None, ""):
        return None
    value = whole(raw)   # ASCII digits, bounded: "²" or a 20-digit id is a 400, not a 500
    if value is None:
        raise UserError(gettext_noop("Enter a whole number of at least 0 for %(name)s."), field=name, name=name)
    return value


def round_rows(rounds):
    """The rounds of the queryset ``rounds`` as :class:`RoundReadSerializer` reads them (their clock, status
    and tables counted), in three queries however many they are."""
    marks = Prefetch("clock_events", queryset=ClockEvent.objects.order_by("at", "pk"), to_attr="marks")
    played = Prefetch("matches", queryset=Match.objects.only("pk", "round_id", "status", "started_at"),
                      to_attr="tables_read")
    rows = []
    for rnd in rounds.select_related("stage").prefetch_related(marks, played):
        clock = status_of(rnd.marks)
        rnd.clock_status, rnd.table_count = clock, len(rnd.tables_read)
        rnd.status = round_status(rnd, clock_started=clock != "not_started", matches=rnd.tables_read)
        rows.append(rnd)
    return rows


class EventRoundList(APIView):
    """The event's rounds, in play order, with the ids the clock, close and reopen operations need."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RoundReadSerializer(many=True), **error_responses(404)},
                   summary="the event's rounds")
    def get(self, request, slug):
        event = visible_event(request, slug)
        rows = round_rows(Round.objects.filter(stage__event=event).order_by("stage__order", "number"))
        return Response(RoundReadSerializer(rows, many=True).data)


FILTERS = [
    OpenApiParameter("round", OpenApiTypes.INT, description="a round's id"),
    OpenApiParameter("stage", OpenApiTypes.INT, description="a stage's id"),
    OpenApiParameter("status", OpenApiTypes.STR, enum=Match.Status.values, description="the match's status"),
    OpenApiParameter("table", OpenApiTypes.INT, description="the table number"),
    OpenApiParameter("changed_since", OpenApiTypes.DATETIME,
                     description="only the matches written after this time (ISO 8601 with offset): a poller "
                                 "passes the largest changed_at it read"),
]


# --------------------------------------------------------------------------- one round and its planned start
class RoundStartSerializer(StrictInput):
    closed = True

    scheduled_start = serializers.DateTimeField(
        required=False, allow_null=True,
        help_text="the round's planned start, ISO 8601 with its offset (null: none; not sent: unchanged)")

    def validate_scheduled_start(self, value):
        raw = self.initial_data.get("scheduled_start")
        try:
            parsed = parse_datetime(raw.replace(" ", "T")) if isinstance(raw, str) else None
        except ValueError:  # well formed but no such time (DRF refused it before)
            parsed = None
        if value is not None and (parsed is None or timezone.is_naive(parsed)):  # in which time zone? say it
            raise UserError(gettext_noop("Enter a date and time with its offset (ISO 8601) for %(name)s."),
                            field="scheduled_start", name="scheduled_start")
        return value


class IsRoundOrganiserToWrite(permissions.BasePermission):
    """One round: anyone who may see its event reads (the view finds it among the visible events); its
    organisers (manage_event) plan it, as on the referee grid page (``competition_referee_grid``)."""

    message = gettext_lazy("Only organisers may plan the schedule and draw.")
    anonymous_read = True  # the API's description: readable without credentials (infra.api_schema)

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or request.user.is_authenticated

    def has_object_permission(self, request, view, rnd):
        return request.method in permissions.SAFE_METHODS or access.may(request.user, access.MANAGE,
                                                                         event=rnd.stage.event)


class RoundDetail(APIView):
    """One round as the event's round list reads it; its organisers set or clear its planned start."""

    permission_classes = [IsRoundOrganiserToWrite]
    serializer_class = RoundStartSerializer

    def get_round(self, request, round_id):
        rnd = get_object_or_404(Round.objects.select_related("stage__event"), pk=round_id,
                                stage__event__in=visible_events(request.user))
        self.check_object_permissions(request, rnd)
        return rnd

    def _answer(self, rnd):
        return Response(RoundReadSerializer(round_rows(Round.objects.filter(pk=rnd.pk))[0]).data)

    @extend_schema(responses={200: RoundReadSerializer, **error_responses(404)}, summary="one round",
                   operation_id="rounds_retrieve")
    def get(self, request, round_id):
        return self._answer(self.get_round(request, round_id))

    @extend_schema(request=RoundStartSerializer, responses={200: RoundReadSerializer,
                                                            **error_responses(400, 403, 404, 409)},
                   summary="set a round's planned start (organisers)", operation_id="rounds_update")
    def patch(self, request, round_id):
        rnd = self.get_round(request, round_id)
        data = RoundStartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "scheduled_start" in data.validated_data:
            timetable.set_round_start(rnd, data.validated_data["scheduled_start"])
        return self._answer(rnd)


class EventMatchList(APIView):
    """The event's matches (every stage and round), filtered by round, stage, status and table; with
    ``status=finished`` the event's results (the results sheet's rows: winner, levels, note)."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=FILTERS, responses={200: MatchReadSerializer(many=True), **error_responses(400, 404)},
                   summary="the event's matches")
    def get(self, request, slug):
        event = visible_event(request, slug)
        found = _matches().filter(round__stage__event=event)
        params = request.query_params
        for name, lookup in (("round", "round_id"), ("stage", "round__stage_id"), ("table", "table")):
            value = whole_number(params, name)
            if value is not None:
                found = found.filter(**{lookup: value})
        status = params.get("status")
        if status:
            if status not in Match.Status.values:
                raise UserError(gettext_noop("Unknown match status: choose one of %(choices)s."), field="status",
                                choices="/".join(Match.Status.values))
            found = found.filter(status=status)
        at = _changed_since(params)
        if at is not None:
            found = found.filter(changed_at__gt=at)
        return Response(MatchReadSerializer(found, many=True).data)


def _changed_since(params):
    """The list's ``changed_since``: None when not sent; sent, one date and time with its offset, else a 400
    naming it (sent empty or twice included: a poller that lost its cursor must not read "everything")."""
    if "changed_since" not in params:
        return None
    sent = params.getlist("changed_since")
    try:  # a "+" not escaped in a query arrives as a space; ASCII only (Django's parser takes "２０２６" too)
        at = parse_datetime(sent[0].strip().replace(" ", "+")) if len(sent) == 1 and sent[0].isascii() else None
    except ValueError:  # well formed but no such time (month 13)
        at = None
    if at is None or timezone.is_naive(at):
        raise UserError(gettext_noop("Enter a date and time with its offset (ISO 8601) for %(name)s."),
                        field="changed_since", name="changed_since")
    return at


# --------------------------------------------------------------------------- the feed of changes, for scoreboards
FEED_BATCH = 500        # matches per answer at most: the rest come with the reconnection
FEED_RETRY_MS = 5000    # how long an EventSource waits before it reconnects for what changed meanwhile


def feed_id(changed_at, match_id) -> str:
    """An event's id in the feed: the match's last change and its id (a cursor that also orders matches
    written in the same instant)."""
    return f"{changed_at.isoformat()}|{match_id}"


def _feed_cursor(raw):
    at_text, _bar, pk_text = raw.partition("|")
    try:
        at = parse_datetime(at_text)
    except ValueError:  # well formed but no such time
        at = None
    pk = whole(pk_text)
    if at is None or timezone.is_naive(at) or pk is None:
        raise UserError(gettext_noop("Send back the id of the last event this feed gave (Last-Event-ID)."),
                        field="Last-Event-ID", error_code="invalid")
    return at, pk


FEED_EVENTS = ("server-sent events, each with `event` (ready: the cursor to start from; match: a match changed), "
               "`id` (the cursor: send it back as Last-Event-ID) and `data` (JSON text: {} for ready, the match as "
               "GET /api/matches/<id>/ reads it for match); the answer begins with `retry` (milliseconds before "
               "reconnecting)")


class EventFeed(APIView):
    """The event's match changes as server-sent events (``text/event-stream``), for scoreboards.

    Each answer holds what changed after ``Last-Event-ID`` (the header an EventSource sends on reconnecting;
    ``last_event_id`` in the query for other clients): one ``match`` event per changed match, its data the
    match as ``GET /api/matches/<id>/`` reads it, its id the cursor to send next. Without a cursor, one
    ``ready`` event gives the cursor to start from (read the state first: the match list). The answer then
    ends and says ``retry``: a browser's EventSource reconnects by itself, so no worker is held open."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, EventStreamRenderer]   # JSON for its refusals
    no_store = True  # never stored, so no ETag (the schema says neither)

    @extend_schema(
        parameters=[OpenApiParameter("format", exclude=True),   # the answer is server-sent events, always
                    OpenApiParameter("Last-Event-ID", OpenApiTypes.STR, location=OpenApiParameter.HEADER,
                                     description="the id of the last event received (EventSource sends it)"),
                    OpenApiParameter("last_event_id", OpenApiTypes.STR,
                                     description="the same, for a client that cannot set the header")],
        responses={(200, "text/event-stream"): OpenApiResponse(OpenApiTypes.ANY, description=FEED_EVENTS),
                   **error_responses(400, 404)},
        summary="the event's match changes as server-sent events")
    def get(self, request, slug):
        event = visible_event(request, slug)
        raw = request.headers.get("Last-Event-ID") or request.query_params.get("last_event_id")
        parts = [f"retry: {FEED_RETRY_MS}\n\n"]
        matches = Match.objects.filter(round__stage__event=event)
        if not raw:
            latest = matches.order_by("-changed_at", "-pk").values_list("changed_at", "pk").first()
            parts.append(f"id: {feed_id(*(latest or (clock.now(), 0)))}\nevent: ready\ndata: {{}}\n\n")
        else:
            at, pk = _feed_cursor(raw)
            changed = (_matches().filter(round__stage__event=event)
                       .filter(Q(changed_at__gt=at) | Q(changed_at=at, pk__gt=pk)).order_by("changed_at", "pk"))
            for match in changed[:FEED_BATCH]:
                data = json.dumps(MatchReadSerializer(match).data, ensure_ascii=False, separators=(",", ":"))
                parts.append(f"id: {feed_id(match.changed_at, match.pk)}\nevent: match\ndata: {data}\n\n")
        response = HttpResponse("".join(parts), content_type="text/event-stream; charset=utf-8")
        response["Cache-Control"] = "no-store"
        return response


class MatchRead(APIView):
    """One match with its stage, round, table, planned start, entries and result."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: MatchReadSerializer, **error_responses(404)}, summary="one match")
    def get(self, request, match_id):
        match = get_object_or_404(_matches(), pk=match_id, round__stage__event__in=visible_events(request.user))
        return Response(MatchReadSerializer(match).data)
