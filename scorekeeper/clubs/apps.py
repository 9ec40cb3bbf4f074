from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    name = "scorekeeper.clubs"
    label = "clubs"
    verbose_name = _("Clubs")

    def ready(self) -> None:
        from . import signals  # noqa: F401  (a new account joins the home club)
