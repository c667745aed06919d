"""The demo's accounts (one per role, with display names) and their roles in the demo events.

They are marked as the demo's (``StaffAccount.demo``, what ``manage.py remove_demo`` deletes) and hold no
site-wide power: no permission, group or admin flag. Their passwords are published (README), so each holds
its role in the demo events only; the demo organiser manages those and creates no event (a real organiser's
account comes from a site administrator: README, "Accounts and roles"). An account with a demo login name that
is not the demo's (made before the demo, with its own password) is left alone and given no demo role.
"""
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

from tournament import roles
from tournament.models import EventRole, StaffAccount

DEMO_ACCOUNTS = [
    ("organiser", "demo-organiser", roles.ORGANISER, "王主任"),
    ("chief", "demo-chief", roles.CHIEF_REFEREE, "李裁判长"),
    ("referee1", "demo-referee", roles.TABLE_REFEREE, "张裁判"),
    ("referee2", "demo-referee", roles.TABLE_REFEREE, "刘裁判"),
    ("referee3", "demo-referee", roles.TABLE_REFEREE, "陈裁判"),
    ("referee4", "demo-referee", roles.TABLE_REFEREE, "杨裁判"),
    ("arbiter1", "demo-arbiter", roles.ARBITRATION, "赵仲裁"),
    ("arbiter2", "demo-arbiter", roles.ARBITRATION, "孙仲裁"),
]
DEMO_PASSWORDS = {username: password for username, password, _role, _display in DEMO_ACCOUNTS}


def is_demo_account(user) -> bool:
    """One of the demo's accounts: marked so, or (seeded before the mark) a demo login name still holding the
    demo's published password and no superuser."""
    if StaffAccount.objects.filter(user=user, demo=True).exists():
        return True
    password = DEMO_PASSWORDS.get(user.username)
    return password is not None and not user.is_superuser and user.check_password(password)


def demo_users():
    """The demo's accounts in this database (see :func:`is_demo_account`)."""
    candidates = get_user_model().objects.filter(username__in=DEMO_PASSWORDS).order_by("username")
    return [user for user in candidates if is_demo_account(user)]


def ensure_accounts():
    """Create the demo accounts with their display names, marked as the demo's and with no site-wide power
    (their roles are the demo events', given by :func:`ensure_event_roles`); returns the DEMO_ACCOUNTS rows
    that are the demo's here."""
    User = get_user_model()
    roles.sync_role_groups(Group, Permission, ContentType)
    ours = []
    for row in DEMO_ACCOUNTS:
        username, password, _role, display = row
        user = User.objects.filter(username=username).first()
        if user is None:
            user = User.objects.create_user(username=username, password=password, first_name=display)
        elif not is_demo_account(user):
            continue  # somebody's own account with this login name: not the demo's to change
        user.first_name, user.is_staff, user.is_superuser = display, False, False
        user.save(update_fields=["first_name", "is_staff", "is_superuser"])
        user.user_permissions.clear()  # an earlier demo let its organiser create events: no more
        user.groups.clear()
        StaffAccount.objects.update_or_create(user=user, defaults={"demo": True, "one_time_password": False})
        ours.append(row)
    return ours


def ensure_event_roles(event):
    """Each demo account holds its role in the demo event (and in no other event)."""
    users = {user.username: user for user in get_user_model().objects.filter(
        username__in=DEMO_PASSWORDS, staff_account__demo=True)}
    for username, _password, role, _display in DEMO_ACCOUNTS:
        if username in users:
            EventRole.objects.get_or_create(event=event, user=users[username], role=role)
