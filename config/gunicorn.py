"""gunicorn's settings, for ``make run`` and for the README's deployment alike:

    .venv/bin/gunicorn config.wsgi -c config/gunicorn.py --bind HOST:PORT

Single-thread worker processes, 2 x cores + 1 of them (threads in one process share its interpreter lock:
docs/ARCHITECTURE.md), of the ``gthread`` class so that kept-alive connections wait in the worker's poller, not in
a thread; an idle one is closed after ``keepalive`` seconds. A refused request's body is read by the app
(``infra.middleware.BodyDrainedMiddleware``), so no leftover bytes wake a worker to wait for a request that never
comes; a body declared longer than the app will read has its connection closed after the answer. The listen
backlog is gunicorn's 2,048 (a hall of phones arriving at once). Each number can be set from the environment.
"""
import os

from django.conf import settings

worker_class = "gthread"
workers = int(os.environ.get("GUNICORN_WORKERS") or 2 * (os.cpu_count() or 1) + 1)
threads = int(os.environ.get("GUNICORN_THREADS") or 1)
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE") or 5)
backlog = int(os.environ.get("GUNICORN_BACKLOG") or 2048)
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT") or 10)
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None   # "-": every request on the terminal


def pre_request(worker, req):
    """A body longer than the app reads (``MAX_REQUEST_BYTES``, refused 413 unread) ends its connection: what
    would follow on it is the rest of that body."""
    for name, value in req.headers:
        if name == "CONTENT-LENGTH" and value.isdigit() and int(value) > settings.MAX_REQUEST_BYTES:
            req.must_close = True
