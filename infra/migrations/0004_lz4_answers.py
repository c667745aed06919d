# An idempotent request's stored answer is compressed with lz4 on PostgreSQL (infra.fields).

from django.db import migrations

import infra.fields


class Migration(migrations.Migration):

    dependencies = [
        ("config", "0003_servers_storedfile_cache"),
    ]

    operations = [
        infra.fields.compress_with_lz4("config_idempotencyrecord", "body"),
    ]
