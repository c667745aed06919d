"""API tokens (per event, hashed, revocable); append-only everywhere on PostgreSQL (row triggers on
the tables that lacked one: draws, pair removals, lead reports; a statement-level trigger refusing TRUNCATE
on every append-only table)."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from infra.appendonly import append_only_trigger, truncate_refused_trigger

#: Every AppendOnlyModel's table (tests/test_append_only.py checks this list against the models).
APPEND_ONLY_TABLES = [
    "scoring_hand",
    "rulings_ruling", "rulings_rulingvoid", "rulings_approval", "rulings_choicemade", "rulings_appeal",
    "rulings_appealdecision",
    "tournament_draw", "tournament_resultdecision", "tournament_roundclosure", "tournament_clockevent",
    "tournament_clockfiring", "tournament_handallowance", "tournament_pairremoval", "tournament_leadreport",
    "tournament_pairrestoration", "tournament_pairsubstitution",
]
NEW_ROW_TRIGGERS = ["tournament_draw", "tournament_pairremoval", "tournament_leadreport"]


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0017_printjob_heartbeat'),
        ('scoring', '0003_hand_outcome_redeal'),
        ('rulings', '0003_amended'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, verbose_name='name')),
                ('prefix', models.CharField(db_index=True, max_length=16)),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(verbose_name='created at')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
                ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('event', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to='tournament.event', verbose_name='event')),
                ('revoked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'API token',
                'verbose_name_plural': 'API tokens',
                'ordering': ['event', '-created_at', 'id'],
            },
        ),
        *(append_only_trigger(table) for table in NEW_ROW_TRIGGERS),
        *(truncate_refused_trigger(table) for table in APPEND_ONLY_TABLES),
    ]
