from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OutboxConfig(AppConfig):
    name = "scorekeeper.outbox"
    label = "outbox"
    verbose_name = _("Background work (outbox)")
