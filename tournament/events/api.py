"""REST API for events: read (published ones for everybody, an event's own staff see it unpublished),
create (a superuser or an account allowed to create events; the creator becomes its organiser) and
change or publish (the event's organisers). Refusals answer ``{"field", "detail"}`` through the one handler."""
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.response import Response

from infra.api_errors import error_responses
from infra.inputs import StrictInput
from tournament import access
from tournament.access import visible_events
from tournament.events import services
from tournament.models import Event


class EventSerializer(serializers.ModelSerializer):
    profile = serializers.CharField(source="profile.slug", read_only=True, help_text="the rule profile's slug")
    profile_version = serializers.IntegerField(source="profile.version", read_only=True)

    class Meta:
        model = Event
        fields = ["slug", "name", "organising_body", "start_date", "end_date", "venue", "format", "published",
                  "profile", "profile_version", "hand_recorders"]
        extra_kwargs = {"hand_recorders": {"help_text": "who records the hands: the table's referee, the players "
                                                         "(the opponents confirm), or either (a referee's entry "
                                                         "needs no confirmation); a stage may say otherwise"}}


DATE_MESSAGES = {key: _("Enter a date such as 2026-12-05.") for key in ("required", "invalid", "null", "datetime")}
SLUG_MESSAGE = _("The web address may hold lower-case letters, digits and hyphens only.")
#: A rule profile's slug (``RuleProfile.slug``, a slug field).
PROFILE_SLUG = r"^[-a-zA-Z0-9_]+$"


class EventWriteSerializer(StrictInput):
    """What POST and PATCH accept (every field optional on PATCH); checked by the events service. A POST needs
    the name, both days and the rule profile."""

    name = serializers.CharField(max_length=200, error_messages={
        "required": _("Enter the event's name."), "blank": _("Enter the event's name."),
        "max_length": _("The name is too long (at most 200 characters).")})
    start_date = serializers.DateField(help_text="YYYY-MM-DD", error_messages=DATE_MESSAGES)
    end_date = serializers.DateField(help_text="YYYY-MM-DD; not before start_date", error_messages=DATE_MESSAGES)
    venue = serializers.CharField(required=False, allow_blank=True, max_length=200)
    profile = serializers.RegexField(PROFILE_SLUG, max_length=80, trim_whitespace=False,
                                     error_messages={key: _("Choose a rule profile.") for key in
                                                     ("required", "blank", "invalid", "max_length")},
                                     help_text="rule profile slug (its latest version unless profile_version)")
    profile_version = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)
    format = serializers.ChoiceField(choices=Event.Format.choices, required=False,
                                     error_messages={"invalid_choice": _("Choose a format from the list.")})
    slug = serializers.RegexField(services.SLUG_RE.pattern.replace("^", "^(?!new$)", 1), required=False,
                                  allow_blank=True, trim_whitespace=False, error_messages={"invalid": SLUG_MESSAGE},
                                  help_text="the web address; made from the name's pinyin when left out or empty")
    organising_body = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                            help_text="the organising body (主办单位)")
    published = serializers.BooleanField(required=False)
    hand_recorders = serializers.ChoiceField(choices=Event.Recorders.choices, required=False, help_text=(
        "who records the hands: referee (the default), players (the opponents confirm) or either"))


def _values(request, *, partial) -> dict:
    """The request's fields, checked as the description states them."""
    serializer = EventWriteSerializer(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    return {k: data[k] for k in services.FIELDS if k in data}


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
        event = services.create_event(request.user, _values(request, partial=False))
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EventWriteSerializer, responses={200: EventSerializer, **error_responses(400, 403, 404)})
    def partial_update(self, request, slug=None):
        event = self.get_object()
        if not access.may(request.user, access.MANAGE, event=event):
            raise PermissionDenied(_("Only organisers may manage the competition."))
        event = services.update_event(event, _values(request, partial=True))
        return Response(EventSerializer(event).data)
