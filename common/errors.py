"""The one error type a user sees: a refused input or action, the field at fault and a translatable message.

Engines (pure Python) and services raise :class:`UserError` or one of its kinds; one DRF exception
handler (``config.api_errors.api_exception_handler``) answers ``{"field": ..., "detail": ...}`` with the
status of the kind, and pages show ``str(error)`` next to the field. The message is an English msgid
(marked with :func:`gettext_noop` so ``make messages`` collects it) with ``%(name)s`` placeholders; it is
translated into the active language when shown, through the translator Django installs at start-up
(:func:`install_translator`), so the user reads Chinese (or English when switched), never both at once.
"""
from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark ``message`` for translation without translating it (pure code has no Django)."""
    return message


def _identity(message: str) -> str:
    return message


_translate = _identity


def install_translator(func) -> None:
    """Install the function that translates msgids (Django's ``gettext``; identity until then)."""
    global _translate
    _translate = func


class UserError(ValueError):
    """A refused input: ``field`` names the input at fault (None: the request as a whole).

    ``message`` is an English msgid; ``params`` fill its ``%(name)s`` placeholders. ``str(error)`` is the
    message in the active language. Subclasses set ``status`` (the HTTP status the API answers).
    """

    status = 400

    def __init__(self, message: str, field: str | None = None, **params):
        self.message = message
        self.field = field
        self.params = params
        super().__init__(message)

    @property
    def text(self) -> str:
        translated = _translate(self.message)
        return translated % self.params if self.params else translated

    def __str__(self) -> str:
        return self.text

    def __reduce__(self):  # picklable across Celery and multiprocessing with its keyword arguments
        return (_rebuild, (type(self), self.message, self.field, self.params))


def _rebuild(cls, message, field, params):
    return cls(message, field, **params)


class ConflictError(UserError):
    """Somebody else changed the same thing first, or the state no longer allows it: HTTP 409."""

    status = 409


class ForbiddenError(UserError):
    """The user may not do this here: HTTP 403."""

    status = 403


class NotFoundError(UserError):
    """The thing asked for does not exist (or is not visible to this user): HTTP 404."""

    status = 404
