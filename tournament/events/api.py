"""REST API for events: read (published ones for everybody, an event's own staff see it unpublished),
create (a superuser or an account allowed to create events; the creator becomes its organiser) and
change or publish (the event's organisers). Refusals answer ``{"field", "detail"}`` through the one handler."""
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.response import Response

from config.api_errors import error_responses
from tournament import access
from tournament.access import visible_events
from tournament.events import services
from tournament.models import Event


class EventSerializer(serializers.ModelSerializer):
    profile_slug = serializers.CharField(source="profile.slug", read_only=True)
    profile_version = serializers.IntegerField(source="profile.version", read_only=True)

    class Meta:
        model = Event
        fields = ["slug", "name", "organising_body", "start_date", "end_date", "venue", "format", "published",
                  "profile_slug", "profile_version"]


class EventWriteSerializer(serializers.Serializer):
    """What POST and PATCH accept (every field optional on PATCH); checked by the events service."""

    name = serializers.CharField(required=False)
    start_date = serializers.CharField(required=False, help_text="YYYY-MM-DD")
    end_date = serializers.CharField(required=False, help_text="YYYY-MM-DD")
    venue = serializers.CharField(required=False, allow_blank=True)
    profile = serializers.CharField(required=False, help_text="rule profile slug (its latest version)")
    profile_version = serializers.IntegerField(required=False)
    format = serializers.CharField(required=False, help_text=" | ".join(Event.Format.values))
    slug = serializers.CharField(required=False, help_text="made from the name's pinyin when left out")
    organiser_name = serializers.CharField(required=False, allow_blank=True, help_text="the organising body (主办单位)")
    organising_body = serializers.CharField(required=False, allow_blank=True)
    published = serializers.BooleanField(required=False)


def _values(data) -> dict:
    """The request's fields for the service (``organiser_name`` is the organising body)."""
    if not isinstance(data, dict):
        return {}
    values = {k: data[k] for k in services.FIELDS if k in data}
    if "organiser_name" in data and "organising_body" not in data:
        values["organising_body"] = data["organiser_name"]
    return values


class EventViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Events: published ones for everybody, the unpublished ones for their own staff."""

    serializer_class = EventSerializer
    lookup_field = "slug"

    def get_queryset(self):
        return visible_events(self.request.user).select_related("profile")

    @extend_schema(request=EventWriteSerializer, responses={201: EventSerializer, **error_responses(400, 403)})
    def create(self, request):
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        if not access.may(request.user, access.CREATE_EVENT):
            raise PermissionDenied(_("Only organisers may create events."))
        event = services.create_event(request.user, _values(request.data))
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EventWriteSerializer, responses={200: EventSerializer, **error_responses(400, 403, 404)})
    def partial_update(self, request, slug=None):
        event = self.get_object()
        if not access.may(request.user, access.MANAGE, event=event):
            raise PermissionDenied(_("Only organisers may manage the competition."))
        event = services.update_event(event, _values(request.data))
        return Response(EventSerializer(event).data)
