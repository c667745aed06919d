"""REST API for an event's staff (its organisers only): list, add (an existing login name gets the role
added and nothing else of the account changes; a new person gets an account and a one-time password
returned once, replaced at its first login), remove a role; the event's API tokens (list, make, revoke:
the staff page's, through :mod:`tournament.staff.tokens`), and an organiser's own site-wide tokens (for a
program that creates events); a program's first token from a login name and password (``POST /api/login/``)."""
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from infra.api_errors import error_responses
from infra.auth import LoginThrottle, program_login
from infra.idempotency import secret
from infra.inputs import StrictInput
from tournament import access
from tournament.access import visible_events
from tournament.models import Event, EventRole
from tournament.staff import services, tokens


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
    shows_secret = True  # a new password or key is shown once (410 on a retry)
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
            return secret(Response(body, status=status.HTTP_201_CREATED))
        return Response(body, status=status.HTTP_201_CREATED)


class StaffDelete(APIView):
    """Remove one role from the event's staff (the person's account and records stay)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **error_responses(400, 403, 404)}, operation_id="events_staff_delete")
    def delete(self, request, slug, pk):
        services.remove_staff(_event(request, slug), pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


# ------------------------------------------------------------------ API tokens (programs act without a session)
class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    event = serializers.CharField(source="event.slug", default=None, allow_null=True,
                                  help_text="the slug of the event the token acts in (null: a site-wide organiser "
                                            "token)")
    user_id = serializers.IntegerField(help_text="the person the token acts as")
    username = serializers.CharField(source="user.username")
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True, help_text="null: the token works")


class NewTokenSerializer(TokenSerializer):
    key = serializers.CharField(help_text="the token itself (`Authorization: Bearer <key>`): shown only in this "
                                          "answer, keep it secret")


class EventTokenInputSerializer(StrictInput):
    closed = True  # a key it does not name is refused
    name = serializers.CharField(max_length=tokens.MAX_NAME, help_text="what the token is for (e.g. 3号桌平板)")
    user = serializers.IntegerField(min_value=1, help_text="the id (`user_id`) of a person on the event's staff")


class SiteTokenInputSerializer(StrictInput):
    closed = True  # a key it does not name is refused
    name = serializers.CharField(max_length=tokens.MAX_NAME, help_text="what the token is for (e.g. 报名导入程序)")


def _created(token, key):
    token.key = key  # on this answer only: the row keeps the hash
    return secret(Response(NewTokenSerializer(token).data, status=status.HTTP_201_CREATED))


class EventTokenListCreate(APIView):
    """The event's API tokens (its organisers only); a new one acts as a person on the staff in this event only."""

    permission_classes = [IsAuthenticated]
    shows_secret = True  # a new password or key is shown once (410 on a retry)

    @extend_schema(responses={200: TokenSerializer(many=True), **error_responses(403, 404)},
                   operation_id="events_tokens_list", summary="the event's API tokens")
    def get(self, request, slug):
        return Response(TokenSerializer(tokens.event_tokens(_event(request, slug)), many=True).data)

    @extend_schema(request=EventTokenInputSerializer,
                   responses={201: NewTokenSerializer, **error_responses(400, 403, 404)},
                   operation_id="events_tokens_create", summary="make an API token of the event")
    def post(self, request, slug):
        event = _event(request, slug)
        serializer = EventTokenInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        return _created(*tokens.create_token(event, data["user"], data["name"], by=request.user))


class EventTokenRevoke(APIView):
    """Revoke one of the event's tokens (kept as the record of who could act; revoking twice changes nothing)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: TokenSerializer, **error_responses(403, 404)},
                   operation_id="events_tokens_delete", summary="revoke an API token of the event")
    def delete(self, request, slug, pk):
        return Response(TokenSerializer(tokens.revoke_token(_event(request, slug), pk, by=request.user)).data)


def _creator(request):
    if not access.may(request.user, access.CREATE_EVENT):
        raise PermissionDenied(_("Only an account that may create events has site-wide tokens."))
    return request.user


class SiteTokenListCreate(APIView):
    """Your own site-wide organiser tokens: a program creates events with one (and then acts as the events'
    organiser). Only an account that may create events has them; an event's token cannot make one."""

    permission_classes = [IsAuthenticated]
    shows_secret = True  # a new password or key is shown once (410 on a retry)

    @extend_schema(responses={200: TokenSerializer(many=True), **error_responses(403)},
                   operation_id="tokens_list", summary="your site-wide organiser tokens")
    def get(self, request):
        return Response(TokenSerializer(tokens.site_tokens_of(_creator(request)), many=True).data)

    @extend_schema(request=SiteTokenInputSerializer, responses={201: NewTokenSerializer, **error_responses(400, 403)},
                   operation_id="tokens_create", summary="make a site-wide organiser token")
    def post(self, request):
        user = _creator(request)
        serializer = SiteTokenInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        return _created(*tokens.create_token(None, user.pk, serializer.validated_data["name"], by=user))


class SiteTokenRevoke(APIView):
    """Revoke one of your site-wide tokens (an event's token may not: it acts in its event only)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: TokenSerializer, **error_responses(403, 404)},
                   operation_id="tokens_delete", summary="revoke a site-wide organiser token")
    def delete(self, request, pk):
        return Response(TokenSerializer(tokens.revoke_token(None, pk, by=_creator(request))).data)


# ------------------------------------------------------------------ a program's first token (no page to get it)
class LoginInputSerializer(StrictInput):
    closed = True  # a key it does not name is refused
    username = serializers.CharField(max_length=150, help_text="the account's login name (登录名)")
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"},
                                     help_text="its password (not a one-time password: set your own on the site first)")
    name = serializers.CharField(max_length=tokens.MAX_NAME, help_text="what the token is for (e.g. 3号桌平板)")
    event = serializers.SlugField(required=False, max_length=100,
                                  help_text="the slug of the event the token acts in: an event's token, for a person "
                                            "on its staff. Without it: a site-wide organiser token, for an account "
                                            "that may create events")


class LoginTokenCreate(APIView):
    """A program's first API token, from a login name and password (no page to scrape): the login page's
    throttle (per address) and lockout, refused for an account with a one-time password. With ``event``: a
    token of that event for a person on its staff (acts as them in that event only); without: a site-wide
    organiser token, for an account that may create events. The key is shown once; an Idempotency-Key is
    not kept for it (no credentials sent): a retry logs in again and makes another token."""

    authentication_classes = []   # the credentials are the body's; nothing else is read
    permission_classes = [AllowAny]
    throttle_classes = [LoginThrottle]   # no shows_secret: an anonymous write's key is never kept (no 410)

    @extend_schema(request=LoginInputSerializer, responses={201: NewTokenSerializer, **error_responses(400, 401, 403)},
                   operation_id="login_token_create", summary="log in: a program's API token", auth=[])
    def post(self, request):
        serializer = LoginInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        user = program_login(request, data["username"], data["password"])
        if data.get("event"):
            event = Event.objects.filter(slug=data["event"], staff__user=user).first()
            if event is None:
                raise PermissionDenied(_("This account holds no role in that event (or there is no such event)."))
            return _created(*tokens.create_token(event, user.pk, data["name"], by=user))
        if not access.may_create_events(user):
            raise PermissionDenied(_("This account may not create events: name the event the token is for "
                                     "(event), one where it holds a role."))
        return _created(*tokens.create_token(None, user.pk, data["name"], by=user))
