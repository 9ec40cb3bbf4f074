"""The guard on a club's objects: a request sees only the clubs its user may see, and a query
of a club's objects outside any declared scope fails loudly.

The state is django-scopes' (the context variable pretix uses, with ``scope`` and
``scopes_disabled``); the manager is our own because the value of a request's scope is not
one club but "the clubs this viewer may see", a subquery that joins the query itself: no
extra round trip per request (the recording path's budget), and nothing to go stale when a
membership changes mid-request. django-scopes' own manager accepts a value or a list only.

- In a request (``ClubScopeMiddleware``): ``Match.objects`` and every manager made with
  ``ClubScopedManager`` keep to the public clubs and the viewer's own; staff see every club.
- In a management command or a Celery task: site-wide, declared (``manage.py`` and
  ``scorekeeper.celery`` enter ``site_wide()``).
- Anywhere else (a thread, a script that forgot): ``django_scopes.ScopeError`` on the first
  query: a forgotten filter is an error in the tests, not a leak in production.
Related objects (``seat.match``) are read through Django's base manager, which is not scoped:
the guard is on the entry points, the querysets a view or a selector starts from.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import models
from django_scopes import get_scope, scope, scopes_disabled
from django_scopes.manager import DisabledQuerySet

#: The scope's one dimension.
DIMENSION = "club"


class ClubScopedManager(models.Manager):
    """A manager of objects that belong to a club through ``field`` (a lookup path)."""

    def __init__(self, field: str = "club") -> None:
        super().__init__()
        self.club_field = field

    def get_queryset(self) -> models.QuerySet:
        current = get_scope()
        queryset = super().get_queryset()
        if not current.get("_enabled", True):
            return queryset
        if DIMENSION not in current:
            return DisabledQuerySet(self.model, using=self._db, missing_scopes=[DIMENSION])
        clubs = current[DIMENSION]
        if callable(clubs):
            clubs = clubs()
        if clubs is None:  # staff: every club
            return queryset
        if isinstance(clubs, models.Model | int):
            return queryset.filter(**{self.club_field: clubs})
        return queryset.filter(**{f"{self.club_field}__in": clubs})


def _seen_by_viewer(viewer: Callable[[], Any]) -> Callable[[], Any]:
    """The clubs ``viewer()`` may see, as the subquery ``clubs_seen_by`` makes, made once per
    viewer and reused by the next statements: it stays SQL that each statement runs, so a
    membership that changes mid-request still counts, and the ORM builds it once, not at every
    query of a request (a recording reads and writes its match)."""
    from .selectors import clubs_seen_by

    made: dict[Any, Any] = {}

    def clubs() -> Any:
        user = viewer()
        key = getattr(user, "pk", None)
        if key not in made:
            made[key] = clubs_seen_by(user)
        return made[key]

    return clubs


@contextmanager
def viewer_scope(user: Any) -> Iterator[None]:
    """The clubs ``user`` may see, for the length of the block (a request, an export)."""
    with scope(**{DIMENSION: _seen_by_viewer(lambda: user)}):
        yield


@contextmanager
def site_wide() -> Iterator[None]:
    """Every club's objects: for the system's own work (commands, tasks, migrations)."""
    with scopes_disabled():
        yield


class ClubScopeMiddleware:
    """Runs the view and the rendering of its answer in the viewer's scope. The user is read
    when a query runs, not now: DRF authenticates a token inside the view."""

    def __init__(self, get_response: Callable) -> None:
        self.get_response = get_response

    def __call__(self, request):
        with scope(**{DIMENSION: _seen_by_viewer(lambda: getattr(request, "user", None))}):
            return self.get_response(request)
