"""Chinese first: the interface language is zh-hans unless the visitor switched it.

Django's LocaleMiddleware would follow the browser's Accept-Language; at a Chinese venue many phones
are set to English while their owners expect the Chinese event pages. The language therefore comes
only from the switcher's cookie (``/i18n/setlang/``), else ``LANGUAGE_CODE``.
"""
from common.errors import ForbiddenError, NotFoundError, UserError
from config import errorpages


class ChineseFirstMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)


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
