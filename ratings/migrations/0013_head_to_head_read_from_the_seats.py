"""The head-to-head records kept per pair (``HeadToHead``, 0012) dropped: more than the pool's
own history (issue 32). At 1,000,000 random matches of 20,000 players they held 13.8 million
rows, 1,832 MB against the history's 859 MB (at 100,000 of 2,000: 157 MB against 86). A
profile's rivals are read from the seats (``ratings.reads.head_to_head.rivals``), as the
head-to-head page and the API's answers are. Derived rows: nothing of the matches goes."""

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
