"""The head-to-head records kept per player, opponent and game (``HeadToHead``), filled here
from the seats of every finished match (as a full recompute rebuilds them); from then on each
match's rating event recounts the pairs of its players."""

import django.db.models.deletion
from django.db import migrations, models


def fill_records(apps, schema_editor):
    from ratings.head_to_head import pair_records

    alias = schema_editor.connection.alias
    Match = apps.get_model("matches", "Match")
    Seat = apps.get_model("matches", "Seat")
    HeadToHead = apps.get_model("ratings", "HeadToHead")
    finished = Match.objects.using(alias).filter(status="finished")
    for game in sorted(set(finished.values_list("game", flat=True).distinct())):
        of_game = finished.filter(game=game)
        placements = dict(of_game.order_by().values_list("pk", "result__placements"))
        seats = (
            Seat.objects.using(alias)
            .filter(match__in=of_game)
            .order_by()
            .values_list("match_id", "player_id", "position", "team")
        )
        counted = pair_records((match, placements.get(match), *seat) for match, *seat in seats.iterator(20_000))
        HeadToHead.objects.using(alias).bulk_create(
            (
                HeadToHead(player_id=player, opponent_id=other, game=game, met=met, wins=wins, losses=losses,
                           draws=draws)
                for player, other, met, wins, losses, draws in counted
            ),
            batch_size=2000,
        )  # fmt: skip


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
        migrations.RunPython(fill_records, migrations.RunPython.noop, elidable=True),
    ]
