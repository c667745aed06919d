"""What the staff pages know of an account (the event it was made for, whether its password
is a one-time password, whether it is a demo account). Accounts already working at one event only, with no
site-wide power, count as made for that event: its organisers keep the reset they had."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def made_for_their_one_event(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EventRole = apps.get_model("tournament", "EventRole")
    StaffAccount = apps.get_model("tournament", "StaffAccount")
    events = {}
    for user_id, event_id in EventRole.objects.values_list("user_id", "event_id").distinct():
        events.setdefault(user_id, set()).add(event_id)
    plain = User.objects.filter(pk__in=[u for u, e in events.items() if len(e) == 1], is_superuser=False,
                                is_staff=False, user_permissions__isnull=True, groups__isnull=True)
    StaffAccount.objects.bulk_create([StaffAccount(user_id=pk, made_for_id=next(iter(events[pk])))
                                      for pk in plain.values_list("pk", flat=True)])


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('tournament', '0018_tokens_append_only'),
    ]

    operations = [
        migrations.CreateModel(
            name='StaffAccount',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='staff_account', serialize=False, to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ('one_time_password', models.BooleanField(default=False, verbose_name='one-time password')),
                ('demo', models.BooleanField(default=False, verbose_name='demo account')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('made_for', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournament.event', verbose_name='made for event')),
            ],
            options={
                'verbose_name': 'staff account',
                'verbose_name_plural': 'staff accounts',
            },
        ),
        migrations.RunPython(made_for_their_one_event, migrations.RunPython.noop),
    ]
