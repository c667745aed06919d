"""A 造反 (004 二.7) takes the number of the deal it precedes: the unique constraints on a hand's number hold
for the other outcomes only. Every row stored before stays valid (the constraints only loosen) and replays
the same (``scoring.hands``: a 造反 stored with a number of its own is replayed as then); the kept states of
the matches holding a 造反 are dropped (a cache: the next write or read replays them)."""

from django.db import migrations, models


def drop_kept_states_with_rebellions(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    MatchSnapshot = apps.get_model("scoring", "MatchSnapshot")
    matches = Hand.objects.filter(outcome="rebel").values_list("match_id", flat=True).distinct()
    MatchSnapshot.objects.filter(match_id__in=list(matches)).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0007_hand_rebellion'),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.UniqueConstraint(condition=models.Q(('supersedes__isnull', True), models.Q(('outcome', 'rebel'), _negated=True)), fields=('match', 'number'), name='unique_original_deal'),
        ),
        migrations.AddConstraint(
            model_name='hand',
            constraint=models.UniqueConstraint(condition=models.Q(('outcome', 'rebel'), _negated=True), fields=('match', 'number', 'version'), name='unique_deal_version'),
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='unique_original_hand',
        ),
        migrations.RemoveConstraint(
            model_name='hand',
            name='unique_hand_version',
        ),
        migrations.RunPython(drop_kept_states_with_rebellions, migrations.RunPython.noop),
    ]
