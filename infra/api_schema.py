"""The OpenAPI description tells what the server really sends (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``).

drf-spectacular documents what a view declares; this AutoSchema adds what every operation can answer
whether or not its view says so, all through the one error body of ``infra.api_errors``
(``{"code", "field", "detail"}``, the ``Error`` component, its ``code`` an enum of ``common.errors.CODES``):

- 401 everywhere (with ``WWW-Authenticate``): wrong credentials are refused before any view runs, even on a
  public read, and so is a write without credentials;
- 403 everywhere: a known user without the right (a write the role may not do);
- 404 on every operation whose address names an object (it does not exist, or is not visible to you);
- 400 and 409 on every write (bad input; a conflict: somebody changed it first);
- 429 when the view is throttled;
- 410 on the writes whose answer shows a secret once (a view's ``shows_secret = True``): a retry is not replayed;
- 503 everywhere (``infra.middleware.DatabaseUnavailableMiddleware``: the database briefly unreachable).

Every read answers with an ``ETag`` and 304 (``infra.etags``) but a view whose answers are never stored
(``no_store = True``: the feed), which states neither.

Security per operation: drf-spectacular marks an operation public (``{}`` among its security
requirements) only for ``AllowAny`` and ``IsAuthenticatedOrReadOnly``. A permission class of ours that lets
anonymous visitors read (what they may see: published events) says so with ``anonymous_read = True``.
Such a public read is then described with no security requirement at all (a client generator
reads ``[{}, {"apiToken": []}]`` as "a token is needed", so a plain client could not read a published event):
the credentials it also takes (the staff's, to read what is not published) are named in
``x-optional-security`` and in its description.

What a request may hold (the server accepts exactly what this description says): every writable
text field states that it holds no NUL, and one that may not be blank states ``minLength: 1`` and a pattern
asking for a character that is not white space (``infra.inputs``: the server trims, then refuses blank);
every request serializer (``StrictInput``) states ``additionalProperties: false``; one with ``one_of`` (a list of partial
schemas: which fields one kind of request needs or may not hold) states them as the object's ``oneOf``.
"""
import re

from django.core import validators
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiParameter
from rest_framework import permissions, serializers

from infra.inputs import NO_NUL, NOT_BLANK, StrictInput

from .api_errors import ErrorSerializer, describe_error

PUBLIC_READ = (permissions.AllowAny, permissions.IsAuthenticatedOrReadOnly)


def _reads_anonymously(permission) -> bool:
    return isinstance(permission, PUBLIC_READ) or getattr(permission, "anonymous_read", False)


def text_rules(field, schema):
    """``schema`` of the writable text ``field`` with what the server checks of it: no NUL; not blank
    (after trimming) unless ``allow_blank``. A field with its own regular expression states that one."""
    if field.read_only or schema.get("type") != "string" or "enum" in schema or "format" in schema:
        return schema
    if any(isinstance(v, validators.RegexValidator) for v in field.validators):
        return schema
    if field.allow_blank:
        schema.setdefault("pattern", NO_NUL)
    else:
        schema["minLength"] = max(schema.get("minLength", 0), 1)
        schema.setdefault("pattern", NOT_BLANK if getattr(field, "trim_whitespace", True) else NO_NUL)
    return schema


VARIANTS = "x-one-of"


def whole_variant(base, variant):
    """One variant of ``base`` as a whole object: every property of ``base`` (narrowed where the variant
    narrows it: its ``enum`` replaces the default), what both require, the variant's other keywords. A client
    generator reads a oneOf's variants alone (openapi-python-client left the hand's number and points out)."""
    properties = dict(base.get("properties", {}))
    for name, narrowed in variant.get("properties", {}).items():
        own = properties.get(name, {})
        if "$ref" in own:  # a keyword beside a $ref is not read: the reference goes inside an allOf
            own = {"allOf": [{"$ref": own["$ref"]}], **{k: v for k, v in own.items() if k != "$ref"}}
        merged = {**own, **narrowed}
        if "enum" in narrowed:
            merged.pop("default", None)
        properties[name] = merged
    whole = {"title": variant["title"], "type": "object", "properties": properties,
             **{k: v for k, v in variant.items() if k not in ("title", "properties", "required")}}
    required = [*base.get("required", []), *(n for n in variant.get("required", []) if n not in base.get("required", []))]
    if required:
        whole["required"] = required
    if "additionalProperties" in base:
        whole["additionalProperties"] = base["additionalProperties"]
    return whole


def state_variants(result, generator, request, public):
    """A postprocessing hook (after the enums'): the variants a serializer states become the object's oneOf,
    each a whole object (:func:`whole_variant`)."""
    schemas = result.get("components", {}).get("schemas", {})
    for component in schemas.values():
        if VARIANTS in component:
            component["oneOf"] = [whole_variant(component, variant) for variant in component.pop(VARIANTS)]
    # a body no variant allows empty is required (a generated client otherwise offers to send none)
    for item in result.get("paths", {}).values():
        for operation in item.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            ref = (body or {}).get("content", {}).get("application/json", {}).get("schema", {}).get("$ref", "")
            if "oneOf" in schemas.get(ref.rsplit("/", 1)[-1], {}):
                body["required"] = True
    return result


