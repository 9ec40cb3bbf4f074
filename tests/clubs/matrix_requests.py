"""Every URL of the URLconf as requests of the permission matrix: its path for each club's
objects, its methods, and a valid body for each write (tests/clubs/test_permission_matrix.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver

from tests.fakes import hand

from .matrix_world import ClubWorld, World

METHODS = ("get", "post", "patch", "put", "delete")


@dataclass(frozen=True)
class Route:
    name: str  # "api:match-list", "match-detail", "admin:clubs_club_change" …
    pattern: str  # the full route, "api/v1/matches/<int:pk>"
    callback: Any

    @property
    def api(self) -> bool:
        return self.pattern.startswith("api/")

    @property
    def key(self) -> str:
        """The route's name, or for an unnamed one its pattern."""
        return self.name or self.pattern


def routes() -> list[Route]:
    found: list[Route] = []

    def walk(patterns, prefix: str, namespace: str) -> None:
        for entry in patterns:
            if isinstance(entry, URLResolver):
                inner = (
                    f"{namespace}:{entry.namespace}"
                    if namespace and entry.namespace
                    else entry.namespace or namespace
                )
                walk(entry.url_patterns, prefix + str(entry.pattern), inner or "")
            elif isinstance(entry, URLPattern):
                name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name or ""
                found.append(Route(name, prefix + str(entry.pattern), entry.callback))

    walk(get_resolver().url_patterns, "", "")
    return found


def methods(route: Route) -> list[str]:
    """The methods a route's view answers: a class view's handlers; a function view both GET
    and POST (what it does with the other is in its cell)."""
    view_class = getattr(route.callback, "view_class", None) or getattr(route.callback, "cls", None)
    if view_class is not None:
        return [m for m in METHODS if hasattr(view_class, m)]
    return ["get", "post"]


def _object_for_admin(pattern: str, side: ClubWorld) -> int:
    """The club's own object for the models a club has; for the others the first row, or 0 (no
    row) when there is none: the same on every database, whatever ids its sequences give."""
    found = re.search(r"admin/(\w+)/(\w+)/", pattern)
    if found is None:
        return 0
    label = f"{found.group(1)}.{found.group(2)}"
    own = {
        "clubs.club": side.club.pk,
        "matches.match": side.match.pk,
        "matches.player": side.players[0].pk,
        "clubs.invitation": side.invitation.pk,
        "clubs.joinrequest": side.join_request.pk,
    }
    if label in own:
        return own[label]
    try:
        model = apps.get_model(found.group(1), found.group(2))
    except LookupError:  # admin/password_change/done/ and the like
        return 0
    return model._base_manager.order_by("pk").values_list("pk", flat=True).first() or 0


def path_for(route: Route, side: ClubWorld, world: World) -> str:
    """The route's path for the objects of one club."""
    pattern = route.pattern
    if "players/<int:pk>" in pattern:
        pk = side.players[0].pk
    elif "invitations/<int:pk>" in pattern:
        pk = side.invitation.pk
    elif "requests/<int:pk>" in pattern:
        pk = side.join_request.pk
    elif "recompute/<int:pk>" in pattern:
        pk = world.recompute_job.pk
    elif "events/<int:pk>" in pattern:
        pk = side.event.pk
    else:
        pk = side.match.pk
    values = {
        "pk": pk,
        "number": 1,
        "player": side.players[0].pk,
        "other": side.players[1].pk,
        "game": "tally",
        "slug": side.club.slug,
        "format": "json",
        "object_id": _object_for_admin(pattern, side),
        "content_type_id": 1,
        "id": world.users["member"].pk,
        "app_label": "clubs",
        "url": "nothing/",
        "username": "member",
        "invitation": side.invitation.pk,
        "request": side.join_request.pk,
        "request_id": side.join_request.pk,
        # allauth's links from its mails: a key that is no key (its page says so).
        "key": "no-such-key",
        "uidb36": "1",
        # A round's table: the API names it by its number, the pages by its row.
        "table": 1 if "rounds/<int:number>/tables" in pattern else _first_table(side),
    }
    # A regular expression's groups first: ``(?P<pk>…)`` holds what looks like a ``<pk>``.
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: str(values[m.group(1)]), pattern)
    path = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), path)
    path = path.replace("^", "").replace("$", "").replace("\\.", ".")
    return "/" + path


def _first_table(side: ClubWorld) -> int:
    return side.event.round_set.get(number=1).tables.order_by("number").values_list("pk", flat=True)[0]


def body_for(route: Route, method: str, side: ClubWorld, world: World) -> dict[str, Any] | None:
    """A valid body for a write (``None``: none needed)."""
    if method == "get":
        return None
    match, players = side.match, side.players
    name = route.name
    bodies: dict[str, dict[str, Any]] = {
        "api:match-list": {"game": "tally", "players": [p.pk for p in players], "club": side.club.slug},
        "api:player-list": {"name": "Newcomer", "club": side.club.slug},
        "api:hand-list": {"record": hand([1, 1]), "version": match.version},
        "api:hand-corrections": {"record": hand([2, 2]), "version": match.version, "reason": "typo"},
        "api:hand-confirm": {"player": players[1].pk},
        "api:hand-dispute": {"player": players[1].pk, "reason": "we counted 5"},
        "api:match-void": {"reason": "abandoned", "version": match.version},
        "api:match-reopen": {"reason": "by mistake", "version": match.version},
        "api:match-scorers": {"username": "member"},
        "api:player-merge": {"into": players[1].pk},
        "api:player-anonymise": {"reason": "asked"},
        "api:rules-score": {"record": hand([1, 1])},
        "api:predict": {"game": "tally", "players": [p.pk for p in players]},
        "api:player-claim": {"code": "not-a-code"},
        "api:token": {"username": "member", "password": "wrong"},
        "api:club-list": {"name": "A new club"},
        "api:club-detail": {"description": "changed"},
        "api:club-members": {"username": "asker-public", "role": "member"},
        "api:club-join": {"code": ""},
        "api:club-invitations": {"role": "member", "max_uses": 1},
        "api:club-request-decide": {"approve": True},
        "api:club-events": {"name": "Friday", "game": "tally", "format": "swiss", "rounds": 3},
        "api:event-entrants": {"player": side.spare.pk},
        "api:event-round-swap": {"first": players[0].pk, "second": players[1].pk},
        "api:event-table-forfeit": {"places": [1, 2], "reason": "no show"},
        "event-list": {
            "name": "Friday",
            "game": "tally",
            "format": "swiss",
            "rounds": 3,
            "bye_points": "1",
            "seating": "draw",
        },
        "event-entrant-add": {"player": side.spare.pk},
        "event-swap": {"first": players[0].pk, "second": players[1].pk},
        "event-forfeit": {"reason": "no show", "place_0": 1, "place_1": 2},
    }
    return bodies.get(name, {})


def cells(world: World) -> Iterator[tuple[Route, str, str, str, dict | None]]:
    """(route, method, club kind, path, body) for every request of the matrix."""
    for route in routes():
        for method in methods(route):
            for kind, side in world.clubs.items():
                yield route, method, kind, path_for(route, side, world), body_for(route, method, side, world)
