"""The Celery app: `celery -A scorekeeper worker` / `celery -A scorekeeper beat`.

Configuration comes from Django settings (the CELERY_* names); tasks are found in
every installed app's ``tasks`` module.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

app = Celery("scorekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
