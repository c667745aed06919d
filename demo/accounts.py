"""The demo's accounts (one per role, with display names) and their roles in a demo event."""
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType

from tournament import roles
from tournament.models import EventRole

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


def ensure_accounts():
    """Create the demo accounts with their display names (their roles are the demo event's, given by
    :func:`ensure_event_roles`); returns DEMO_ACCOUNTS. The organiser may create further events."""
    User = get_user_model()
    roles.sync_role_groups(Group, Permission, ContentType)
    for username, password, role, display in DEMO_ACCOUNTS:
        user, created = User.objects.get_or_create(username=username, defaults={"first_name": display})
        if created:
            user.set_password(password)
        user.first_name = display
        user.save()
        if role == roles.ORGANISER:
            user.user_permissions.add(Permission.objects.get(content_type__app_label="tournament",
                                                             codename="add_event"))
    return DEMO_ACCOUNTS


def ensure_event_roles(event):
    """Each demo account holds its role in the demo event (and in no other)."""
    users = {u.username: u for u in get_user_model().objects.filter(username__in=[a[0] for a in DEMO_ACCOUNTS])}
    for username, _password, role, _display in DEMO_ACCOUNTS:
        EventRole.objects.get_or_create(event=event, user=users[username], role=role)
