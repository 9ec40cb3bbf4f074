from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OutboxConfig(AppConfig):
    name = "scorekeeper.outbox"
    label = "outbox"
    verbose_name = _("Background work (outbox)")

    def ready(self) -> None:
        # Registers the check that the settings keep the recovery bound (manage.py check).
        from . import checks  # noqa: F401
