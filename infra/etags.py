"""ETag and If-None-Match on every read under ``/api/`` (issue 29 item 7: polling without re-downloading).

Django's ``ConditionalGetMiddleware`` for the API's addresses only: a GET or HEAD answer of 200 gets an
``ETag`` (a hash of its body, so it differs per user and language where the body does), and a request whose
``If-None-Match`` names it is answered 304 without a body. The pages are left alone.
"""
from django.middleware.http import ConditionalGetMiddleware


class ApiConditionalGetMiddleware(ConditionalGetMiddleware):
    def process_response(self, request, response):
        if not request.path.startswith("/api/"):
            return response
        return super().process_response(request, response)
