"""The login pages: the login itself (throttled per address, the lockout's form) and the new password an
account sets after a one-time password; and the language menu's switch. The rules they apply live in :mod:`infra.auth` (throttles, lockout,
the one-time password's session); these are only the pages."""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.views import LoginView
from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods
from django.views.generic.edit import FormView

from infra.auth import (
    FIRST_PASSWORD_KEY,
    FirstPasswordForm,
    LockoutAuthenticationForm,
    LoginThrottle,
    begin_first_password,
    first_password_user,
)
from tournament.staff import passwords


@method_decorator([sensitive_post_parameters(), never_cache], name="dispatch")
class FirstPasswordView(FormView):
    """After a one-time password: the owner sets their own password, and only then is logged in."""

    template_name = "registration/first_password.html"
    form_class = FirstPasswordForm

    def dispatch(self, request, *args, **kwargs):
        self.user = first_password_user(request)
        if self.user is None:
            return redirect("login")
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "user": self.user}

    def get_context_data(self, **kwargs):
        return super().get_context_data(username=self.user.username, **kwargs)

    def form_valid(self, form):
        user = form.save()
        passwords.password_set_by_owner(user)
        next_url = self.request.session.pop(FIRST_PASSWORD_KEY)["next"]
        auth_login(self.request, user)
        messages.success(self.request, _("Your new password is set. Use it from now on."))
        return HttpResponseRedirect(next_url)


class ThrottledLoginView(LoginView):
    """The login page: POSTs are throttled per address (``API_THROTTLE_RATES["login"]``); a one-time
    password leads to the new-password page instead of logging in."""

    template_name = "registration/login.html"
    form_class = LockoutAuthenticationForm

    def get(self, request, *args, **kwargs):
        if first_password_user(request) is not None:
            return redirect("first_password")
        return super().get(request, *args, **kwargs)

    def form_valid(self, form):
        user = form.get_user()
        if passwords.has_one_time_password(user):
            begin_first_password(self.request, user, self.get_success_url())
            return redirect("first_password")
        return super().form_valid(form)

    def post(self, request, *args, **kwargs):
        throttle = LoginThrottle()
        if not throttle.allow_request(request, self):
            seconds = int(throttle.wait() or 1)
            form = self.form_class(request=request)  # unbound: nothing is validated, no password hashed
            refusal = ngettext(
                "Too many login attempts from this device: try again in %(seconds)s second.",
                "Too many login attempts from this device: try again in %(seconds)s seconds.",
                seconds) % {"seconds": seconds}
            response = self.render_to_response(self.get_context_data(form=form, refusal=refusal), status=429)
            response["Retry-After"] = str(seconds)
            return response
        return super().post(request, *args, **kwargs)


# --------------------------------------------------------------------------- DRF authentication


@require_http_methods(["GET", "POST"])
def set_language(request):
    """The language menu: the language cookie set, and back to the page. The menu asks with a GET, so the pages
    that show it carry no per-visitor token (an anonymous visitor's page is the same for everyone: a cache in
    front may keep it, and it may be compressed); a language is a preference, nothing to forge. A POST (Django's
    own form of this address) is still taken, with its CSRF check."""
    asked = request.GET if request.method == "GET" else request.POST
    code, back = asked.get("language", ""), asked.get("next") or "/"
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        back = "/"
    response = HttpResponseRedirect(back)
    if code in dict(settings.LANGUAGES):
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, code, max_age=settings.LANGUAGE_COOKIE_AGE,
                            path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
                            secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                            samesite=settings.LANGUAGE_COOKIE_SAMESITE)
    return response
