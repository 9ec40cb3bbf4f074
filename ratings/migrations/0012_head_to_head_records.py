"""The head-to-head records kept per player, opponent and game (``HeadToHead``), from then on
recounted by each match's rating event. It filled them from the seats of every finished match
until 0013 dropped the table (issue 32: more rows than the pool's history); a fill here would
only be dropped by the next migration."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0015_audit_actions_of_this_release'),
        ('ratings', '0011_history_player_index_covers_place'),
    ]

    operations = [
        migrations.CreateModel(
            name='HeadToHead',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game', models.CharField(max_length=32, verbose_name='game')),
                ('met', models.PositiveIntegerField(verbose_name='meetings')),
                ('wins', models.PositiveIntegerField(verbose_name='wins')),
                ('losses', models.PositiveIntegerField(verbose_name='losses')),
                ('draws', models.PositiveIntegerField(verbose_name='draws')),
                ('opponent', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='matches.player', verbose_name='opponent')),
                ('player', models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='matches.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'head-to-head record',
                'verbose_name_plural': 'head-to-head records',
                'constraints': [models.UniqueConstraint(fields=('player', 'opponent', 'game'), name='head_to_head_one_per_pair')],
            },
        ),
    ]
