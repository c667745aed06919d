"""Chinese first: the interface language is zh-hans unless the visitor switched it.

Django's LocaleMiddleware would follow the browser's Accept-Language; at a Chinese venue many phones
are set to English while their owners expect the Chinese event pages. The language therefore comes
only from the switcher's cookie (``/i18n/setlang/``), else ``LANGUAGE_CODE``.

A program is no phone: under /api/ a request that is not a browser's (no session cookie, no
``Sec-Fetch-Site`` header, which every current browser sends) keeps its ``Accept-Language``; the
language cookie still comes first.
"""
import logging

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.middleware.gzip import GZipMiddleware
from django.utils import translation

from common.errors import ForbiddenError, NotFoundError, UserError
from infra import errorpages

logger = logging.getLogger(__name__)


class LanguageRestoredMiddleware:
    """A request leaves the thread's language as it found it.

    Django's LocaleMiddleware activates the request's language for the thread and never takes it back: after
    an English request, whatever runs next in that thread outside a request (a test, a Celery task run eagerly,
    the next request's middleware before LocaleMiddleware, such as a 413 from the body-size limit) would speak
    English. Before every other middleware that speaks (only the body drain is outside it), so they all still
    see the request's language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        before = translation.get_language()
        try:
            return self.get_response(request)
        finally:
            translation.activate(before)


class ChineseFirstMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not _a_program_asks(request):
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)


def _a_program_asks(request) -> bool:
    """An API request by a program (not a page's script nor a browser's address bar)."""
    return (request.path.startswith("/api/") and "HTTP_SEC_FETCH_SITE" not in request.META
            and settings.SESSION_COOKIE_NAME not in request.COOKIES)


class UserErrorPagesMiddleware:
    """A user error that escapes a page view (the API has its own handler) becomes the friendly error page
    with its reason: 403 for ForbiddenError, 404 for NotFoundError, else its own status (400 or 409)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, UserError):
            return None
        if isinstance(exception, ForbiddenError):
            return errorpages.permission_denied(request, exception)
        if isinstance(exception, NotFoundError):
            return errorpages.page_not_found(request, exception)
        return errorpages.refused(request, exception)


class BodyDrainedMiddleware:
    """A request's body is read to its end before the answer leaves, even when the answer refused the request
    before reading it (a 401, 403, 405, 413 or 429): on a kept-alive connection the unread bytes would make the
    server's worker wake up to read the next request and then wait there for one that an idle phone never sends
    (a single-thread gunicorn worker then answers nobody). A body declared longer than ``MAX_REQUEST_BYTES`` is not
    read: the server closes its connection instead (``config/gunicorn.py``). First in ``MIDDLEWARE``, so it follows
    every other middleware's refusal."""

    CHUNK = 64 * 1024

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self.get_response(request)
        finally:
            drain(request, settings.MAX_REQUEST_BYTES, self.CHUNK)


def drain(request, most: int, chunk: int) -> None:
    """Read what is left of the request's body and drop it, if it is declared at most ``most`` bytes long (a
    longer one is never read: the server closes its connection)."""
    if not 0 < declared_length(request) <= most:
        return
    try:
        while request.read(chunk):
            pass
    except OSError:  # the client went away (UnreadablePostError): nothing left to keep the worker
        return


def declared_length(request) -> int:
    try:
        return max(int(request.META.get("CONTENT_LENGTH") or 0), 0)
    except ValueError:
        return 0


class SafeGZipMiddleware(GZipMiddleware):
    """Compress an answer only where compression cannot leak a secret (BREACH: a secret in a compressed body beside
    text an attacker chose can be guessed from the sizes): an anonymous visitor's page or read, or a JSON answer,
    that carries no per-visitor token (it sets no cookie: a page that shows the CSRF token sends its cookie), and
    never an answer marked as showing a secret once (``no-store``: a new token, a one-time password)."""

    def process_response(self, request, response):
        if "no-store" in response.get("Cache-Control", "") or response.cookies:
            return response
        user = getattr(request, "user", None)
        is_json = response.get("Content-Type", "").startswith("application/json")
        if user is not None and user.is_authenticated and not is_json:
            return response
        return super().process_response(request, response)


class BodySizeLimitMiddleware:
    """A request whose declared body is too long is refused (413) before it is read: a file upload
    (multipart) past ``MAX_REQUEST_BYTES``, any other body (a form, the API's JSON) past
    ``DATA_UPLOAD_MAX_MEMORY_SIZE``. The JSON parser checks the bytes it reads against the same limit."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = declared_length(request)
        is_upload = request.META.get("CONTENT_TYPE", "").startswith("multipart/")
        limit = settings.MAX_REQUEST_BYTES if is_upload else settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if length > limit:
            return errorpages.too_large(request, limit)
        return self.get_response(request)


class DatabaseUnavailableMiddleware:
    """A lost or refused database connection answers 503 with ``Retry-After`` (JSON under /api/, the
    friendly page elsewhere) instead of a 500: the request did nothing (its transaction rolled back) and a
    retry a few seconds later is the right move for a client."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.error("database unavailable for %s %s: %s", request.method, request.path, exception)
        return errorpages.unavailable(request)


class SecurityHeadersMiddleware:
    """Content-Security-Policy and Permissions-Policy on every answer (settings ``CONTENT_SECURITY_POLICY``
    and ``PERMISSIONS_POLICY``). Pages carry no inline script, handler or style attribute (checked by
    tests/test_security_headers.py), so the policy allows the site's own files only. Django's admin and
    Swagger UI set inline styles: under ``CSP_INLINE_STYLE_PATHS`` inline styles (never scripts) are allowed
    (``CONTENT_SECURITY_POLICY_INLINE_STYLES``)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = (settings.CONTENT_SECURITY_POLICY_INLINE_STYLES
                  if request.path.startswith(tuple(settings.CSP_INLINE_STYLE_PATHS))
                  else settings.CONTENT_SECURITY_POLICY)
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        if settings.PERMISSIONS_POLICY and "Permissions-Policy" not in response:
            response["Permissions-Policy"] = settings.PERMISSIONS_POLICY
        return response
