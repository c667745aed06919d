"""The four staff roles, as Django groups with permissions.

Anonymous visitors read published pages only and need no group. The data migration
``tournament/migrations/0002_roles.py`` creates the groups from this table.
"""
from django.utils.translation import gettext_lazy as _

ORGANISER = "organiser"
CHIEF_REFEREE = "chief_referee"
TABLE_REFEREE = "table_referee"
ARBITRATION = "arbitration"

ROLE_NAMES = {
    ORGANISER: _("Organiser"),
    CHIEF_REFEREE: _("Chief referee"),
    TABLE_REFEREE: _("Table referee"),
    ARBITRATION: _("Arbitration"),
}

# Permission codenames on tournament.Event, per role.
ROLE_PERMISSIONS = {
    ORGANISER: ["manage_event"],
    CHIEF_REFEREE: ["run_clock", "record_hands", "rule_all_tables", "approve_rulings"],
    TABLE_REFEREE: ["record_hands"],
    ARBITRATION: ["arbitrate"],
}


def sync_role_groups(Group, Permission, ContentType):
    """Create or update the role groups (model classes passed in so migrations can use historical ones)."""
    event_type, _ = ContentType.objects.get_or_create(app_label="tournament", model="event")
    for role, codenames in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role)
        perms = []
        for codename in codenames:
            perm, _ = Permission.objects.get_or_create(
                content_type=event_type, codename=codename, defaults={"name": codename.replace("_", " ")}
            )
            perms.append(perm)
        group.permissions.set(perms)


def role_groups(user):
    """The groups of ``user`` (a signed-in account) that are roles, as a queryset."""
    return user.groups.filter(name__in=ROLE_PERMISSIONS)


def user_roles(user):
    """The set of role names a user holds (empty for anonymous users)."""
    if not user.is_authenticated:
        return set()
    return set(role_groups(user).values_list("name", flat=True))
