"""A site with rows in every table, made the way the site makes them: matches of every game
recorded hand by hand through the services, corrected (a superseded version and its
correction), disputed, voided, reopened, rated incrementally and by a full recompute; users
with groups, permissions, preferences, tokens, a session and a player of their own; the admin's
log; sign-in records. The upgrade test (at the previous release's schema) and the backup tests
(at the current one) share it.

Tasks must run in this process (``tasks_in_process``): each finish is then rated right after
its commit, as with a worker.
"""

from __future__ import annotations

import copy
import functools
import json
from dataclasses import dataclass, field
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog, AccessLog
from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from api.tokens import token_create
from ratings.models import PlayerRating, RatingHistory
from ratings.services import rating_recompute_request
from scorekeeper.accounts.models import Preference
from scorekeeper.devtools import DEMO_DATA
from scorekeeper.matches import services
from scorekeeper.matches.models import Match, Player
from scorekeeper.matches.selectors import match_score_sheet
from scorekeeper.rules import RULESETS, find_ruleset

NAMES = ["Alice", "Boris", "Camille", "Dmitri", "Elena", "Farid", "Greta", "Hugo", "Ines", "Жанна"]


@pytest.fixture
def tasks_in_process():
    """Celery runs the tasks in this process, as on ``./run`` (CI sets REDIS_URL, and these
    tests start no worker)."""
    from scorekeeper.celery import app

    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@dataclass
class Site:
    """What a test needs to reach again: the users, the token's key, the matches by kind."""

    users: dict = field(default_factory=dict)
    token: str = ""
    in_progress: list[Match] = field(default_factory=list)
    #: The record of each match in progress's next hand (match id → record).
    next_records: dict[int, dict] = field(default_factory=dict)
    corrected: list[Match] = field(default_factory=list)


def disputed(record: dict, game: str) -> dict:
    """``record`` with the first declared score one higher (and its partner's: partners claim
    one score): a mismatch to accept."""
    record = copy.deepcopy(record)
    ruleset = find_ruleset(game)
    for key in ruleset.declared_keys:
        values = record.get(key)
        if isinstance(values, list):
            seat = next(i for i, v in enumerate(values) if isinstance(v, int))
            teams = ruleset.partnerships
            for partner in [i for i, team in enumerate(teams) if team == teams[seat]] if teams else [seat]:
                values[partner] += 1
            return record
    raise AssertionError(f"{game}: no declared scores in {record}")


#: Every user's password (hashed once: a hash takes the better part of a second, on purpose).
PASSWORD = "the club's password"


@functools.cache
def password_hash() -> str:
    return make_password(PASSWORD)


