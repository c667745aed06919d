"""The API's last URL pattern: every address under /api/ that names no operation answers the API's own 404
body (:mod:`infra.api_errors`), never Django's HTML page."""
from django.http import HttpResponseRedirect
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView


class UnknownAddress(APIView):
    """Every address under /api/ that names no operation (the last of the URL patterns): the JSON 404, with
    any method, with ``DEBUG`` on as well (Django's own 404 page is HTML). An operation's address without its
    final slash is sent on to it with a 308 (which keeps the method and the body: Django's APPEND_SLASH
    cannot, since this pattern matches first)."""

    permission_classes = [AllowAny]
    schema = None

    def initial(self, request, *args, **kwargs):
        if not request.path_info.endswith("/"):
            try:
                match = resolve(request.path_info + "/")
            except Resolver404:
                match = None
            if match is not None and getattr(match.func, "view_class", None) is not UnknownAddress:
                raise SlashMissing(request.get_full_path(force_append_slash=True))
        super().initial(request, *args, **kwargs)   # wrong credentials are still a 401
        raise NotFound(_("No such address in the API."))

    def handle_exception(self, exc):
        if isinstance(exc, SlashMissing):
            return HttpResponseRedirect(exc.to, status=308)
        return super().handle_exception(exc)


class SlashMissing(Exception):
    """An operation's address asked for without its final slash (``to``: the address with it)."""

    def __init__(self, to):
        super().__init__(to)
        self.to = to
