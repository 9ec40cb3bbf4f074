from django.apps import AppConfig


class OutboxConfig(AppConfig):
    name = "scorekeeper.outbox"
    label = "outbox"
    verbose_name = "Background work (outbox)"
