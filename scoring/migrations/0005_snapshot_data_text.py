# The kept match state's data as JSON text, compressed with lz4 on PostgreSQL (config.fields).

import config.fields
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0004_match_snapshot"),
    ]

    operations = [
        migrations.AlterField(
            model_name="matchsnapshot",
            name="data",
            field=config.fields.JSONText(),
        ),
        config.fields.compress_with_lz4("scoring_matchsnapshot", "data"),
    ]
