from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "scorekeeper.matches"
    label = "matches"
    verbose_name = _("Matches")

    def ready(self) -> None:
        # Load the Celery app here rather than in scorekeeper/__init__.py, which must stay
        # importable without Celery (the rules engine lives under it); shared tasks bind to it.
        from scorekeeper import celery  # noqa: F401