#: Every write takes an Idempotency-Key (``infra.idempotency``); a replayed answer says so.
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", {"type": "string", "maxLength": 200}, OpenApiParameter.HEADER, required=False,
    description="A key of your own for this write (a UUID): a retry with the same key is applied once and "
                "answered with the stored answer; keep it until a 2xx or a 4xx other than 409 and 429. The same "
                "key for another request is a 422.")
IDEMPOTENT_REPLAY = OpenApiParameter(
    "Idempotent-Replay", {"type": "string", "enum": ["true"]}, OpenApiParameter.HEADER, response=True,
    description="true: this is the stored answer of an earlier request with the same Idempotency-Key")

#: Every read answers with an ETag and honours If-None-Match (``infra.etags``).
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match", {"type": "string"}, OpenApiParameter.HEADER, required=False,
    description="the ETag of the answer you hold: 304 without a body while it is still the answer")
ETAG = OpenApiParameter(
    "ETag", {"type": "string"}, OpenApiParameter.HEADER, response=[200],
    description="this answer's tag: send it back as If-None-Match")


PUBLIC_NOTE = ("**Public read**: a published event's answer needs no credentials (a plain client). The event's "
               "staff may send theirs (an API token, the session) to read what is not published yet; credentials "
               "sent and wrong are refused (401).")


class AutoSchema(SpectacularAutoSchema):
    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if self.method not in permissions.SAFE_METHODS and self.path.startswith("/api/"):
            parameters += [IDEMPOTENCY_KEY, IDEMPOTENT_REPLAY]
        elif self._conditional():
            parameters += [IF_NONE_MATCH, ETAG]
        return parameters

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(schema, dict) and isinstance(field, serializers.CharField) \
                and isinstance(field.parent, StrictInput):
            text_rules(field, schema)
        return schema

    def _insert_field_validators(self, field, schema):
        super()._insert_field_validators(field, schema)
        # drf-spectacular offers a blank text beside a pattern as a second choice of a oneOf; when the pattern
        # matches the blank text itself, a blank text would match both (and so neither): one schema it is.
        choices = schema.get("oneOf")
        if choices and len(choices) == 2 and choices[1] == {"type": "string", "maxLength": 0}:
            inner = choices[0]
            if "format" not in inner and not inner.get("minLength") and re.search(inner.get("pattern", ""), ""):
                del schema["oneOf"]
                schema.update(inner)

    def _map_basic_serializer(self, serializer, direction):
        schema = super()._map_basic_serializer(serializer, direction)
        if "__doc__" not in vars(type(serializer)) or type(serializer).__doc__ is None:
            schema.pop("description", None)  # not the base class's (infra.inputs.StrictInput)
        if isinstance(serializer, StrictInput):
            # what a request may hold, and nothing else: keys it does not name are not read (refused when
            # ``closed``), and the description offers none (a generated body holds no others)
            schema["additionalProperties"] = False
        variants = getattr(serializer, "one_of", None)
        if variants:  # under a key drf-spectacular's enum hook leaves alone: its enums are the variants' own
            schema[VARIANTS] = [dict(variant) for variant in variants]
        return schema

    def _conditional(self):
        """Whether the operation answers with an ETag and 304 (every API read but a ``no_store`` view's)."""
        return self.method == "GET" and self.path.startswith("/api/") and not getattr(self.view, "no_store", False)

    def _error_codes(self):
        codes = {401, 403, 503}
        if self.method not in permissions.SAFE_METHODS and getattr(self.view, "shows_secret", False):
            codes.add(410)
        if "{" in self.path:
            codes.add(404)
        if self.method not in permissions.SAFE_METHODS:
            codes |= {400, 409, 422}
        if self.view.get_throttles():
            codes.add(429)
        return codes

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        if self._conditional():
            responses["304"] = {"description": "Not modified: the ETag sent in If-None-Match is still the answer"}
        for code in sorted(self._error_codes()):
            if str(code) not in responses:
                responses[str(code)] = self._get_response_for_code(describe_error(code), str(code),
                                                                   direction=direction)
        return dict(sorted(responses.items()))

    def get_operation(self, *args, **kwargs):
        operation = super().get_operation(*args, **kwargs)
        if operation and {} in operation.get("security", []):
            operation["x-optional-security"] = [name for need in operation.pop("security") for name in need]
            operation["description"] = f"{operation.get('description', '')}\n\n{PUBLIC_NOTE}".strip()
        return operation

    def get_auth(self):
        auths = super().get_auth()
        if {} in auths or not auths:
            return auths
        if self.method in permissions.SAFE_METHODS and all(
                _reads_anonymously(p) for p in self.view.get_permissions()):
            auths.append({})
        return auths


__all__ = ["AutoSchema", "ErrorSerializer"]
