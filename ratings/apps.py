from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Register the tasks in every process (web, commands), not only in workers: the outbox
        # looks a task up by name when it hands a message over.
        from . import tasks  # noqa: F401
