"""REST API of the hall clocks.

    GET  api/rounds/<round_id>/clock/          the live clock every display polls (public for published
                                               events; at most 2 SQL queries: the shared part is cached)
    POST api/rounds/<round_id>/clock/actions/  start / pause / resume / add / table_extra (chief referee)

Errors answer ``{"detail": <Chinese message>}``: 400 bad input, 403 not allowed, 404 not visible,
409 conflict.
"""
from django.core.cache import cache
from django.db import IntegrityError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from . import clock_services as services
from .models import Match, Round
from .visibility import is_staff_member

STAFF_CACHE_SECONDS = 60
ACTIONS = ["start", "pause", "resume", "add", "table_extra"]


# --------------------------------------------------------------------------------------------
# Serializers (the live clock is documented; the view answers plain dicts from the cache)
# --------------------------------------------------------------------------------------------
class ClockTableSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    ns = serializers.CharField()
    ew = serializers.CharField()
    ns_level = serializers.CharField()
    ew_level = serializers.CharField()
    status = serializers.CharField()
    playing = serializers.BooleanField()
    ended = serializers.BooleanField()
    winner = serializers.CharField()
    recorded = serializers.IntegerField(allow_null=True)
    hand_in_play = serializers.IntegerField(allow_null=True)
    last_hand = serializers.IntegerField(allow_null=True)
    hands_left = serializers.IntegerField(allow_null=True, help_text="null: no limit yet")
    extra_seconds = serializers.IntegerField()
    remaining_seconds = serializers.FloatField(help_text="this table's own remaining time")
    ends_at = serializers.DateTimeField(allow_null=True)


class ClockRoundSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    event_slug = serializers.CharField()
    event_name = serializers.CharField()
    published = serializers.BooleanField()


class LiveClockSerializer(serializers.Serializer):
    """The round clock read at ``server_now``: displays measure their offset from it."""

    server_now = serializers.DateTimeField()
    round = ClockRoundSerializer()
    rule_error = serializers.CharField()
    status = serializers.ChoiceField(choices=["not_started", "running", "paused", "time_up"])
    length_seconds = serializers.FloatField(allow_null=True)
    remaining_seconds = serializers.FloatField(allow_null=True)
    remaining_text = serializers.CharField(required=False)
    ends_at = serializers.DateTimeField(allow_null=True)
    announce_at = serializers.DateTimeField(allow_null=True)
    announced = serializers.BooleanField()
    announced_at = serializers.DateTimeField(allow_null=True, required=False)
    time_up = serializers.BooleanField()
    banner = serializers.CharField()
    hands_after = serializers.IntegerField(allow_null=True, required=False)
    tables = ClockTableSerializer(many=True)


class ClockActionSerializer(serializers.Serializer):
    """A chief referee's change of the clock."""

    action = serializers.ChoiceField(choices=ACTIONS)
    minutes = serializers.IntegerField(required=False, help_text="for add / table_extra; may be negative")
    match = serializers.IntegerField(required=False, help_text="the table (match id) for table_extra")
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


class ClockErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()


# --------------------------------------------------------------------------------------------
# Permissions
# --------------------------------------------------------------------------------------------
def may_view(request, data) -> bool:
    """Published rounds for everybody; others for staff (the staff flag is cached per user)."""
    if data["round"]["published"]:
        return True
    user = request.user
    if not user.is_authenticated:
        return False
    key = f"clock:staff:{user.pk}"
    flag = cache.get(key)
    if flag is None:
        flag = is_staff_member(user)
        cache.set(key, flag, STAFF_CACHE_SECONDS)
    return flag


def can_run_clock(user) -> bool:
    """Chief referees (the run_clock permission) and superusers."""
    return user.is_authenticated and user.has_perm("tournament.run_clock")


def apply_action(rnd, user, action, minutes=None, match_id=None, note=""):
    """Run one clock action for a view; ValueError for bad input (Chinese, naming the field)."""
    if action in ("add", "table_extra") and minutes is None:
        raise ValueError(_("minutes: enter the number of minutes."))
    if action == "start":
        return services.start_clock(rnd, user)
    if action == "pause":
        return services.pause_clock(rnd, user, note=note)
    if action == "resume":
        return services.resume_clock(rnd, user)
    if action == "add":
        return services.add_time(rnd, user, minutes, note=note)
    if action == "table_extra":
        match = Match.objects.filter(pk=match_id, round=rnd).first() if match_id else None
        if match is None:
            raise ValueError(_("match: choose a table of this round."))
        return services.grant_table_time(match, user, minutes, note=note)
    raise ValueError(f"action: 未知的操作 {action!r}（unknown action）")


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------
class RoundClockView(APIView):
    """The live round clock (what the hall display, consoles and public pages poll)."""

    permission_classes = [AllowAny]
    serializer_class = LiveClockSerializer

    @extend_schema(responses={200: LiveClockSerializer, 404: ClockErrorSerializer})
    def get(self, request, round_id):
        data = services.display_data(round_id)
        if data is None or not may_view(request, data):
            raise Http404
        response = Response(services.live_clock(data))
        response["Cache-Control"] = "no-store"
        return response


class ClockActionView(APIView):
    """Change the round clock (chief referee): start, pause, resume, add minutes, extra time for a table."""

    permission_classes = [IsAuthenticated]
    serializer_class = ClockActionSerializer

    @extend_schema(request=ClockActionSerializer,
                   responses={200: LiveClockSerializer, 400: ClockErrorSerializer, 403: ClockErrorSerializer,
                              404: ClockErrorSerializer, 409: ClockErrorSerializer})
    def post(self, request, round_id):
        rnd = get_object_or_404(Round.objects.select_related("stage__event__profile"), pk=round_id)
        if not can_run_clock(request.user):
            return Response({"detail": _("Only the chief referee can run the clock.")},
                            status=status.HTTP_403_FORBIDDEN)
        serializer = ClockActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        values = serializer.validated_data
        try:
            apply_action(rnd, request.user, values["action"], values.get("minutes"), values.get("match"),
                         values.get("note", ""))
        except ValueError as exc:
            return Response({"detail": str(exc)}, status=status.HTTP_400_BAD_REQUEST)
        except IntegrityError:
            return Response({"detail": _("The clock was changed by someone else at the same moment; reload.")},
                            status=status.HTTP_409_CONFLICT)
        services.invalidate_display(round_id)
        return Response(services.live_clock(services.display_data(round_id)))
