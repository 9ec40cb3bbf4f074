from django.apps import AppConfig


class DevtoolsConfig(AppConfig):
    """Developer tooling, not serving code: the demo, the screenshots, the catalogs' compiler."""

    name = "scorekeeper.devtools"
    label = "devtools"
    # Not translated: an app without models is named on no page.
    verbose_name = "Developer tools"
