from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Register the tasks in every process (web, commands), not only in workers: the outbox
        # looks a task up by name when it hands a message over.
        from . import tasks  # noqa: F401
