"""REST API of the competition: read stages, groups, rounds and matches, standings and the final
ranking (published events for everybody, all events for staff); organisers create stages and draw.

Refusals from the services reach the one API error handler (``infra.api_errors``) as
``{"field", "detail"}``; a database race answers 409.

The reads for programs are its module `reads` (so `**.api` in .importlinter covers them all); no name this
module imports may be a submodule's name (importing the submodule would overwrite it)."""
from __future__ import annotations

from django.db import IntegrityError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import ConflictError, UserError, gettext_noop
from common.seats import SIDES
from infra.api_errors import error_responses
from infra.inputs import StrictInput
from tournament import access
from tournament.access import visible_events
from tournament.competition import draws, group_standings, placings, stages
from tournament.models import Draw, Group, Match, Stage


class IsOrganiserOrReadOnly(permissions.BasePermission):
    """Anyone may read what is visible; only organisers (manage_event) may write."""

    message = gettext_lazy("Only organisers may plan the schedule and draw.")
    anonymous_read = True  # the API's description: readable without credentials (infra.api_schema)

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        event = access.event_from_kwargs(view.kwargs)
        return event is None or access.may(request.user, access.MANAGE, event=event)


# --------------------------------------------------------------------------- serializers
class StandingEntrySerializer(serializers.Serializer):
    pair_id = serializers.IntegerField()
    name = serializers.CharField()
    unit = serializers.CharField()
    withdrawn = serializers.BooleanField()


class CompetitionGroupSerializer(serializers.ModelSerializer):
    entries = serializers.SerializerMethodField()

    class Meta:
        model = Group
        fields = ["id", "name", "order", "entries"]

    def get_entries(self, group) -> list[int]:
        return [m.pair_id for m in group.memberships.all()]


class StageSerializer(serializers.ModelSerializer):
    groups = CompetitionGroupSerializer(many=True, read_only=True)

    class Meta:
        model = Stage
        fields = ["id", "order", "kind", "name", "settings", "source", "groups"]


class StageSettingsSerializer(StrictInput):
    """The organiser's overrides of a stage's options (``tournament.competition.stages``); keys it does not name
    are refused."""

    closed = True
    n_groups = serializers.IntegerField(required=False, min_value=1, help_text="round robin only")
    seeded = serializers.IntegerField(required=False, min_value=0)
    first_table = serializers.IntegerField(required=False, min_value=1)
    qualifiers_per_group = serializers.IntegerField(required=False, min_value=1)
    forfeit_rule = serializers.ChoiceField(choices=["largest_margin", "recorded"], required=False)
    places_played = serializers.ChoiceField(choices=[2 ** k for k in range(1, 11)], required=False,
                                            help_text="elimination: a power of two (2, 4, 8…)")
    third_place_match = serializers.BooleanField(required=False)
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=stages.MAX_SWISS_ROUNDS)


class StageCreateSerializer(StrictInput):
    from_format = serializers.BooleanField(default=False, help_text="create every stage from the event's format")
    kind = serializers.ChoiceField(choices=Stage.Kind.choices, required=False, help_text="needed unless from_format")
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=stages.NAME_MAX_LENGTH)
    source = serializers.IntegerField(required=False, allow_null=True, default=None)
    settings = StageSettingsSerializer(required=False, default=dict)

    #: The description states it (infra.api_schema): every stage from the format, or one stage of a kind.
    one_of = [
        {"title": "from the format", "properties": {"from_format": {"enum": [True]}}, "required": ["from_format"]},
        {"title": "one stage", "properties": {"from_format": {"enum": [False]}}, "required": ["kind"]},
    ]


class MatchSerializer(serializers.ModelSerializer):
    round_number = serializers.IntegerField(source="round.number", read_only=True)
    round_name = serializers.CharField(source="round.name", read_only=True)
    group_name = serializers.CharField(source="group.name", read_only=True, default=None, allow_null=True)
    referees = serializers.SlugRelatedField(many=True, read_only=True, slug_field="username")
    winner = serializers.ChoiceField(source="winner_side", choices=SIDES, allow_null=True, read_only=True,
                                     help_text='the winning side, "NS" or "EW" (null: none)')
    winner_pair = serializers.PrimaryKeyRelatedField(source="winner", read_only=True, allow_null=True,
                                                     help_text="the winning pair's id")

    class Meta:
        model = Match
        fields = ["id", "round_number", "round_name", "group_name", "table", "bracket_key", "ns", "ew",
                  "ns_source", "ew_source", "status", "winner", "winner_pair", "ns_level", "ew_level", "result_note",
                  "referees"]


class DrawSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True, help_text="pairs / groups / bracket / seats / tables")
    supersedes = serializers.PrimaryKeyRelatedField(read_only=True, allow_null=True)
    created_by = serializers.SlugRelatedField(read_only=True, slug_field="username")
    in_force = serializers.SerializerMethodField()

    class Meta:
        model = Draw
        fields = ["id", "kind", "seed", "params", "result", "supersedes", "created_by", "created_at", "in_force"]

    def get_in_force(self, draw) -> bool:
        return not hasattr(draw, "superseded_by") and not draw.is_void  # a void cancels, it is never in force


#: The options each kind of draw takes (any other is refused).
DRAW_OPTIONS = {Draw.Kind.GROUPS: ("seed", "n_groups", "seeded", "entries"), Draw.Kind.BRACKET: ("seed", "entries"),
                Draw.Kind.SEATS: ("seed",), Draw.Kind.TABLES: ("seed", "first_table")}


class DrawCreateSerializer(StrictInput):
    kind = serializers.ChoiceField(choices=sorted(draws.DRAWERS), help_text="groups / bracket / seats / tables")
    seed = serializers.CharField(required=False, allow_blank=True, max_length=64,
                                 help_text="the seed of the draw; empty: a random seed")
    n_groups = serializers.IntegerField(required=False, min_value=1)
    seeded = serializers.IntegerField(required=False, min_value=0)
    entries = serializers.ListField(child=serializers.IntegerField(), required=False)
    first_table = serializers.IntegerField(required=False, min_value=1)

    #: The description states which options each kind takes (infra.api_schema).
    one_of = [{"title": f"{kind} draw", "required": ["kind"],
               "properties": {"kind": {"enum": [str(kind)]}},
               "not": {"anyOf": [{"required": [name]} for name in
                                 ("seed", "n_groups", "seeded", "entries", "first_table") if name not in options]}}
              for kind, options in DRAW_OPTIONS.items()]


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = StandingEntrySerializer()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    points = serializers.FloatField()
    net_levels = serializers.IntegerField()
    total_levels = serializers.IntegerField()
    decided_by = serializers.CharField(allow_null=True)
    tie_note = serializers.CharField()
    shared = serializers.BooleanField()
    lot_pending = serializers.BooleanField()


class GroupTableSerializer(serializers.Serializer):
    group_id = serializers.IntegerField()
    name = serializers.CharField()
    rows = StandingRowSerializer(many=True)
    entries = StandingEntrySerializer(many=True)
    cross = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
    complete = serializers.BooleanField()
    notes = serializers.ListField(child=serializers.CharField())
    order_labels = serializers.ListField(child=serializers.CharField())


class StageStandingsSerializer(serializers.Serializer):
    stage_id = serializers.IntegerField()
    name = serializers.CharField()
    complete = serializers.BooleanField()
    groups = GroupTableSerializer(many=True)


class FinalPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    entry = StandingEntrySerializer()
    shared = serializers.BooleanField()
    how = serializers.CharField()


class AwardSerializer(serializers.Serializer):
    title = serializers.CharField()
    places = FinalPlaceSerializer(many=True)


class RankingSerializer(serializers.Serializer):
    complete = serializers.BooleanField()
    places = FinalPlaceSerializer(many=True, help_text="The ranked entries, best first; a disqualified entry "
                                                       "is not among them and the entries below it move up.")
    awards = AwardSerializer(many=True)
    disqualified = StandingEntrySerializer(many=True, help_text="The disqualified entries (取消比赛资格): their "
                                                                "results stand, but they take no place and no award.")


CONFLICT = gettext_noop("Somebody changed the schedule at the same time: reload and retry.")


# --------------------------------------------------------------------------- views
def visible_stage(request, pk) -> Stage:
    return get_object_or_404(Stage.objects.select_related("event__profile"),
                             pk=pk, event__in=visible_events(request.user))


