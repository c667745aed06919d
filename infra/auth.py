"""Authentication fit for a venue: throttles on the shared cache, a lockout after repeated failed logins,
and Basic authentication that can be switched off.

* **Throttles** (DRF): anonymous API requests by address and login attempts by address on the default
  cache (shared by every process when ``REDIS_URL`` is set), authenticated ones by user in each process's
  memory (:class:`UserThrottle`); the rates are the
  settings ``API_THROTTLE_RATES`` (``DJANGO_THROTTLE_ANON``, ``..._USER``, ``..._LOGIN``), read per
  request (``None`` turns one off).
* **The client's address** (:func:`client_address`, for the throttles and the lockout alike): ``REMOTE_ADDR``,
  or with ``TRUSTED_PROXY_COUNT`` = N proxies in front (``DJANGO_TRUSTED_PROXY_COUNT``, default 0) the address
  the N-th proxy from this server put in ``X-Forwarded-For`` (what DRF's ``NUM_PROXIES`` does). A header a
  client sends itself is never believed while the count is 0.
* **Lockout**: ``LOGIN_FAILURE_LIMIT`` failed logins for one login name from one address lock that name
  from that address for ``LOGIN_LOCKOUT_SECONDS``; while locked no password is even checked.
  :class:`LockoutModelBackend` counts for every path (the login page, Basic authentication). A name locked
  from one address still logs in from any other, and an organiser unlocks it everywhere at once from the
  event's staff page (:func:`unlock`).
* **One-time passwords** (``tournament.staff.passwords``): an account whose password someone else set logs in
  only on the login page, which then asks for a new password (``infra.views.FirstPasswordView``, Django's
  ``SetPasswordForm`` and password validators) before the session is logged in; until then the account is
  anonymous everywhere (:meth:`LockoutModelBackend.get_user`) and Basic authentication refuses it.
* **Basic authentication** (``API_BASIC_AUTH``, ``DJANGO_API_BASIC_AUTH``; off by default when
  ``DJANGO_DEBUG=0``): when off, a Basic header is ignored before any password hash is computed.
"""
import hashlib
import secrets

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm, SetPasswordForm
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.authentication import BasicScheme, SessionScheme
from rest_framework import authentication, exceptions, throttling

from infra import clock
from tournament.staff import passwords


# --------------------------------------------------------------------------- throttles
class _SettingsRate:
    """Read the rate from ``settings.API_THROTTLE_RATES`` at each request (not at import); the client is
    :func:`client_address` (the one rule of which forwarded address to believe)."""

    def get_rate(self):
        return getattr(settings, "API_THROTTLE_RATES", {}).get(self.scope)

    def get_ident(self, request):
        return client_address(request)


class AnonThrottle(_SettingsRate, throttling.AnonRateThrottle):
    """Anonymous API requests, by client address."""


class UserThrottle(_SettingsRate, throttling.UserRateThrottle):
    """Authenticated API requests, by user, counted in each server process's memory: a referee's every
    write would otherwise pay a round trip to the shared cache (a file write without Redis) for a limit
    meant to stop a runaway script, which a per-process count stops as well (with N processes a user may
    reach N times the rate). Anonymous requests and login attempts are counted in the shared cache."""

    cache = LocMemCache("user-throttle", {"OPTIONS": {"MAX_ENTRIES": 10_000}})


class LoginThrottle(_SettingsRate, throttling.SimpleRateThrottle):
    """Login attempts (the page's POSTs), by client address."""

    scope = "login"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


