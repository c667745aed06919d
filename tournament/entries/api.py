"""Entries API: GET lists an event's pairs (no phone numbers); POST (organisers) enters a pair."""
from django.db import IntegrityError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from common.errors import ConflictError, gettext_noop
from common.naturalsort import natural_key
from config.api_errors import error_responses
from config.inputs import StrictInput
from tournament import access
from tournament.access import visible_events
from tournament.entries import pairs as entry_pairs
from tournament.entries import services as svc
from tournament.entries.limits import LIMITS, MAX_SEED
from tournament.models import Pair


class EntryPlayerSerializer(StrictInput):
    name = serializers.CharField(max_length=LIMITS["player1"])
    gender = serializers.ChoiceField(choices=["M", "F"])
    phone = serializers.CharField(max_length=30, required=False, allow_blank=True, write_only=True)


class EntrySerializer(StrictInput):
    """A pair as read (``id``, ``status``) and as written (everything else)."""

    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=LIMITS["name"], required=False, allow_blank=True)
    unit = serializers.CharField(max_length=LIMITS["unit"])
    player1 = EntryPlayerSerializer()
    player2 = EntryPlayerSerializer()
    seed = serializers.IntegerField(min_value=1, max_value=MAX_SEED, required=False, allow_null=True)
    team = serializers.CharField(max_length=LIMITS["team"], required=False, allow_blank=True)
    reserve = serializers.BooleanField(required=False, default=False)
    status = serializers.CharField(read_only=True)

    def to_representation(self, pair):
        return {"id": pair.pk, "name": pair.name, "unit": pair.unit.name, "seed": pair.seed,
                "team": pair.team.name if pair.team else "", "reserve": pair.reserve, "status": pair.status,
                "player1": {"name": pair.player1.name, "gender": pair.player1.gender},
                "player2": {"name": pair.player2.name, "gender": pair.player2.gender}}

    def to_data(self) -> svc.PairData:
        d = self.validated_data
        players = [svc.PlayerData(p["name"], p["gender"], p.get("phone", "")) for p in (d["player1"], d["player2"])]
        return svc.PairData(unit=d["unit"], name=d.get("name", ""), seed=d.get("seed"), team=d.get("team", ""),
                            reserve=d.get("reserve", False), player1=players[0], player2=players[1])


class IsOrganiserToWrite(permissions.BasePermission):
    """Anyone who may see the event reads; only organisers (manage_event) write."""

    anonymous_read = True  # the API's description: readable without credentials (config.api_schema)

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS:
            return True
        event = access.event_from_kwargs(view.kwargs)
        return event is None or access.may(request.user, access.MANAGE, event=event)


class EntryListCreate(GenericAPIView):
    """An event's entries."""

    serializer_class = EntrySerializer
    permission_classes = [IsOrganiserToWrite]
    pagination_class = None

    def get_event(self):
        return get_object_or_404(visible_events(self.request.user), slug=self.kwargs["event_slug"])

    @extend_schema(summary="List an event's entries (pairs)", operation_id="events_entries_list",
                   responses=EntrySerializer(many=True))
    def get(self, request, event_slug):
        pairs = Pair.objects.filter(event=self.get_event()).select_related("unit", "team", "player1", "player2")
        pairs = sorted(pairs, key=lambda p: (natural_key(p.unit.name), natural_key(p.name)))
        return Response(EntrySerializer(pairs, many=True).data)

    @extend_schema(summary="Enter a pair (organisers)", responses={
        201: EntrySerializer, **error_responses(400, 403, 404, 409)})
    def post(self, request, event_slug):
        event = self.get_event()
        serializer = EntrySerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            pair = entry_pairs.add_pair(event, serializer.to_data())
        except IntegrityError:
            raise ConflictError(gettext_noop("Another organiser has just changed the entries: reload and retry.")) \
                from None
        return Response(EntrySerializer(pair).data, status=status.HTTP_201_CREATED)
