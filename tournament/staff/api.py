"""REST API for an event's staff (its organisers only): list, add (an existing login name gets the role
added and nothing else of the account changes; a new person gets an account and a one-time password
returned once, replaced at its first login), remove a role."""
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_errors import error_responses
from config.inputs import StrictInput
from tournament import access
from tournament.access import visible_events
from tournament.models import EventRole
from tournament.staff import services


class StaffSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    user_id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    display_name = serializers.SerializerMethodField()
    role = serializers.CharField()
    is_head = serializers.BooleanField(required=False)

    def get_display_name(self, row) -> str:
        return services.display_name(row.user)


class StaffInputSerializer(StrictInput):
    """A role for an existing login name (``username``), or for a new person (``display_name``; the login name
    from its pinyin unless ``username`` is given)."""

    username = serializers.RegexField(r"^[A-Za-z0-9_.@+-]{0,150}$", required=False, allow_blank=True, trim_whitespace=False,
                                      help_text="an existing account's login name, or the new account's")
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=150,
                                         help_text="a new person's name as shown (e.g. 张裁判); needed for a new "
                                                   "account")
    role = serializers.ChoiceField(choices=EventRole.Role.choices)
    password = serializers.RegexField(
        r"^([^\u0000]{6,})?$", required=False, allow_blank=True, trim_whitespace=False, max_length=128,
        help_text="A new person's one-time password, at least 6 characters (made when empty; replaced at the first "
                  "login). Refused (400) with the login name of an existing account: its password stays its owner's.")


def _event(request, slug):
    event = get_object_or_404(visible_events(request.user), slug=slug)
    if not access.may(request.user, access.MANAGE, event=event):
        raise PermissionDenied(_("Only organisers may manage the event's staff."))
    return event


class StaffListCreate(APIView):
    """An event's staff."""

    permission_classes = [IsAuthenticated]
    serializer_class = StaffSerializer

    @extend_schema(responses={200: StaffSerializer(many=True), **error_responses(403, 404)},
                   operation_id="events_staff_list")
    def get(self, request, slug):
        return Response(StaffSerializer(services.staff_rows(_event(request, slug)), many=True).data)

    @extend_schema(request=StaffInputSerializer, responses={201: StaffSerializer, **error_responses(400, 403, 404)},
                   operation_id="events_staff_create")
    def post(self, request, slug):
        event = _event(request, slug)
        serializer = StaffInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        row, password = services.add_staff(event, data["role"], username=data.get("username") or "",
                                           display=data.get("display_name") or "",
                                           password=data.get("password") or None)
        body = StaffSerializer(row).data
        if password:
            body["password"] = password
        return Response(body, status=status.HTTP_201_CREATED)


class StaffDelete(APIView):
    """Remove one role from the event's staff (the person's account and records stay)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **error_responses(400, 403, 404)}, operation_id="events_staff_delete")
    def delete(self, request, slug, pk):
        services.remove_staff(_event(request, slug), pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
