"""`manage.py demo`: a dozen players and finished matches of every game, recorded hand by hand,
and a piquet league of six of them (every pair plays once) so that the leaderboard has
established players beside provisional ones, and the season board a table. Two clubs beside
the home club share a player: the public "Cercle du Piquet" and the private "Back Room", whose
own player and matches only its members (and staff) see.

The hands come from scorekeeper/devtools/demo/<game>.json and go through the same services as the
API, so the demo is also a smoke test of the whole recording path. Idempotent: players are
found by name and a match by its title, so running it again adds nothing.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from ratings import display
from ratings.reads.boards import leaderboard
from ratings.services import rating_events_process_all
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.clubs.scoping import site_wide
from scorekeeper.devtools import DEMO_DATA
from scorekeeper.matches import errors, services
from scorekeeper.matches.models import Match, Player
from scorekeeper.rules import UnknownGame, find_ruleset

PLAYERS = [
    "Alice", "Boris", "Camille", "Dmitri", "Elena", "Farid",
    "Greta", "Hugo", "Ines", "Jakob", "Katya", "Luc",
]  # fmt: skip
DEMO_USER = "demo"
#: A piquet league on top of the games' cases: every pair of these players plays one of the
#: piquet parties again (in turn), so that each has enough rated matches to be established on
#: the leaderboard (RATINGS_LEADERBOARD_MIN_MATCHES, 5) and the season board has a table.
LEAGUE_GAME = "piquet"
LEAGUE_PLAYERS = 6
#: Pairs who meet again and again, so that a profile's head-to-head shows something: each plays
#: every piquet case twice each way round (who wins depends on the seat).
RIVALS = [("Alice", "Boris", 2), ("Alice", "Camille", 1)]
#: The clubs: slug, name, public, their players (Alice plays in both; Mireille only in the
#: private one), and the pairs who play a piquet party there.
CLUBS = [
    ("cercle", "Cercle du Piquet", True, ["Alice", "Boris", "Camille"],
     [("Alice", "Boris"), ("Camille", "Alice")]),
    ("back-room", "Back Room", False, ["Alice", "Mireille"],
     [("Alice", "Mireille"), ("Mireille", "Alice")]),
]  # fmt: skip


class Command(BaseCommand):
    help = "Load demo players and finished matches of several games (idempotent)."

    def handle(self, *args, **options) -> None:
        with site_wide():  # the system's own work, also when called from a script
            self._load()

    def _load(self) -> None:
        user = self._demo_user()
        players = [self._player(name, user) for name in PLAYERS]
        created = skipped = 0
        offset = 0
        for path in sorted(DEMO_DATA.glob("*.json")):
            game = path.stem
            try:
                find_ruleset(game)
            except UnknownGame:
                self.stderr.write(f"skipping {game}: no ruleset for it yet")
                continue
            for case in json.loads(path.read_text(encoding="utf-8")):
                title = f"Demo {game}: {case['id']}"
                seated = [players[(offset + i) % len(players)] for i in range(case["seats"])]
                offset += case["seats"]
                if Match.objects.filter(title=title).exists():
                    skipped += 1
                    continue
                try:
                    self._record(game, case, title, seated, user)
                except errors.DomainError as exc:
                    self.stderr.write(f"could not record {title}: {exc.code}: {exc}")
                    continue
                created += 1
        league_created, league_skipped = self._league(players[:LEAGUE_PLAYERS], user)
        created, skipped = created + league_created, skipped + league_skipped
        created += self._rivals(user)
        created += self._clubs(user)
        self.stdout.write(
            f"demo: {created} match(es) recorded, {skipped} already there, {len(players)} players"
        )
        self._ratings()
        if settings.DEBUG:
            self.stdout.write(f"demo: sign in to /admin/ as {DEMO_USER} / {DEMO_USER}")

    def _league(self, players: list[Player], user) -> tuple[int, int]:
        cases = json.loads((DEMO_DATA / f"{LEAGUE_GAME}.json").read_text(encoding="utf-8"))
        created = skipped = 0
        pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
        for number, pair in enumerate(pairs, start=1):
            case = cases[number % len(cases)]
            # The later pairs sit the other way round, so the parties' winners vary.
            seated = list(pair) if number % 2 else list(reversed(pair))
            title = f"Demo {LEAGUE_GAME} league: round {number}"
            if Match.objects.filter(title=title).exists():
                skipped += 1
                continue
            try:
                self._record(LEAGUE_GAME, case, title, seated, user)
            except errors.DomainError as exc:
                self.stderr.write(f"could not record {title}: {exc.code}: {exc}")
                continue
            created += 1
        return created, skipped

    def _rivals(self, user) -> int:
        """The rivals' piquet matches (found by title, like the others)."""
        cases = json.loads((DEMO_DATA / "piquet.json").read_text(encoding="utf-8"))
        created = 0
        for first, second, rounds in RIVALS:
            pair = [self._player(first, user), self._player(second, user)]
            for round_number in range(1, rounds + 1):
                for case in cases:
                    for seated in (pair, pair[::-1]):
                        title = (
                            f"Demo piquet: {seated[0].name} v {seated[1].name}, {case['id']} ({round_number})"
                        )
                        if Match.objects.filter(title=title).exists():
                            continue
                        try:
                            self._record("piquet", case, title, seated, user)
                        except errors.DomainError as exc:
                            self.stderr.write(f"could not record {title}: {exc.code}: {exc}")
                            continue
                        created += 1
        return created

    def _clubs(self, user) -> int:
        cases = json.loads((DEMO_DATA / "piquet.json").read_text(encoding="utf-8"))
        created = 0
        for slug, name, public, names, pairs in CLUBS:
            club = Club.objects.filter(slug=slug).first()
            if club is None:
                club = club_services.club_create(by=user, name=name, slug=slug, public=public)
            players = {}
            for player_name in names:
                player = Player.objects.filter(name=player_name, clubs__club=club).first()
                if player is None:
                    player = Player.objects.filter(name=player_name).order_by("id").first()
                    if player is None:
                        player = services.player_create(name=player_name, by=user, club=club)
                    services.club_player_add(club=club, player=player, by=user)
                players[player_name] = player
            for number, (first, second) in enumerate(pairs, start=1):
                title = f"Demo {name}: {first} v {second}"
                if Match.objects.filter(title=title).exists():
                    continue
                case = cases[number % len(cases)]
                try:
                    self._record("piquet", case, title, [players[first], players[second]], user, club=club)
                except errors.DomainError as exc:
                    self.stderr.write(f"could not record {title}: {exc.code}: {exc}")
                    continue
                created += 1
        return created

    def _ratings(self) -> None:
        # Each finished match's rating event was handed to Celery after its commit: in-process
        # without Redis (./run), to the worker with it. Whatever is still pending (Redis down,
        # say) is rated here, so the demo always shows ratings.
        rating_events_process_all()
        for game in sorted(set(Match.objects.filter(status="finished").values_list("game", flat=True))):
            top = ", ".join(
                f"{row.player.name} {display.rating(row.mu, row.sigma)}" for row in leaderboard(game=game)[:3]
            )
            self.stdout.write(f"demo: ratings {game}: {top or 'none yet'}")

    def _demo_user(self):
        User = get_user_model()
        user, created = User.objects.get_or_create(username=DEMO_USER)
        if created:
            # A known password only in debug mode (the local demo); never in production.
            if settings.DEBUG:
                user.set_password(DEMO_USER)
                user.is_staff = user.is_superuser = True
            else:
                user.set_unusable_password()
            user.save()
        return user

    def _player(self, name: str, user) -> Player:
        player = Player.objects.filter(name=name).order_by("id").first()
        return player or services.player_create(name=name, by=user)

    @transaction.atomic
    def _record(self, game: str, case: dict, title: str, seated: list[Player], user, club=None) -> Match:
        # One transaction per match: a hand the engine refuses leaves no half-recorded match.
        match = services.match_create(
            game=game, players=seated, by=user, options=case.get("options") or {}, title=title, club=club
        )
        for record in case["hands"]:
            hand = services.hand_record(match=match, record=record, by=user)
            match = hand.match
        return match
