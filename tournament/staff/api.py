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
from tournament import access
from tournament.access import visible_events
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


class StaffInputSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, allow_blank=True)
    display_name = serializers.CharField(required=False, allow_blank=True)
    role = serializers.CharField(help_text="organiser | chief_referee | table_referee | arbitration")
    password = serializers.CharField(
        required=False, allow_blank=True,
        help_text="A new person's one-time password (made when empty; replaced at the first login). Refused (400) "
                  "with the login name of an existing account: its password stays its owner's.")


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
        data = request.data if isinstance(request.data, dict) else {}
        row, password = services.add_staff(event, data.get("role"), username=data.get("username") or "",
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
