"""Friendly error pages in the site's frame: what happened in the user's language, and a way on (back,
the events list, and a login link when the visitor is not logged in or the session has expired). Under
/api/ the same errors answer the API's JSON body ``{"field", "detail"}``."""
from django.contrib.auth.views import redirect_to_login
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _page(request, status, heading, reason=""):
    if request.path.startswith("/api/"):  # API clients get the API's error body, never an HTML page
        return JsonResponse({"field": None, "detail": reason or heading}, status=status)
    login_url = None
    if not request.user.is_authenticated:
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
    return _page(request, 500, _("Something went wrong"),
                 _("The server could not finish this request. Nothing was half-saved: try again in a moment."))


def refused(request, exception):
    """A refused action that reached no form: its reason, with the status it carries (400 or 409)."""
    return _page(request, exception.status, _("This could not be done"), str(exception))
