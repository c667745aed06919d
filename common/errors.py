"""The one error type a user sees: a refused input or action, the field at fault and a translatable message.

Engines (pure Python) and services raise :class:`UserError` or one of its kinds; one DRF exception
handler (``infra.api_errors.api_exception_handler``) answers ``{"code": ..., "field": ..., "detail": ...}``
with the status of the kind, and pages show ``str(error)`` next to the field. ``code`` is a stable name a
program branches on (one of :data:`CODES`, listed in the API's description): the kind's own (``invalid``,
``conflict``, ``forbidden``, ``not_found``) unless the raiser names a finer one (``error_code=``). The message is an English msgid
(marked with :func:`gettext_noop` so ``make messages`` collects it) with ``%(name)s`` placeholders; it is
translated into the active language when shown, through the translator Django installs at start-up
(:func:`install_translator`), so the user reads Chinese (or English when switched), never both at once. A
list given as a parameter (tables, groups, names) is joined as that language writes a list: "1、3" in
Chinese, "1, 3" in English.
"""
from __future__ import annotations

from common.punctuation import list_separator


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (pure code has no Django)."""
    return message


def _identity(message: str) -> str:
    return message


_translate = _identity


def _no_language():
    return None   # none installed: lists read as in Chinese (Chinese first)


_language = _no_language


def translated(message: str) -> str:
    """``message`` (an English msgid) in the active language."""
    return _translate(message)


def install_translator(func, language=None) -> None:
    """Install the function that translates msgids (Django's ``gettext``; identity until then) and the one
    that names the active language (Django's ``get_language``), for the lists in a message."""
    global _translate, _language
    _translate = func
    if language is not None:
        _language = language


#: Every ``code`` an API error body may carry, with what it means (the description's enum of ``Error.code``).
CODES = {
    "invalid": "bad input; `field` names it",
    "code_replaced": "a side's code the desk has replaced with a new slip (type the new slip's code)",
    "points_out_of_range": "the points are outside what a hand can hold",
    "not_authenticated": "no credentials were sent (or the login expired)",
    "authentication_failed": "the credentials sent are wrong, revoked or locked",
    "forbidden": "a known user without the right to do this",
    "not_assigned": "only this table's referee (this round) or a chief referee may do this",
    "not_found": "no such object, or not visible to you",
    "method_not_allowed": "this address does not take this method",
    "not_acceptable": "no answer in the media type asked for",
    "unsupported_media_type": "the body is not in a media type this address reads",
    "conflict": "somebody changed it first, or its state no longer allows this",
    "round_closed": "the round is closed: nothing more can be recorded at this table",
    "retry": "an earlier request with the same Idempotency-Key is still running: retry",
    "idempotency_key_reused": "the Idempotency-Key was used before for another request",
    "secret_shown_once": "a retry of a request whose answer showed a secret once (a token, a password): not kept",
    "too_large": "the request body is too large",
    "throttled": "too many requests: retry after `Retry-After` seconds",
    "server_error": "the server could not finish the request (nothing was half-saved)",
    "unavailable": "the service is briefly unavailable: retry after `Retry-After` seconds",
}


class UserError(ValueError):
    """A refused input: ``field`` names the input at fault (None: the request as a whole).

    ``message`` is an English msgid; ``params`` fill its ``%(name)s`` placeholders. ``str(error)`` is the
    message in the active language. Subclasses set ``status`` (the HTTP status the API answers) and ``code``
    (the API's name of the kind); ``error_code`` names a finer one of :data:`CODES`.
    """

    status = 400
    code = "invalid"

    def __init__(self, message: str, field: str | None = None, *, error_code: str | None = None, **params):
        if error_code is not None:
            if error_code not in CODES:
                raise ValueError(f"{error_code!r} is not an error code of common.errors.CODES")
            self.code = error_code
        self.message = message
        self.field = field
        self.params = params
        super().__init__(message)

    @property
    def text(self) -> str:
        text = _translate(self.message)
        if not self.params:
            return text
        between = list_separator(_language())
        return text % {name: between.join(str(item) for item in value) if isinstance(value, (list, tuple))
                             else value for name, value in self.params.items()}

    def __str__(self) -> str:
        return self.text

    def __reduce__(self):  # picklable across Celery and multiprocessing with its keyword arguments
        return (_rebuild, (type(self), self.message, self.field, self.params, self.code))


def _rebuild(cls, message, field, params, code=None):
    return cls(message, field, error_code=code, **params)


class ConflictError(UserError):
    """Somebody else changed the same thing first, or the state no longer allows it: HTTP 409."""

    status = 409
    code = "conflict"


class ForbiddenError(UserError):
    """The user may not do this here: HTTP 403."""

    status = 403
    code = "forbidden"


class NotFoundError(UserError):
    """The thing asked for does not exist (or is not visible to this user): HTTP 404."""

    status = 404
    code = "not_found"
