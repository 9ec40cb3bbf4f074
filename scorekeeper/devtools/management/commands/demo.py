"""`manage.py demo`: a dozen players and finished matches of every game, recorded hand by hand,
and a piquet league of six of them (every pair plays once) so that the leaderboard has
established players beside provisional ones, and the season board a table. Two clubs beside
the home club share a player: the public "Cercle du Piquet" and the private "Back Room", whose
own player and matches only its members (and staff) see. The Cercle runs two events through
the events' services: a finished club night (a three-round Swiss of eight, every table's piquet
partie played to its end) and a league in progress (a round robin of six, a fixture a week: two
rounds played, the third paired this week, one table finished, one under way, one to start).

The hands come from scorekeeper/devtools/demo/<game>.json and go through the same services as the
API, so the demo is also a smoke test of the whole recording path. Idempotent: players are
found by name and a match by its title, so running it again adds nothing.
"""

from __future__ import annotations

import json
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from ratings import display
from ratings.reads.boards import leaderboard
from ratings.services import rating_events_process_all
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.clubs.scoping import site_wide
from scorekeeper.devtools import DEMO_DATA
from scorekeeper.events import selectors as event_selectors
from scorekeeper.events import services as event_services
from scorekeeper.events.models import Event
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
#: The Cercle's events (found by name in the club): a finished Swiss club night of eight and a
#: league of six in progress (its third fixture this week), both of piquet parties, whose hands
#: are the piquet cases' (each table plays the case of its round and number, in turn). Fixed
#: seeds: the same demo, the same pairings.
EVENTS_CLUB = "cercle"
CLUB_NIGHT = "Tuesday club night"
CLUB_NIGHT_PLAYERS = PLAYERS[:8]
CLUB_NIGHT_ROUNDS = 3
LEAGUE = "Winter league"
LEAGUE_PLAYERS_NAMES = PLAYERS[:6]
#: The league's rounds played to their end; in the next, table 1 is finished, table 2 has
#: its first LEAGUE_HANDS_UNDER_WAY hands, table 3 has not started.
LEAGUE_ROUNDS_PLAYED = 2
LEAGUE_HANDS_UNDER_WAY = 2


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
        self._events(user)
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

    def _events(self, user) -> None:
        """The Cercle's club night and league, each made whole in one transaction (or left
        alone when it is there already)."""
        club = Club.objects.get(slug=EVENTS_CLUB)
        cases = json.loads((DEMO_DATA / "piquet.json").read_text(encoding="utf-8"))
        for name, build in ((CLUB_NIGHT, self._club_night), (LEAGUE, self._league_event)):
            if Event.objects.filter(club=club, name=name).exists():
                continue
            try:
                with transaction.atomic():
                    event = build(club, cases, user)
            except errors.DomainError as exc:
                self.stderr.write(f"could not make the event {name}: {exc.code}: {exc}")
                continue
            rounds = event.round_set.count()
            self.stdout.write(f"demo: event {name}: {event.entrants.count()} entrants, {rounds} round(s)")

    def _club_night(self, club: Club, cases: list[dict], user) -> Event:
        event = event_services.event_create(
            club=club,
            by=user,
            name=CLUB_NIGHT,
            game="piquet",
            format=Event.Format.SWISS,
            rounds=CLUB_NIGHT_ROUNDS,
            seed=2026,
        )
        for name in CLUB_NIGHT_PLAYERS:
            event_services.entrant_add(event=event, player=self._player(name, user), by=user)
        for _ in range(CLUB_NIGHT_ROUNDS):
            round_ = event_services.round_pair(event=event, by=user)
            self._play_round(round_, cases, user)
        return event_services.event_finish(event=event, by=user)

    def _league_event(self, club: Club, cases: list[dict], user) -> Event:
        # Its first fixture two weeks before today (each round a week later): the third is this week.
        starts = timezone.localdate() - timedelta(weeks=LEAGUE_ROUNDS_PLAYED)
        event = event_services.event_create(
            club=club,
            by=user,
            name=LEAGUE,
            game="piquet",
            format=Event.Format.LEAGUE,
            seed=2027,
            starts_on=starts,
        )
        for name in LEAGUE_PLAYERS_NAMES:
            event_services.entrant_add(event=event, player=self._player(name, user), by=user)
        for _ in range(LEAGUE_ROUNDS_PLAYED):
            round_ = event_services.round_pair(event=event, by=user)
            self._play_round(round_, cases, user)
        round_ = event_services.round_pair(event=event, by=user)
        self._play_round(round_, cases, user, hands=[None, LEAGUE_HANDS_UNDER_WAY, 0])
        return event

    def _play_round(self, round_, cases: list[dict], user, hands: list[int | None] | None = None) -> None:
        """Record the hands of a piquet case at each table of ``round_`` (table n of round r
        plays case r + n, in turn); ``hands``: how many at each table (None: all of them)."""
        for i, table in enumerate(event_selectors.round_tables(round_)):
            if table.match_id is None:  # a bye
                continue
            case = cases[(round_.number + table.number) % len(cases)]
            count = hands[i] if hands is not None and i < len(hands) else None
            for record in case["hands"][:count]:
                services.hand_record(match=table.match_id, record=record, by=user)

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
