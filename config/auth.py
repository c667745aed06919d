"""Authentication fit for a venue: throttles on the shared cache, a lockout after repeated failed logins,
and Basic authentication that can be switched off.

* **Throttles** (DRF): anonymous API requests by address and login attempts by address on the default
  cache (shared by every process when ``REDIS_URL`` is set), authenticated ones by user in each process's
  memory (:class:`UserThrottle`); the rates are the
  settings ``API_THROTTLE_RATES`` (``DJANGO_THROTTLE_ANON``, ``..._USER``, ``..._LOGIN``), read per
  request (``None`` turns one off).
* **Lockout**: ``LOGIN_FAILURE_LIMIT`` failed logins for one login name from one address lock that name
  from that address for ``LOGIN_LOCKOUT_SECONDS``; while locked no password is even checked.
  :class:`LockoutModelBackend` counts for every path (the login page, Basic authentication).
* **Basic authentication** (``API_BASIC_AUTH``, ``DJANGO_API_BASIC_AUTH``; off by default when
  ``DJANGO_DEBUG=0``): when off, a Basic header is ignored before any password hash is computed.
"""
import hashlib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.forms.utils import ErrorDict
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.authentication import BasicScheme
from rest_framework import authentication, exceptions, throttling


# --------------------------------------------------------------------------- throttles
class _SettingsRate:
    """Read the rate from ``settings.API_THROTTLE_RATES`` at each request (not at import)."""

    def get_rate(self):
        return getattr(settings, "API_THROTTLE_RATES", {}).get(self.scope)


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
    return (request.META.get("REMOTE_ADDR") or "") if request is not None else ""


def _keys(username: str, address: str) -> tuple[str, str]:
    ident = hashlib.sha256(f"{(username or '').lower()}\x00{address}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"login-failures:{ident}", f"login-locked:{ident}"


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
        cache.set(lock_key, 1, timeout=period)
        cache.delete(count_key)


def clear_failures(username: str, address: str) -> None:
    cache.delete_many(list(_keys(username, address)))


def lockout_message() -> str:
    minutes = max(1, settings.LOGIN_LOCKOUT_SECONDS // 60)
    return ngettext(
        "Too many failed logins for this name: it is locked for %(minutes)s minute from this device.",
        "Too many failed logins for this name: it is locked for %(minutes)s minutes from this device.",
        minutes) % {"minutes": minutes}


class LockoutModelBackend(ModelBackend):
    """Django's ModelBackend behind the lockout: a locked name is refused without a password check; each
    failure is counted, a success clears the count. A NUL in the name or password fails at once."""

    def authenticate(self, request, username=None, password=None, **kwargs):
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
        else:
            clear_failures(username, address)
        return user


class LockoutAuthenticationForm(AuthenticationForm):
    """The login form: says so when the name is locked out, instead of "wrong password"."""

    def clean(self):
        username = self.cleaned_data.get("username")
        if username and locked(username, client_address(self.request)):
            raise ValidationError(lockout_message(), code="locked")
        return super().clean()


class ThrottledLoginView(LoginView):
    """The login page: POSTs are throttled per address (``API_THROTTLE_RATES["login"]``)."""

    template_name = "registration/login.html"
    form_class = LockoutAuthenticationForm

    def post(self, request, *args, **kwargs):
        throttle = LoginThrottle()
        if not throttle.allow_request(request, self):
            seconds = int(throttle.wait() or 1)
            form = self.form_class(request=request)  # unbound: nothing is validated, no password hashed
            form._errors = ErrorDict({NON_FIELD_ERRORS: form.error_class([ngettext(
                "Too many login attempts from this device: try again in %(seconds)s second.",
                "Too many login attempts from this device: try again in %(seconds)s seconds.",
                seconds) % {"seconds": seconds}], error_class="nonfield")})
            response = self.render_to_response(self.get_context_data(form=form), status=429)
            response["Retry-After"] = str(seconds)
            return response
        return super().post(request, *args, **kwargs)


# --------------------------------------------------------------------------- DRF authentication
class SwitchableBasicAuthentication(authentication.BasicAuthentication):
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
        return super().authenticate_credentials(userid, password, request)


class SwitchableBasicScheme(BasicScheme):
    """Basic authentication in the OpenAPI description (as DRF's own)."""

    target_class = "config.auth.SwitchableBasicAuthentication"
