"""Pages for people: an event's staff (organisers add, remove, reset a password, print a staff card), the
site superuser's page of organiser accounts, and a fresh install's first administrator. Thin: the logic is in :mod:`tournament.staff.services`."""
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.forms.utils import ErrorDict
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from common.errors import UserError
from infra import auth
from tournament import access
from tournament.permissions import organiser_required
from tournament.staff import first_run, services, tokens
from tournament.staff.card import staff_card_pdf
from tournament.staff.forms import (
    CardForm,
    FirstRunForm,
    OrganiserAccountForm,
    SiteTokenForm,
    StaffForm,
    TokenForm,
)


def login_address(request) -> str:
    """The login page's address as this request reached the site (what a staff card's QR code opens)."""
    return request.build_absolute_uri(reverse("login"))


@organiser_required
def staff_page(request, event):
    """The event's staff with the add form; a new person's one-time password is shown once."""
    form, created = StaffForm(request.POST or None), None
    if request.method == "POST" and form.is_valid() and (added := form.save(event)) is not None:
        row, password = added
        if password is None:
            messages.success(request, _("%(name)s is now %(role)s.") % {
                "name": services.display_name(row.user), "role": row.get_role_display()})
            return redirect("event_staff", slug=event.slug)
        created = {"row": row, "password": password, "name": services.display_name(row.user)}
        form = StaffForm(initial={"role": form.cleaned_data["role"]})
    return _staff_page(request, event, form=form, created=created)


def _people(rows):
    """(user id, name) of everybody on the staff, by name: whom a token may act as."""
    return sorted({row.user_id: row.name for row in rows}.items(), key=lambda p: p[1])


def _staff_page(request, event, *, form=None, token_form=None, **context):
    rows = services.staff_rows(event)
    people = _people(rows)
    return render(request, "tournament/staff/staff.html", {
        "event": event, "rows": rows, "login_url": login_address(request), "form": form or StaffForm(),
        "tokens": tokens.event_tokens(event), "token_form": token_form or TokenForm(people=people), **context,
    })


@organiser_required
@require_POST
def token_create(request, event):
    """A new API token for a person on the staff; its key is shown once on the staff page."""
    token_form = TokenForm(request.POST, people=_people(services.staff_rows(event)))
    made = token_form.save(event, by=request.user) if token_form.is_valid() else None
    if made is None:
        return _staff_page(request, event, token_form=token_form)
    token, key = made
    return _staff_page(request, event, created_token={"token": token, "key": key,
                                                      "name": services.display_name(token.user)})


@organiser_required
@require_POST
def token_revoke(request, event, pk):
    try:
        token = tokens.revoke_token(event, pk, by=request.user)
        messages.success(request, _("The token “%(name)s” was revoked.") % {"name": token.name})
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect("event_staff", slug=event.slug)


@organiser_required
@require_POST
def staff_remove(request, event, pk):
    try:
        services.remove_staff(event, pk)
        messages.success(request, _("The role was removed; past records keep the person's name."))
    except UserError as exc:
        messages.error(request, str(exc))
    return redirect("event_staff", slug=event.slug)


@organiser_required
@require_POST
def staff_reset(request, event, user_id):
    try:
        user, password = services.reset_password(event, user_id)
    except UserError as exc:
        messages.error(request, str(exc))
        return redirect("event_staff", slug=event.slug)
    return render(request, "tournament/staff/password.html", {
        "event": event, "name": services.display_name(user), "username": user.username, "password": password,
        "user_id": user.pk, "login_url": login_address(request),
        "back": reverse("event_staff", args=[event.slug]),
    })


@organiser_required
@require_POST
def staff_unlock(request, event, user_id):
    """Lift the login lockout of a person on the staff (from every device)."""
    try:
        user = services.unlock_login(event, user_id, by=request.user)
    except UserError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("%(name)s can log in again.") % {"name": services.display_name(user)})
    return redirect("event_staff", slug=event.slug)


@organiser_required
@require_POST
def staff_card(request, event):
    """A staff card PDF for a person on the staff; the password comes with the request and is not kept."""
    form = CardForm(request.POST)
    user_id = form.cleaned_data["user_id"] if form.is_valid() else None
    rows = [r for r in services.staff_rows(event) if r.user_id == user_id]
    if not rows:
        raise PermissionDenied(_("This person is not on the event's staff."))
    user = rows[0].user
    pdf = staff_card_pdf(event_name=event.name, name=services.display_name(user),
                         roles=[str(r.get_role_display()) for r in rows], username=user.username,
                         password=form.cleaned_data["password"], login_url=login_address(request))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{event.slug}-staff-{user.pk}.pdf"'
    return response


