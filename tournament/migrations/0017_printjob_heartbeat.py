from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0016_restorations_substitutions'),
    ]

    operations = [
        migrations.AddField(
            model_name='printjob',
            name='heartbeat_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='last heartbeat'),
        ),
        migrations.AddField(
            model_name='printjob',
            name='attempts',
            field=models.PositiveSmallIntegerField(default=0, verbose_name='attempts'),
        ),
    ]
