# The kept match state's data as JSON text, compressed with lz4 on PostgreSQL (infra.fields).

import infra.fields
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0004_match_snapshot"),
    ]

    operations = [
        migrations.AlterField(
            model_name="matchsnapshot",
            name="data",
            field=infra.fields.JSONText(),
        ),
        infra.fields.compress_with_lz4("scoring_matchsnapshot", "data"),
    ]
