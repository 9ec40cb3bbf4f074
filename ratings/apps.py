from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from scorekeeper.matches.models import Match, Player
        from scorekeeper.matches.signals import match_changed, player_merged

        # Register the tasks in every process (web, commands), not only in workers: the outbox
        # looks a task up by name when it hands a message over.
        from . import receivers, tasks  # noqa: F401

        # The matches announce what changed (in the write's transaction); the ratings record
        # it there as an event of the pool. One connection however often ready() runs.
        match_changed.connect(
            receivers.match_changed_record, sender=Match, dispatch_uid="ratings.match_changed"
        )
        player_merged.connect(
            receivers.player_merged_replay, sender=Player, dispatch_uid="ratings.player_merged"
        )
        # The events (beneath the ratings) show ratings through the source registered here.
        from scorekeeper.events import ratings_source

        from .reads.events import EventRatings

        ratings_source.register(EventRatings())
