"""REST API for events."""
from rest_framework import serializers, viewsets

from tournament.access import visible_events
from tournament.models import Event


class EventSerializer(serializers.ModelSerializer):
    profile_slug = serializers.CharField(source="profile.slug", read_only=True)
    profile_version = serializers.IntegerField(source="profile.version", read_only=True)

    class Meta:
        model = Event
        fields = ["slug", "name", "start_date", "end_date", "venue", "format", "published",
                  "profile_slug", "profile_version"]


class EventViewSet(viewsets.ReadOnlyModelViewSet):
    """Events: published ones for everybody, all of them for staff."""

    serializer_class = EventSerializer
    lookup_field = "slug"

    def get_queryset(self):
        return visible_events(self.request.user).select_related("profile")
