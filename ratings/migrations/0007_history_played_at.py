"""The history's place in the pool's order is when a match was played (issue 20).

``finished_at`` (when the match first finished) becomes ``played_at``: the time the match's
scorer gave for a score sheet entered afterwards (``Match.played_at``, new in matches 0012),
else, as before, when it first finished. Every match rated before this release has no such
time, so every row keeps its value: a rename of the column, nothing rewritten (on PostgreSQL
the partitioned table's rename carries its partitions and their indexes along).
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0006_pool_parameters"),
        ("matches", "0012_match_played_at"),
    ]

    operations = [
        migrations.RenameField(model_name="ratinghistory", old_name="finished_at", new_name="played_at"),
        # The indexes follow their column's rename in the database: only their state is new.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveIndex(model_name="ratinghistory", name="rating_history_player_idx"),
                migrations.RemoveIndex(model_name="ratinghistory", name="rating_history_order_idx"),
                migrations.AddIndex(
                    model_name="ratinghistory",
                    index=models.Index(
                        fields=["pool", "player", "played_at", "match"], name="rating_history_player_idx"
                    ),
                ),
                migrations.AddIndex(
                    model_name="ratinghistory",
                    index=models.Index(
                        fields=["pool", "played_at", "match"], name="rating_history_order_idx"
                    ),
                ),
            ],
        ),
        migrations.AlterField(
            model_name="ratinghistory",
            name="played_at",
            field=models.DateTimeField(
                help_text="When the match was played: its place in the pool's order.",
                verbose_name="played at",
            ),
        ),
        migrations.AlterModelOptions(
            name="ratinghistory",
            options={
                "ordering": ["pool", "player", "-played_at", "-match"],
                "verbose_name": "rating history entry",
                "verbose_name_plural": "rating history",
            },
        ),
        migrations.AlterField(
            model_name="ratingpool",
            name="last_finished_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the last match of the pool's order was played.",
                null=True,
                verbose_name="last match played at",
            ),
        ),
    ]
