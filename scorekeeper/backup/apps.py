from django.apps import AppConfig


class BackupConfig(AppConfig):
    """Backup and restore of the whole site: ``manage.py site_export``, ``site_import``, ``site_check``."""

    name = "scorekeeper.backup"
    label = "backup"
    # Not translated: an app without models is named on no page.
    verbose_name = "Backup and restore"
