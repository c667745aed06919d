"""The bench's yardstick: a bare Django JSON view on the same stack (bench only, never in production URLs).

Served only when gunicorn runs with ``DJANGO_SETTINGS_MODULE=bench.settings`` (the bench scripts do):
``POST /bench/bare/`` goes through the same middleware (sessions, CSRF, authentication), needs a
logged-in session, stores one row (one INSERT, Django's admin log table) and answers a small JSON body.
The bench drives it with the same client loop as the ruling and hand POSTs and prints the ratio.
``GET /bench/bare-read/`` is the yardstick of a read (``bench_hall.py``'s polls and pages): one SELECT.
``POST /api/bench/statements/<match id>/`` sends the statements a table's write sends, and nothing else
(no validation, rule, engine or rendered state): the most a write made of them can reach on this stack.
"""
from django.contrib.admin.models import ADDITION, LogEntry
from django.db import transaction
from django.db.models import F
from django.http import JsonResponse
from django.urls import include, path
from django.views.decorators.http import require_GET, require_POST

from infra import clock
from infra.db import lock_row
from scoring.models import MatchSnapshot
from tournament import access
from tournament.models import Match


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


@require_POST
def statements(request, match_id):
    """A hand's statements without its work: under ``/api/`` with an Idempotency-Key (BEGIN, the key's claim,
    its answer, COMMIT), the service's savepoint, the match locked and read with its kept state and event,
    the writer's roles, one INSERT, the match's UPDATE and the kept state's."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": "login"}, status=403)
    with transaction.atomic():
        lock_row(Match.objects.only("pk"), match_id)
        match = access.with_access(Match.objects.select_related("engine_snapshot"), request.user).get(pk=match_id)
        held = access.roles_of(request.user, match=access.remember_access(request.user, match))
        row = LogEntry.objects.create(user_id=request.user.pk, action_flag=ADDITION, object_repr="bench",
                                      change_message=request.body.decode()[:200])
        Match.objects.filter(pk=match_id).update(changed_at=clock.now())
        MatchSnapshot.objects.filter(match_id=match_id).update(hand_id=F("hand_id"))
    return JsonResponse({"id": row.pk, "roles": sorted(held)}, status=201)


urlpatterns = [
    path("bench/bare/", bare),
    path("bench/bare-read/", bare_read),
    path("api/bench/statements/<int:match_id>/", statements),
    path("", include("config.urls")),
]