# --------------------------------------------------------------------------- lockout
def client_address(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXY_COUNT`` proxies the address the
    outermost trusted one saw (the N-th from the right of ``X-Forwarded-For``, as DRF's ``NUM_PROXIES``).
    Behind nginx's ``$proxy_add_x_forwarded_for`` a client's own header stays on the left, never read."""
    if request is None:
        return ""
    remote = request.META.get("REMOTE_ADDR") or ""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR") or ""
    if proxies <= 0 or not forwarded.strip():
        return remote
    addresses = [part.strip() for part in forwarded.split(",")]
    return addresses[-min(proxies, len(addresses))] or remote


def _name_id(username: str) -> str:
    return hashlib.sha256((username or "").lower().encode("utf-8", "surrogatepass")).hexdigest()


def _epoch_key(username: str) -> str:
    return f"login-epoch:{_name_id(username)}"


def _locked_name_key(username: str) -> str:
    return f"login-locked-name:{_name_id(username)}"


def _keys(username: str, address: str) -> tuple[str, str]:
    """The failure count's and the lock's keys for a name from an address, in the name's current epoch
    (:func:`unlock` starts a new one: every earlier count and lock of the name is then forgotten)."""
    epoch = cache.get(_epoch_key(username)) or "0"
    ident = hashlib.sha256(f"{(username or '').lower()}\x00{address}\x00{epoch}".encode("utf-8", "surrogatepass"))
    return f"login-failures:{ident.hexdigest()}", f"login-locked:{ident.hexdigest()}"


def locked(username: str, address: str) -> bool:
    """Is this login name locked out from this address?"""
    return bool(cache.get(_keys(username, address)[1]))


def record_failure(username: str, address: str) -> None:
    count_key, lock_key = _keys(username, address)
    period = settings.LOGIN_LOCKOUT_SECONDS
    cache.add(count_key, 0, timeout=period)
    try:
        count = cache.incr(count_key)
    except ValueError:  # expired in between
        cache.set(count_key, 1, timeout=period)
        count = 1
    if count >= settings.LOGIN_FAILURE_LIMIT:
        cache.set_many({lock_key: 1, _locked_name_key(username): 1}, timeout=period)
        cache.delete(count_key)


def clear_failures(username: str, address: str) -> None:
    cache.delete_many(list(_keys(username, address)))


def locked_names(usernames) -> set[str]:
    """Which of these login names are locked from some address now (for the staff page's unlock)."""
    keys = {_locked_name_key(name): name for name in usernames}
    return {keys[key] for key in cache.get_many(list(keys))}


def unlock(username: str) -> None:
    """Lift every lock and failure count of this login name, from every address (an organiser's unlock)."""
    cache.set(_epoch_key(username), secrets.token_hex(8), timeout=2 * settings.LOGIN_LOCKOUT_SECONDS + 60)
    cache.delete(_locked_name_key(username))


def lockout_message() -> str:
    minutes = max(1, settings.LOGIN_LOCKOUT_SECONDS // 60)
    return ngettext(
        "Too many failed logins for this name: it is locked for %(minutes)s minute from this device.",
        "Too many failed logins for this name: it is locked for %(minutes)s minutes from this device.",
        minutes) % {"minutes": minutes}


class LockoutModelBackend(ModelBackend):
    """Django's ModelBackend behind the lockout: a locked name is refused without a password check; each
    failure is counted, a success clears the count. A NUL in the name or password fails at once.

    A right one-time password authenticates only when the caller says it then asks for a new password
    (``one_time_password_ok``: the login page, and Basic authentication to refuse it with its reason); a
    session of an account that still has one is anonymous (:meth:`get_user`)."""

    def authenticate(self, request, username=None, password=None, one_time_password_ok=False, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        if "\x00" in username or "\x00" in password:
            return None
        address = client_address(request)
        if locked(username, address):
            raise PermissionDenied(lockout_message())  # Django's authenticate() stops here: no hash
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_failure(username, address)
            return None
        clear_failures(username, address)
        if not one_time_password_ok and passwords.has_one_time_password(user):
            return None  # the admin's login, a test client's login(): a new password first, on the login page
        return user

    def get_user(self, user_id):
        """The session's user (one query, as Django's), or None while the account has a one-time password."""
        user = passwords.with_one_time_flag(get_user_model().objects.filter(pk=user_id)).first()
        if user is None or not self.user_can_authenticate(user) or user.one_time_password_pending:
            return None
        return user


def program_login(request, username: str, password: str):
    """A program's login with a name and password (``POST /api/login/``): the login page's rules, the
    lockout (a locked name is refused without a password check; each failure counted) and no one-time
    password (it is replaced on the login page first). The user, else ``AuthenticationFailed`` with the reason."""
    if "\x00" in username or "\x00" in password:
        raise exceptions.AuthenticationFailed(_("The login name or password holds a character that is not allowed."))
    if locked(username, client_address(request)):
        raise exceptions.AuthenticationFailed(lockout_message())
    user = authenticate(request, one_time_password_ok=True,
                        **{get_user_model().USERNAME_FIELD: username, "password": password})
    if user is None or not user.is_active:
        raise exceptions.AuthenticationFailed(_("Wrong login name or password."))
    if passwords.has_one_time_password(user):
        raise exceptions.AuthenticationFailed(_("This account still has its one-time password: log in on the "
                                                "site and set a new password first."))
    return user


class LockoutAuthenticationForm(AuthenticationForm):
    """The login form: says so when the name is locked out, instead of "wrong password"; takes a one-time
    password (the view then asks for a new one before logging in)."""

    def clean(self):
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if username and locked(username, client_address(self.request)):
            raise ValidationError(lockout_message(), code="locked")
        if username is not None and password:
            self.user_cache = authenticate(self.request, username=username, password=password,
                                           one_time_password_ok=True)
            if self.user_cache is None:
                raise self.get_invalid_login_error()
            self.confirm_login_allowed(self.user_cache)
        return self.cleaned_data

    def get_invalid_login_error(self):
        """A wrong name or password, said with the words of the page and the staff cards (登录名, not the
        model's 用户名)."""
        return ValidationError(self.error_messages["invalid_login"], code="invalid_login",
                               params={"username": _("Login name")})


# --------------------------------------------------------------------------- the first login's new password
def _own_words(error: ValidationError) -> ValidationError:
    if error.code == "password_too_short" and error.params:
        minimum = error.params.get("min_length", 8)
        return ValidationError(ngettext("This password is too short: it needs at least %(min)s character.",
                                        "This password is too short: it needs at least %(min)s characters.",
                                        minimum) % {"min": minimum}, code=error.code)
    return error


FIRST_PASSWORD_KEY = "first-password"
FIRST_PASSWORD_SECONDS = 900  # a right one-time password opens the new-password page for 15 minutes


def begin_first_password(request, user, next_url: str) -> None:
    """The one-time password was right: remember (in the not yet logged-in session) whose new password the
    next page sets, and where to go after it."""
    request.session[FIRST_PASSWORD_KEY] = {
        "user": user.pk, "hash": user.get_session_auth_hash(), "next": next_url,
        "until": clock.now().timestamp() + FIRST_PASSWORD_SECONDS}


def first_password_user(request):
    """The account whose one-time password this session gave, while it still has it (None otherwise)."""
    data = request.session.get(FIRST_PASSWORD_KEY)
    if not isinstance(data, dict):
        return None
    user = None
    if data.get("until", 0) > clock.now().timestamp():
        user = get_user_model().objects.filter(pk=data.get("user"), is_active=True).first()
    if (user is None or not constant_time_compare(user.get_session_auth_hash(), str(data.get("hash")))
            or not passwords.has_one_time_password(user)):
        del request.session[FIRST_PASSWORD_KEY]
        return None
    return user


class FirstPasswordForm(SetPasswordForm):
    """Django's own form and password validators; the new password is not the one-time password."""

    def validate_password_for_user(self, user, password_field_name="new_password2"):
        """Django's validators; their one message Django 5.2's Chinese catalogue misses (its msgid changed)
        in the site's own words."""
        password = self.cleaned_data.get(password_field_name)
        if not password:
            return
        try:
            password_validation.validate_password(password, user)
        except ValidationError as error:
            self.add_error(password_field_name, [_own_words(e) for e in error.error_list])

    def clean(self):
        cleaned = super().clean()
        password = cleaned.get("new_password2")
        if password and "new_password2" not in self.errors and self.user.check_password(password):
            self.add_error("new_password2", ValidationError(
                _("Choose a new password: not the one-time password you were given."), code="password_unchanged"))
        return cleaned


class CheckedOnce:
    """For an authentication class: its verdict already reached on this request by :func:`infra.writers.key_owner` (the
    Idempotency-Key's owner, checked before the view) is answered again without a second token lookup or
    password hash. DRF's request passes the attribute through to Django's. A class that authenticates by its own
    means writes them as ``check`` (an ``authenticate`` of its own would answer before this one)."""

    def authenticate(self, request):
        known = getattr(request, "checked_credentials", None)
        if known is not None and known[0] is type(self):
            return known[1]
        return self.check(request)

    def check(self, request):
        """The authentication itself: the class's own, else its DRF base's."""
        return super().authenticate(request)


class SwitchableBasicAuthentication(CheckedOnce, authentication.BasicAuthentication):
    """HTTP Basic for scripts, only while ``settings.API_BASIC_AUTH`` is on: when off the header is
    ignored (the request is anonymous) and no password hash is computed. A NUL in the name or password
    is refused with a reason (PostgreSQL cannot even look such a name up)."""

    def authenticate(self, request):
        if not getattr(settings, "API_BASIC_AUTH", False):
            return None
        return super().authenticate(request)

    def authenticate_credentials(self, userid, password, request=None):
        if "\x00" in userid or "\x00" in password:
            raise exceptions.AuthenticationFailed(_("The login name or password holds a character that is not allowed."))
        if locked(userid, client_address(request)):
            raise exceptions.AuthenticationFailed(lockout_message())
        user = authenticate(request=request, one_time_password_ok=True,
                            **{get_user_model().USERNAME_FIELD: userid, "password": password})
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid username/password."))
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if passwords.has_one_time_password(user):
            raise exceptions.AuthenticationFailed(_("This account still has its one-time password: log in on the "
                                                    "site and set a new password first."))
        return (user, None)


class SwitchableBasicScheme(BasicScheme):
    """Basic authentication in the OpenAPI description (as DRF's own)."""

    target_class = "infra.auth.SwitchableBasicAuthentication"

    def get_security_definition(self, auto_schema):
        return {**super().get_security_definition(auto_schema),
                "description": "Login name and password: for development only (off in production unless "
                               "DJANGO_API_BASIC_AUTH is set); programs use an API token (apiToken)."}


class CsrfSessionAuthentication(authentication.SessionAuthentication):
    """The session, as DRF's, its CSRF refusal in the interface's language (DRF's detail is Django's English
    reason, e.g. "CSRF Failed: CSRF token missing.")."""

    def enforce_csrf(self, request):
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise exceptions.PermissionDenied(_(
                "This request failed the site's security check (CSRF): reload the page and try again; a program "
                "sends the csrftoken cookie's value in the X-CSRFToken header, or uses an API token.")) from None


class CsrfSessionScheme(SessionScheme):
    """The session (the site's own pages) in the OpenAPI description, with what its writes need."""

    target_class = "infra.auth.CsrfSessionAuthentication"
    priority = 1

    def get_security_definition(self, auto_schema):
        return {**super().get_security_definition(auto_schema),
                "description": "The session cookie of a login on the site (the pages' own requests). A write with "
                               "it (POST, PUT, PATCH, DELETE) also needs the `X-CSRFToken` header holding the "
                               "`csrftoken` cookie's value, and a `Referer` of this site over HTTPS: else 403. "
                               "Programs use an API token (apiToken) instead, which needs no CSRF token."}
