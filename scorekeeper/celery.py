"""The Celery app: `celery -A scorekeeper worker` / `celery -A scorekeeper beat`.

Configuration comes from Django settings (the CELERY_* names); tasks are found in
every installed app's ``tasks`` module.
"""

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

app = Celery("scorekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect
@task_postrun.connect
def close_old_database_connections(**kwargs) -> None:
    """Around each task, what Django does around each request: close a connection that broke
    (PostgreSQL restarted) or is older than CONN_MAX_AGE. The worker reuses its connections
    (settings.CELERY_DB_REUSE_MAX); an eager task runs inside its caller's request."""
    task = kwargs.get("task")
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


@task_prerun.connect
def enter_site_wide_scope(task=None, **kwargs) -> None:
    """A task is the system's own work: it sees every club (scorekeeper/clubs/scoping.py), also
    when it runs eagerly inside a request scoped to its viewer (a rating must count the
    private clubs' matches too)."""
    from django_scopes.state import state

    if task is not None:
        task.request.club_scope_token = state.set({"_enabled": False})


@task_postrun.connect
def leave_site_wide_scope(task=None, **kwargs) -> None:
    from django_scopes.state import state

    token = getattr(task.request, "club_scope_token", None) if task is not None else None
    if token is not None:
        state.reset(token)
