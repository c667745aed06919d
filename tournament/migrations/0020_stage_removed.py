"""A stage deleted after its draws were voided keeps its row (the draws are append-only and
point at it), marked removed and hidden from every page."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0019_staffaccount'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='stage',
            name='removed_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='removed at'),
        ),
        migrations.AddField(
            model_name='stage',
            name='removed_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='removed by'),
        ),
    ]
