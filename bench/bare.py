"""The bench's yardstick: a bare Django JSON view on the same stack (bench only, never in production URLs).

Served only when gunicorn runs with ``DJANGO_SETTINGS_MODULE=bench.settings`` (the bench scripts do):
``POST /bench/bare/`` goes through the same middleware (sessions, CSRF, authentication), needs a
logged-in session, stores one row (one INSERT, Django's admin log table) and answers a small JSON body.
The bench drives it with the same client loop as the ruling and hand POSTs and prints the ratio.
``GET /bench/bare-read/`` is the yardstick of a read (``bench_hall.py``'s polls and pages): one SELECT.
"""
from django.contrib.admin.models import ADDITION, LogEntry
from django.http import JsonResponse
from django.urls import include, path
from django.views.decorators.http import require_GET, require_POST


@require_POST
def bare(request):
    """Session authentication, the CSRF check (middleware), one INSERT, a JSON answer."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": "login"}, status=403)
    row = LogEntry.objects.create(user_id=request.user.pk, action_flag=ADDITION, object_repr="bench",
                                  change_message=request.body.decode()[:200])
    return JsonResponse({"id": row.pk}, status=201)


@require_GET
def bare_read(request):
    """The yardstick of a read (a spectator's poll, a page): one SELECT, a JSON answer, no session needed."""
    row = LogEntry.objects.order_by("-pk").values_list("pk", flat=True).first()
    return JsonResponse({"last": row})


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/bare-read/", bare_read),
    path("", include("config.urls")),
]
