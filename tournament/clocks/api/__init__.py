"""REST API of the hall clocks.

    GET  api/rounds/<round_id>/clock/          the live clock every display polls (public for published
                                               events; at most 2 SQL queries: the shared part is cached)
    POST api/rounds/<round_id>/clock/actions/  start / pause / resume / add / table_extra (chief referee)

Errors reach the one API handler (``infra.api_errors``): 400 bad input, 403 not allowed, 404 not
visible, 409 conflict.

The first lead of a hand is its module `lead` (so `**.api` in .importlinter covers them all); no name this
module imports may be a submodule's name (importing the submodule would overwrite it)."""
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import ForbiddenError, gettext_noop
from common.seats import SIDES
from infra.api_errors import error_responses
from infra.auth import UserThrottle
from infra.etags import hall_read_headers
from infra.inputs import StrictInput
from tournament import access
from tournament.clocks import display, services
from tournament.competition import display_cache
from tournament.models import Round

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
    winner = serializers.ChoiceField(choices=SIDES, allow_null=True, help_text='the winning side, "NS" or "EW" '
                                                                                 '(null: none)')
    winner_name = serializers.CharField(help_text="the winning pair's name (empty: none)")
    recorded = serializers.IntegerField(allow_null=True)
    hand_in_play = serializers.IntegerField(allow_null=True)
    last_hand = serializers.IntegerField(allow_null=True)
    hands_left = serializers.IntegerField(allow_null=True, help_text="null: no limit yet")
    extra_seconds = serializers.IntegerField()
    remaining_seconds = serializers.FloatField(allow_null=True, help_text="this table's own remaining time (null: "
                                               "the round is closed, no time shown)")
    ends_at = serializers.DateTimeField(allow_null=True)
    state = serializers.ChoiceField(choices=["not_started", "playing", "finished"],
                                    help_text="what the table shows, never ahead of its round's status")


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
    # a CharField: the same three values as the rounds list's status (RoundReadStatusEnum), one enum name
    round_status = serializers.CharField(
        help_text="the round's one status, as in the rounds list: not_started, in_progress (once its clock "
                  "started or a table began: the clock may then still be not_started) or closed (its results "
                  "published)")
    status = serializers.ChoiceField(choices=["not_started", "running", "paused", "time_up", "closed"],
                                     help_text="closed: the chief closed the round (its results published)")
    closed_at = serializers.DateTimeField(required=False, help_text="when the round was closed")
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
    byes = serializers.ListField(child=serializers.CharField(), help_text="the entries with a bye this round "
                                 "(their names): a bye is no table, so it is not among the tables")


class ClockActionSerializer(StrictInput):
    """A chief referee's change of the clock."""

    closed = True  # a key it does not name is refused, as each variant of the description says

    action = serializers.ChoiceField(choices=ACTIONS)
    minutes = serializers.IntegerField(required=False, min_value=-600, max_value=600,
                                       help_text="for add / table_extra: -600 to 600, not 0 (negative takes time off)")
    match = serializers.IntegerField(required=False, help_text="the table (match id) for table_extra")

    #: The description states what each action needs (infra.api_schema); the clock's service checks it.
    one_of = [
        {"title": "start, pause or resume", "properties": {"action": {"enum": ["start", "pause", "resume"]}}},
        {"title": "add", "properties": {"action": {"enum": ["add"]}, "minutes": {"not": {"enum": [0]}}},
         "required": ["minutes"]},
        {"title": "table_extra", "properties": {"action": {"enum": ["table_extra"]}, "minutes": {"not": {"enum": [0]}}},
         "required": ["minutes", "match"]},
    ]

    def validate_minutes(self, value):
        if value == 0:
            raise serializers.ValidationError(_("Enter a number of minutes from -600 to 600, not 0."))
        return value
    note = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")


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
    key = f"clock:staff:{user.pk}:{data['round']['event_slug']}"
    flag = cache.get(key)
    if flag is None:
        flag = access.is_staff(user, access.event_from_kwargs({"slug": data["round"]["event_slug"]}))
        cache.set(key, flag, STAFF_CACHE_SECONDS)
    return flag


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------
class RoundClockView(APIView):
    """The live round clock (what the hall display, consoles and public pages poll)."""

    permission_classes = [AllowAny]
    # What every display in the hall polls: never refused per address (a hall behind one router is one address),
    # only a signed-in reader's runaway rate is; the answer is a cacheable public read (a second) with an ETag.
    throttle_classes = [UserThrottle]
    serializer_class = LiveClockSerializer

    @extend_schema(responses={200: LiveClockSerializer, **error_responses(404)}, auth=[])
    def get(self, request, round_id):
        data = display.display_data(round_id)
        if data is None or not may_view(request, data):
            raise Http404
        return hall_read_headers(request, Response(display.live_clock(data)), public=data["round"]["published"])


class ClockActionView(APIView):
    """Change the round clock (chief referee): start, pause, resume, add minutes, extra time for a table."""

    permission_classes = [IsAuthenticated]
    serializer_class = ClockActionSerializer

    @extend_schema(request=ClockActionSerializer,
                   responses={200: LiveClockSerializer, **error_responses(400, 403, 404, 409)})
    def post(self, request, round_id):
        rnd = get_object_or_404(Round.objects.select_related("stage__event__profile"), pk=round_id)
        if not access.may(request.user, access.RUN_CLOCK, event=rnd.stage.event):
            raise ForbiddenError(gettext_noop("Only the chief referee can run the clock."))
        serializer = ClockActionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        values = serializer.validated_data
        services.apply_action(rnd, request.user, values["action"], values.get("minutes"), values.get("match"),
                              values.get("note", ""))
        display_cache.invalidate(round_id)
        return Response(display.live_clock(display.display_data(round_id)))