@sensitive_post_parameters()
@never_cache
def first_run_page(request):
    """A fresh install's first site administrator, for whoever gives the setup code (``first_run``); gone
    (404) once the site has one."""
    if not first_run.needed():
        raise Http404(_(first_run.ALREADY))
    if request.method != "POST":
        return render(request, "tournament/staff/first_run.html", {"form": FirstRunForm()})
    refused = _setup_refused(request)
    if refused is not None:
        return refused
    form = FirstRunForm(request.POST)
    if form.is_valid():
        try:
            user = form.save()
        except UserError as error:   # another post made the administrator meanwhile
            form.add_error(None, str(error))
            return render(request, "tournament/staff/first_run.html", {"form": form}, status=409)
        auth_login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        messages.success(request, _("You are the site administrator. Next, make an account for each organiser."))
        return redirect("site_organisers")
    if form.has_error("code", "setup_code"):
        auth.record_failure(SETUP_NAME, auth.client_address(request))
    return render(request, "tournament/staff/first_run.html", {"form": form})


#: The lockout's "login name" for wrong setup codes (a NUL: no account can have it).
SETUP_NAME = "\x00first-run-setup"


class SetupThrottle(auth.LoginThrottle):
    """The set-up page's posts, by address, at the login page's rate (a count of their own)."""

    cache_format = "throttle_setup_%(ident)s"


def _setup_refused(request):
    """A post of the set-up page from an address that posted too fast, or gave ``LOGIN_FAILURE_LIMIT`` wrong
    codes (locked ``LOGIN_LOCKOUT_SECONDS``, as a login name): 429 before the code is read, or None."""
    throttle = SetupThrottle()
    if throttle.allow_request(request, None):
        if not auth.locked(SETUP_NAME, auth.client_address(request)):
            return None
        seconds = settings.LOGIN_LOCKOUT_SECONDS
        message = _("Too many wrong setup codes from this device: try again in %(minutes)s min.") % {
            "minutes": max(1, seconds // 60)}
    else:
        seconds = int(throttle.wait() or 1)
        message = _("Too many attempts from this device: try again in %(seconds)s s.") % {"seconds": seconds}
    form = FirstRunForm(request.POST)
    form._errors = ErrorDict({"code": form.error_class([message])})   # nothing validated, no code read
    response = render(request, "tournament/staff/first_run.html", {"form": form}, status=429)
    response["Retry-After"] = str(seconds)
    return response


def _superuser(request):
    if not request.user.is_superuser:
        raise PermissionDenied(_("Only a site administrator may manage organiser accounts."))


@login_required
def organisers_page(request):
    """The site superuser's page: the accounts that may create events, and a form for a new one."""
    _superuser(request)
    form, created = OrganiserAccountForm(request.POST or None), None
    if request.method == "POST" and form.is_valid() and (made := form.save()) is not None:
        user, password = made
        created = {"name": services.display_name(user), "username": user.username, "password": password,
                   "user_id": user.pk}
        form = OrganiserAccountForm()
    return render(request, "tournament/staff/organisers.html", {
        "accounts": [(u, services.display_name(u)) for u in services.organiser_accounts()],
        "form": form, "created": created, "login_url": login_address(request),
    })


@login_required
@require_POST
def organiser_card(request, user_id):
    """A card for a new organiser account (superuser only): login name, password, login address."""
    _superuser(request)
    user = get_object_or_404(services.organiser_accounts(), pk=user_id)
    form = CardForm(request.POST)
    pdf = staff_card_pdf(event_name=_("Tractor tournaments"), name=services.display_name(user),
                         roles=[_("Organiser")], username=user.username,
                         password=form.cleaned_data["password"] if form.is_valid() else "",
                         login_url=login_address(request))
    return HttpResponse(pdf, content_type="application/pdf")


def _may_create_events(request):
    if not access.may_create_events(request.user):
        raise PermissionDenied(_("Only organisers may create events."))


@login_required
def site_tokens_page(request):
    """One's own site-wide organiser tokens (a program creates events with one): made here, shown once, revoked."""
    _may_create_events(request)
    form, created = SiteTokenForm(request.POST or None), None
    if request.method == "POST" and form.is_valid() and (made := form.save(request.user)) is not None:
        created = {"token": made[0], "key": made[1]}
        form = SiteTokenForm()
    response = render(request, "tournament/staff/site_tokens.html", {
        "form": form, "created": created, "tokens": list(tokens.site_tokens_of(request.user))},
        status=400 if form.errors else 200)
    if created:
        patch_cache_control(response, no_store=True)   # the key is shown once: no copy kept anywhere
    return response


@login_required
@require_POST
def site_token_revoke(request, pk):
    _may_create_events(request)
    token = tokens.revoke_token(None, pk, by=request.user)
    messages.success(request, _("The token “%(name)s” was revoked.") % {"name": token.name})
    return redirect("site_tokens")
