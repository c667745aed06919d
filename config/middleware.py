"""Chinese first: the interface language is zh-hans unless the visitor switched it.

Django's LocaleMiddleware would follow the browser's Accept-Language; at a Chinese venue many phones
are set to English while their owners expect the Chinese event pages. The language therefore comes
only from the switcher's cookie (``/i18n/setlang/``), else ``LANGUAGE_CODE``.
"""


class ChineseFirstMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
