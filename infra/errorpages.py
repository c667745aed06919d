"""Friendly error pages in the site's frame: what happened in the user's language, and a way on (back,
the events list, and a login link when the visitor is not logged in or the session has expired). Under
/api/ the same errors answer the API's JSON body ``{"code", "field", "detail"}``."""
import sys

from django.contrib.auth.views import redirect_to_login
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.defaultfilters import filesizeformat
from django.utils.html import escape
from django.utils.translation import gettext as _

from infra.api_errors import STATUS_CODES, error_body


def _page(request, status, heading, reason=""):
    if request.path.startswith("/api/"):  # API clients get the API's error body, never an HTML page
        return JsonResponse(error_body(None, reason or heading, code=STATUS_CODES[status]), status=status)
    login_url = None
    user = getattr(request, "user", None)  # none yet when a middleware answers before authentication
    if user is not None and not user.is_authenticated:
        login_url = redirect_to_login(request.get_full_path())["Location"]
    return render(request, "errors/error.html", {"heading": heading, "reason": reason, "login_url": login_url},
                  status=status)


def permission_denied(request, exception=None):
    reason = str(exception) if exception is not None and str(exception) else ""
    if not reason and not request.user.is_authenticated:
        reason = _("You are not logged in, or your session has expired.")
    return _page(request, 403, _("You may not open this page"), reason)


def page_not_found(request, exception=None):
    return _page(request, 404, _("Page not found"),
                 _("The page does not exist, or the event has not been published yet."))


def server_error(request):
    """Django's 500 handler, called while the error is being handled: a lost database raised anywhere in the
    request (a middleware's query included, which no view's ``process_exception`` sees) is a 503 to retry."""
    if isinstance(sys.exc_info()[1], (OperationalError, InterfaceError)):
        return unavailable(request)
    return _page(request, 500, _("Something went wrong"),
                 _("The server could not finish this request. Nothing was half-saved: try again in a moment."))


def refused(request, exception):
    """A refused action that reached no form: its reason, with the status it carries (400 or 409)."""
    return _page(request, exception.status, _("This could not be done"), str(exception))


#: Seconds a client waits before retrying when the database is unavailable.
RETRY_AFTER_SECONDS = 5


def unavailable(request):
    """The database is unreachable: 503 with Retry-After; nothing was saved."""
    heading = _("The service is briefly unavailable")
    reason = _("The database cannot be reached. Nothing was saved: try again in a few seconds.")
    try:
        response = _page(request, 503, heading, reason)
    except (OperationalError, InterfaceError):  # the page itself needed the database (the visitor's session)
        response = HttpResponse(f"<!doctype html><meta charset=utf-8><title>{escape(heading)}</title>"
                                f"<h1>{escape(heading)}</h1><p>{escape(reason)}</p>", status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def too_large(request, limit):
    return _page(request, 413, _("The request is too large"),
                 _("The request body is too large (at most %(most)s).") % {"most": filesizeformat(limit)})
