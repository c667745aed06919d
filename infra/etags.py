"""ETag and If-None-Match on every read under ``/api/`` so a program polling them
downloads only what changed.

Django's ``ConditionalGetMiddleware`` for the API's addresses only: a GET or HEAD answer of 200 gets an
``ETag`` (a hash of its body, so it differs per user and language where the body does), and a request whose
``If-None-Match`` names it is answered 304 without a body. The pages are left alone.
"""
from django.conf import settings
from django.middleware.http import ConditionalGetMiddleware


class ApiConditionalGetMiddleware(ConditionalGetMiddleware):
    def process_response(self, request, response):
        if not request.path.startswith("/api/"):
            return response
        return super().process_response(request, response)


def hall_read_headers(request, response, *, public: bool):
    """The caching of a read the hall polls (the round clock, the live tables): a published event's answer to an
    anonymous visitor may be kept by any cache for ``HALL_READ_MAX_AGE`` seconds (a venue's micro-cache in front,
    the phone itself), every other answer only by its reader and asked again each time. Both carry an ETag (a hash
    of the body), so a poll while nothing changed is a 304."""
    if public and not request.user.is_authenticated:
        response["Cache-Control"] = f"public, max-age={settings.HALL_READ_MAX_AGE}"
    else:
        response["Cache-Control"] = "private, no-cache"
    return response
