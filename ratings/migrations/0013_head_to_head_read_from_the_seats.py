"""The head-to-head records kept per pair (``HeadToHead``, 0012) dropped: at 100,000 random
matches of 2,000 players they held 1.2 million rows, 157 MB against the pool's history's 86 MB
(issue 32). A profile's rivals are read from the seats (``ratings.reads.head_to_head.rivals``), as
the head-to-head page and the API's answers are. Derived rows: nothing of the matches goes."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0012_head_to_head_records'),
    ]

    operations = [
        migrations.DeleteModel(
            name='HeadToHead',
        ),
    ]
