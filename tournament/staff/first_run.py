"""The first site administrator of a fresh install, made in the browser, not in a shell.

While the site has no active superuser, the page ``/setup/`` makes one for whoever gives the setup code.
``manage.py first_run`` (``make run`` runs it before serving) prints the page's address and the code; the
code is kept in ``VAR_DIR/setup-code`` (readable by the server's account only) and deleted once the
administrator exists, so nobody else on the venue's network can claim the site first. The page throttles
its posts and locks an address out after wrong codes, as the login page does (``tournament.staff.views``);
:func:`make_administrator` makes one administrator, however many right posts arrive at once.
"""
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.crypto import constant_time_compare

from common.errors import ConflictError, gettext_noop
from infra.db import lock_table

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"   # no 0/O, 1/I: read off a screen and typed on a phone
LENGTH = 8
ALREADY = gettext_noop("The site already has its administrator.")


def needed() -> bool:
    """Has the site no active site administrator yet?"""
    return not get_user_model().objects.filter(is_superuser=True, is_active=True).exists()


def _path():
    return settings.VAR_DIR / "setup-code"


def _plain(code) -> str:
    """The code's letters and digits only, upper case: "abcd-efgh" and "ABCD EFGH" are the same code."""
    return "".join(ch for ch in str(code).upper() if ch in ALPHABET)


def shown(code) -> str:
    plain = _plain(code)
    return f"{plain[:4]}-{plain[4:]}"


def issue_code() -> str:
    """The setup code (as shown, ``ABCD-EFGH``): the one kept already, else a new one, kept."""
    path = _path()
    if path.exists() and len(_plain(path.read_text())) == LENGTH:
        return shown(path.read_text())
    code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    path.write_text(code + "\n")
    path.chmod(0o600)
    return shown(code)


def code_ok(given) -> bool:
    """Is ``given`` the kept setup code (none kept: never)?"""
    path = _path()
    if not path.exists():
        return False
    kept = _plain(path.read_text())
    return len(kept) == LENGTH and constant_time_compare(_plain(given), kept)


def forget_code():
    _path().unlink(missing_ok=True)


@transaction.atomic
def make_administrator(username: str, display: str, password: str):
    """The site administrator (a Django superuser with a password of their own); the code is deleted once
    the account is committed. The users' table is locked and "no administrator yet" read again inside the
    lock: of right posts arriving together one makes the administrator, the others are refused (409)."""
    lock_table(get_user_model())
    if not needed():
        raise ConflictError(ALREADY, "code")
    user = get_user_model().objects.create_superuser(username=username, email="", password=password,
                                                     first_name=display)
    transaction.on_commit(forget_code)
    return user