class StageListCreate(generics.GenericAPIView):
    """Stages of an event (GET); organisers create one, or all from the event's format (POST)."""

    permission_classes = [IsOrganiserOrReadOnly]
    serializer_class = StageSerializer

    def event(self):
        return get_object_or_404(visible_events(self.request.user).select_related("profile"), slug=self.kwargs["slug"])

    @extend_schema(responses=StageSerializer(many=True))
    def get(self, request, slug):
        found = self.event().stages.order_by("order").prefetch_related("groups__memberships")
        return Response(StageSerializer(found, many=True).data)

    @extend_schema(request=StageCreateSerializer,
                   responses={201: StageSerializer(many=True), **error_responses(400, 403, 404, 409)})
    def post(self, request, slug):
        event = self.event()
        data = StageCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            if v["from_format"]:
                created = stages.create_stages_from_format(event)
            else:
                if not v.get("kind"):
                    raise UserError(gettext_noop("Choose the kind of stage."), field="kind")
                source = event.stages.filter(pk=v["source"]).first() if v["source"] else None
                if v["source"] and source is None:
                    raise UserError(gettext_noop("The qualifiers' source is not a stage of this event."),
                                    field="source")
                created = [stages.create_stage(event, v["kind"], name=v["name"], source=source, settings=v["settings"])]
        except IntegrityError:
            raise ConflictError(CONFLICT) from None
        return Response(StageSerializer(created, many=True).data, status=status.HTTP_201_CREATED)


class StageDetail(generics.GenericAPIView):
    """One stage with its groups and their entries."""

    serializer_class = StageSerializer

    def get(self, request, pk):
        return Response(StageSerializer(visible_stage(request, pk)).data)


class StageMatches(generics.GenericAPIView):
    """The stage's rounds and matches (tables, entries, sources, results, referees)."""

    serializer_class = MatchSerializer

    @extend_schema(responses=MatchSerializer(many=True))
    def get(self, request, pk):
        stage = visible_stage(request, pk)
        found = (Match.objects.filter(round__stage=stage).select_related("round", "group")
                 .prefetch_related("referees").order_by("round__number", "table", "pk"))
        return Response(MatchSerializer(found, many=True).data)


class StageStandingsView(generics.GenericAPIView):
    """Standings with tie-break notes and crosstables of a round-robin stage."""

    serializer_class = StageStandingsSerializer

    @extend_schema(responses={200: StageStandingsSerializer, **error_responses(400, 404)})
    def get(self, request, pk):
        result = group_standings.stage_standings(visible_stage(request, pk))
        return Response(StageStandingsSerializer(result).data)


class RankingView(APIView):
    """The event's final ranking and award list, from recorded results only."""

    @extend_schema(responses=RankingSerializer)
    def get(self, request, slug):
        event = get_object_or_404(visible_events(request.user).select_related("profile"), slug=slug)
        ranked = placings.event_ranking(event)
        data = {"complete": ranked.complete, "places": ranked.places, "awards": placings.award_list(event, ranked.pair),
                "disqualified": ranked.disqualified}
        return Response(RankingSerializer(data).data)


class StageDraws(generics.GenericAPIView):
    """The stage's draws with their seeds, newest first (GET); organisers draw or redraw (POST)."""

    permission_classes = [IsOrganiserOrReadOnly]
    serializer_class = DrawSerializer

    @extend_schema(responses=DrawSerializer(many=True))
    def get(self, request, pk):
        return Response(DrawSerializer(draws.draw_history(visible_stage(request, pk)), many=True).data)

    @extend_schema(request=DrawCreateSerializer, responses={201: DrawSerializer, **error_responses(400, 403, 404, 409)})
    def post(self, request, pk):
        stage = visible_stage(request, pk)
        data = DrawCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        options = dict(data.validated_data)
        kind = options.pop("kind")
        extra = sorted(set(options) - set(DRAW_OPTIONS[kind]))
        if extra:
            raise UserError(gettext_noop("The %(kind)s draw does not take %(fields)s."), field=extra[0],
                            kind=kind, fields=", ".join(extra))
        try:
            draw = draws.do_draw(stage, kind, user=request.user, **options)
        except IntegrityError:
            raise ConflictError(CONFLICT) from None
        return Response(DrawSerializer(draw).data, status=status.HTTP_201_CREATED)

