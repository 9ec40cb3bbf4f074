"""The permission matrix (issue 33): every URL of the URLconf × every method its view answers ×
{anonymous, a member of another club, member, scorer, director, admin, staff} × {public club,
private club}, each cell's answer written in one table (``tests/clubs/matrix_table.py``).

A URL added without its row fails ``test_every_route_has_its_row``; a cell that answers
otherwise fails ``test_every_cell_answers_as_the_table_says``, which prints every differing cell.
A private club's objects are a 404 to whoever is not its member, never a 403.
``python -m tests.clubs.test_permission_matrix`` is not a thing: to see the whole observed
matrix, run this test with ``MATRIX_PRINT=path`` and read the file it writes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from .matrix_requests import cells, methods, routes
from .matrix_table import EXPECTED, format_row
from .matrix_world import CLUBS, ROLES, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(django_user_model, tally, settings):
    settings.HOME_CLUB_NEW_ACCOUNT_ROLE = ""  # the roles are the world's, not the home club's
    return build_world(django_user_model)


def _answer(route, method: str, path: str, body, user) -> int:
    client = APIClient(raise_request_exception=False) if route.api else Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    cache.clear()  # no throttle counts from the cells before
    with transaction.atomic():
        if route.api:
            response = (
                getattr(client, method)(path, body, format="json") if body is not None else client.get(path)
            )
        else:
            response = getattr(client, method)(path, body or {}) if body is not None else client.get(path)
        transaction.set_rollback(True)
    return response.status_code


def observed(world) -> dict[tuple[str, str], dict[str, dict[str, int]]]:
    found: dict[tuple[str, str], dict[str, dict[str, int]]] = {}
    for route, method, kind, path, body in cells(world):
        row = found.setdefault((route.key, method), {club: {} for club in CLUBS})
        for role in ROLES:
            row[kind][role] = _answer(route, method, path, body, world.users[role])
    return found


def test_every_route_has_its_row():
    wanted = {(route.key, method) for route in routes() for method in methods(route)}
    assert sorted(wanted - set(EXPECTED)) == [], "routes without a row in tests/clubs/matrix_table.py"
    assert sorted(set(EXPECTED) - wanted) == [], "rows of routes that are gone"


def test_every_cell_answers_as_the_table_says(world):
    found = observed(world)
    if os.environ.get("MATRIX_PRINT"):
        Path(os.environ["MATRIX_PRINT"]).write_text(
            "\n".join(f"    {key!r}: {format_row(row)!r}," for key, row in sorted(found.items())) + "\n"
        )
    differ = [
        f"{key}: table {EXPECTED.get(key)!r}, answered {format_row(row)!r}"
        for key, row in sorted(found.items())
        if EXPECTED.get(key) != format_row(row)
    ]
    assert differ == [], "\n".join(differ)


def test_a_private_club_is_never_a_403_to_those_outside_it():
    """The table itself: no cell tells an outsider that a private club's object exists (a row
    whose two clubs answer alike names no club's object)."""
    for key, row in EXPECTED.items():
        public, private = (half.split() for half in row.split("|"))
        if public == private:
            continue
        for role, answer in zip(ROLES, private, strict=True):
            if role in ("anonymous", "outsider"):
                assert answer != "403", f"{key}: {role} gets 403 on the private club's object"
