"""Data migration: the organiser, chief referee, table referee and arbitration groups."""
from django.db import migrations


def create_roles(apps, schema_editor):
    from tournament.roles import sync_role_groups

    sync_role_groups(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"),
                     apps.get_model("contenttypes", "ContentType"))


def remove_roles(apps, schema_editor):
    from tournament.roles import ROLE_PERMISSIONS

    apps.get_model("auth", "Group").objects.filter(name__in=ROLE_PERMISSIONS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
