"""Entries API: GET lists an event's pairs (no phone numbers); POST (organisers) enters a pair; one entry read
(``GET /api/entries/<id>/``) and corrected (``PATCH``, organisers) through the service the organiser's page
uses (:func:`tournament.entries.pairs.edit_pair`): the same cleaning, limits and locks as the form and the
import.

A pair's removal is its module `removal` (so `**.api` in .importlinter covers them all); no name this module
imports may be a submodule's name (importing the submodule would overwrite it)."""
from django.db import IntegrityError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from common.errors import ConflictError, gettext_noop
from common.naturalsort import natural_key
from infra.api_errors import error_responses
from infra.inputs import StrictInput
from tournament import access
from tournament.access import visible_events
from tournament.entries import pairs as entry_pairs
from tournament.entries import services as svc
from tournament.entries.limits import LABELS, LIMITS, MAX_SEED, NAME_TOO_LONG
from tournament.form_fields import said
from tournament.models import Pair


def _name(key, **kwargs):
    """A name field refused past its limit in the forms' words (:data:`tournament.entries.limits.LIMITS`)."""
    return serializers.CharField(max_length=LIMITS[key], error_messages={"max_length": said(
        NAME_TOO_LONG, label=LABELS.get(key, key), max=LIMITS[key])}, **kwargs)


class EntryPlayerSerializer(StrictInput):
    name = _name("player1")
    gender = serializers.ChoiceField(choices=["M", "F"])
    phone = serializers.CharField(max_length=30, required=False, allow_blank=True, write_only=True)


class EntrySerializer(StrictInput):
    """A pair as read (``id``, ``status``) and as written (everything else)."""

    id = serializers.IntegerField(read_only=True)
    name = _name("name", required=False, allow_blank=True)
    unit = _name("unit")
    player1 = EntryPlayerSerializer()
    player2 = EntryPlayerSerializer()
    seed = serializers.IntegerField(min_value=1, max_value=MAX_SEED, required=False, allow_null=True)
    team = _name("team", required=False, allow_blank=True)
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


class EntryChangeSerializer(EntrySerializer):
    """A correction (PATCH): only the fields sent change; a player sent is the whole player (its name and
    gender; its phone kept when not sent). Checked as the whole pair by the service, as the form is."""

    unit = _name("unit", required=False)
    player1 = EntryPlayerSerializer(required=False)
    player2 = EntryPlayerSerializer(required=False)
    reserve = serializers.BooleanField(required=False)

    def to_data_over(self, current: svc.PairData) -> svc.PairData:
        """The pair ``current`` with what was sent in its place."""
        d = self.validated_data

        def player(key, now):
            sent = d.get(key)
            return now if sent is None else svc.PlayerData(sent["name"], sent["gender"], sent.get("phone", now.phone))

        return svc.PairData(unit=d.get("unit", current.unit), name=d.get("name", current.name),
                            seed=d["seed"] if "seed" in d else current.seed, team=d.get("team", current.team),
                            reserve=d.get("reserve", current.reserve), player1=player("player1", current.player1),
                            player2=player("player2", current.player2))


class IsOrganiserToWrite(permissions.BasePermission):
    """Anyone who may see the event reads; only organisers (manage_event) write."""

    anonymous_read = True  # the API's description: readable without credentials (infra.api_schema)

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


class IsEventOrganiserToWrite(permissions.BasePermission):
    """One entry: anyone who may see its event reads (the view finds it among the visible events); only the
    event's organisers (manage_event) write."""

    anonymous_read = True  # the API's description: readable without credentials (infra.api_schema)
    message = _("Only organisers may manage the competition.")

    def has_permission(self, request, view):
        return request.method in permissions.SAFE_METHODS or request.user.is_authenticated

    def has_object_permission(self, request, view, pair):
        return request.method in permissions.SAFE_METHODS or access.may(request.user, access.MANAGE,
                                                                         event=pair.event)


class EntryDetail(GenericAPIView):
    """One entry (pair): read, and corrected by the event's organisers while the entries are open."""

    serializer_class = EntrySerializer
    permission_classes = [IsEventOrganiserToWrite]

    def get_object(self):
        pair = get_object_or_404(Pair.objects.select_related("event", "unit", "team", "player1", "player2"),
                                 pk=self.kwargs["pk"], event__in=visible_events(self.request.user))
        self.check_object_permissions(self.request, pair)
        return pair

    @extend_schema(summary="One entry (pair)", operation_id="entries_retrieve",
                   responses={200: EntrySerializer, **error_responses(404)})
    def get(self, request, pk):
        return Response(EntrySerializer(self.get_object()).data)

    @extend_schema(summary="Correct an entry (organisers; only the fields sent change)", operation_id="entries_update",
                   request=EntryChangeSerializer, responses={
                       200: EntrySerializer, **error_responses(400, 403, 404, 409)})
    def patch(self, request, pk):
        pair = self.get_object()
        serializer = EntryChangeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            pair = entry_pairs.edit_pair(pair, serializer.to_data_over(entry_pairs.pair_data(pair)))
        except IntegrityError:
            raise ConflictError(gettext_noop("Another organiser has just changed the entries: reload and retry.")) \
                from None
        return Response(EntrySerializer(pair).data)
