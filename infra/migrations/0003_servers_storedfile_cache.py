"""Files in the database (infra.storage.DatabaseStorage) and the shared cache's table.

The cache table is the one Django's ``createcachetable`` makes (``config_cache``, used when the cache
is the database: see ``CACHES`` in config/settings.py); creating it here means ``migrate`` is the only
set-up step on every machine.
"""
import io

import infra.clock
from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations, models

CACHE_TABLE = "config_cache"


def create_cache_table(apps, schema_editor):
    command = CreateCacheTable(stdout=io.StringIO())
    command.verbosity = 0
    command.create_table(schema_editor.connection.alias, CACHE_TABLE, dry_run=False)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(CACHE_TABLE)}")


class Migration(migrations.Migration):

    dependencies = [
        ('config', '0002_idempotency_created_at_clock'),
    ]

    operations = [
        migrations.CreateModel(
            name='StoredFile',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=255, unique=True)),
                ('content', models.BinaryField()),
                ('size', models.BigIntegerField()),
                ('created_at', models.DateTimeField(default=infra.clock.now)),
            ],
        ),
        migrations.RunPython(create_cache_table, drop_cache_table),
    ]
