"""The OpenAPI description tells what the server really sends (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``).

drf-spectacular documents what a view declares; this AutoSchema adds what every operation can answer
whether or not its view says so, all through the one error body of ``config.api_errors``
(``{"field", "detail"}``, the ``Error`` component):

- 403 everywhere: bad credentials are refused before any view runs, and so is a write the role may not do;
- 404 on every operation whose address names an object (it does not exist, or is not visible to you);
- 400 and 409 on every write (bad input; a conflict: somebody changed it first);
- 401 when the view's first authentication class asks for credentials (``WWW-Authenticate``);
- 429 when the view is throttled.

Security per operation: drf-spectacular marks an operation public (``{}`` among its security
requirements) only for ``AllowAny`` and ``IsAuthenticatedOrReadOnly``. A permission class of ours that lets
anonymous visitors read (what they may see: published events) says so with ``anonymous_read = True``.
"""
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework import permissions

from .api_errors import ErrorSerializer, describe_error

PUBLIC_READ = (permissions.AllowAny, permissions.IsAuthenticatedOrReadOnly)


def _reads_anonymously(permission) -> bool:
    return isinstance(permission, PUBLIC_READ) or getattr(permission, "anonymous_read", False)


class AutoSchema(SpectacularAutoSchema):
    def _error_codes(self):
        codes = {403}
        if "{" in self.path:
            codes.add(404)
        if self.method not in permissions.SAFE_METHODS:
            codes |= {400, 409}
        authenticators = self.view.get_authenticators()
        if authenticators and authenticators[0].authenticate_header(self.view.request):
            codes.add(401)
        if self.view.get_throttles():
            codes.add(429)
        return codes

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for code in sorted(self._error_codes()):
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(describe_error(code), str(code),
                                                                   direction=direction)
        return dict(sorted(responses.items()))

    def get_auth(self):
        auths = super().get_auth()
        if {} in auths or not auths:
            return auths
        if self.method in permissions.SAFE_METHODS and all(
                _reads_anonymously(p) for p in self.view.get_permissions()):
            auths.append({})
        return auths


__all__ = ["AutoSchema", "ErrorSerializer"]