def populate(client) -> Site:
    site = Site()
    User = get_user_model()
    ann = User.objects.create_user(
        "ann", "ann@example.org", first_name="Ann", last_name="Archer", is_staff=True, password=None
    )
    bob = User.objects.create_user("bob", "bob@example.org", first_name="Боб")
    cat = User.objects.create_superuser("cat", "cat@example.org", password=None)
    User.objects.filter(pk__in=[ann.pk, bob.pk, cat.pk]).update(password=password_hash())
    User.objects.create_user("dan", is_active=False)  # no usable password
    site.users = {"ann": ann, "bob": bob, "cat": cat}
    officers = Group.objects.create(name="club officers")
    officers.permissions.add(Permission.objects.get(codename="view_auditentry"))
    ann.groups.add(officers)
    bob.user_permissions.add(Permission.objects.get(codename="view_ratingevent"))
    Preference.objects.create(user=ann, language="fr", time_zone="Europe/Paris")
    Preference.objects.create(user=bob, language="ru")
    _, site.token = token_create(user=ann)
    client.force_login(ann)  # a session row

    players = [services.player_create(name=name, by=ann) for name in NAMES]
    players.append(services.player_create(name="Ann Archer", by=ann, user=ann))
    turn = 0

    def seats(count):
        nonlocal turn
        turn += count
        return [players[(turn - count + i) % len(players)] for i in range(count)]

    for game in sorted(RULESETS):
        cases = json.loads((DEMO_DATA / f"{game}.json").read_text(encoding="utf-8"))
        for case in cases:
            _play(game, case, seats(case["seats"]), ann, title=f"{game}: {case['id']}")
        case = cases[0]
        first = case["hands"][0]
        # A finished match corrected twice: hand 1 in three versions (disputed, then right again).
        match = _play(game, case, seats(case["seats"]), ann, title=f"{game}: corrected")
        services.match_scorer_add(match=match, user=bob, by=ann)
        services.hand_correct(
            match=match, number=1, record=disputed(first, game), by=ann,
            accept_declared=True, reason="the table agreed on its own count",
        )  # fmt: skip
        services.hand_correct(match=match, number=1, record=first, by=bob, reason="recounted")
        site.corrected.append(match)
        # In progress, its current hand disputed.
        match = services.match_create(
            game=game, players=seats(case["seats"]), by=ann, options=case.get("options") or {}
        )
        services.hand_record(
            match=match,
            record=disputed(first, game),
            by=ann,
            accept_declared=True,
            reason="agreed at the table",
        )
        site.in_progress.append(match)
        site.next_records[match.pk] = case["hands"][1]

    finished = list(Match.objects.filter(status="finished").order_by("pk"))
    services.match_void(match=finished[0], by=ann, reason="recorded twice")
    services.match_void(match=finished[1], by=ann, reason="wrong table")
    services.match_reopen(match=finished[1], by=ann, reason="the right table after all")
    services.match_void(match=site.in_progress[-1], by=ann, reason="abandoned")
    services.match_recompute(match=finished[2], by=ann)

    rating_recompute_request(by=cat)  # a full recompute (its pool tasks run here)
    # And one more finish after it, rated incrementally on top of the recomputed pool.
    piquet = json.loads((DEMO_DATA / "piquet.json").read_text(encoding="utf-8"))[0]
    _play("piquet", piquet, seats(2), bob, title="after the recompute")

    LogEntry.objects.log_actions(cat.pk, Player.objects.filter(pk=players[0].pk), CHANGE, "checked the name")
    now = timezone.now()
    sign_in = {
        "user_agent": "test",
        "ip_address": "127.0.0.1",
        "http_accept": "*/*",
        "path_info": "/accounts/login/",
    }
    # The sign-in records of django-axes, which this site keeps in the cache (AXES_HANDLER):
    # written bare (its signal handlers expect the database handler), for a row in every table.
    [attempt] = AccessAttempt.objects.bulk_create(
        [
            AccessAttempt(
                username="eve", get_data="", post_data="username=eve", failures_since_start=1, **sign_in
            )
        ]
    )
    AccessAttemptExpiration.objects.bulk_create(
        [AccessAttemptExpiration(access_attempt=attempt, expires_at=now + timedelta(minutes=15))]
    )
    AccessFailureLog.objects.bulk_create([AccessFailureLog(username="eve", locked_out=False, **sign_in)])
    AccessLog.objects.bulk_create([AccessLog(username="ann", **sign_in)])
    assert {match.game for match in Match.objects.all()} == set(RULESETS)
    return site


def _play(game, case, players, by, *, title=""):
    match = services.match_create(
        game=game, players=players, by=by, options=case.get("options") or {}, title=title
    )
    for record in case["hands"]:
        match = services.hand_record(match=match, record=record, by=by).match
    return match


def every_sheet() -> dict[int, dict]:
    """Every match's score sheet, by id: what an upgrade or a restore must leave as it was."""
    return {match.pk: match_score_sheet(match=match) for match in Match.objects.order_by("pk")}


def every_rating() -> tuple[list, list]:
    """The ratings named by game, player and match (the history's ids change in a recompute)."""
    current = PlayerRating.objects.order_by("pool__game", "player_id").values_list(
        "pool__game", "player_id", "mu", "sigma", "conservative", "matches", "wins", "last_played_at"
    )
    history = RatingHistory.objects.order_by("pool__game", "match_id", "player_id").values_list(
        "pool__game", "match_id", "player_id", "played_at", "side", "place",
        "mu_before", "sigma_before", "mu_after", "sigma_after", "win_probability",
    )  # fmt: skip
    return list(current), list(history)
