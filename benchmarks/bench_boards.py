"""Server time of the leaderboards' pages and API on a big pool (issue 21: each under 50 ms on a
pool of 100,000 matches).

    .venv/bin/python benchmarks/bench_boards.py [--matches 100000] [--players 1000] [--runs 20]

Builds a scratch SQLite database (a temporary file, migrated; with ``DATABASE_URL`` a
PostgreSQL one, a scratch database beside it), stores ``--matches`` synthetic finished matches
of 2–4 seats among ``--players`` players (``ratings.backtest.synthetic_db``: straight into the
tables, a millisecond apart) and rates them in one replay, then asks for every page and API
answer of the boards through Django's whole stack (the test client, no network) ``--runs``
times after a warm-up: the leaderboards, a game's board with its provisional list, the season
board over the whole pool (the worst period: every match in it), the profile of the busiest
player (his explained changes), a score sheet's explained changes, and the API's board,
season and history. Prints per answer the median wall time, the median CPU time of the process
(the server's own work: on a shared machine the wall time also counts the waits for a core),
on PostgreSQL the database backend's CPU time (the mean over the runs, from ``/proc``: the
server's time is both) and the query count, with the load average. On PostgreSQL the pool is
rated by a full recompute and then vacuumed, as autovacuum leaves a live pool's history
(its pages all-visible: the season's counts read the per-player index alone). The game is the
test suite's ``tally`` (tests/fakes.py): the boards' cost is their rows, not the rules of a game.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument(
        "--clubs",
        type=int,
        default=0,
        help="a site of this many clubs (one in ten private; issue 33): each plays among its own "
        "players and two of the next club's, and the club's and the federation's boards are asked",
    )
    parser.add_argument(
        "--profile", metavar="WORD", help="print where the time of the answers whose label has it goes"
    )
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        from benchmarks.scratch_db import scratch_database

        os.environ["DATABASE_URL"], drop = scratch_database(url, "bench_boards")
        try:
            run(args.matches, args.players, args.runs, args.profile, args.clubs)
        finally:
            drop()
        return
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
        run(args.matches, args.players, args.runs, args.profile, args.clubs)


def store_clubs(club_count: int, player_ids: list[int], matches: int, now) -> tuple[list[int], list]:
    """A site of ``club_count`` clubs (every tenth private): club c's matches are among its own
    players (``player_ids[c::club_count]``, its roster) and the first two of the next club's
    (its guests), a twelfth of them in each of the last twelve months. So the private clubs'
    players are private-only but for the two of each who play as guests in the public club
    before it. Returns the match ids (in their order) and the clubs."""
    from ratings.backtest import synthetic_db
    from scorekeeper.clubs.models import Club
    from scorekeeper.matches.models import ClubPlayer

    clubs = Club.objects.bulk_create([
        Club(name=f"Club {c}", slug=f"club-{c}", public=c % 10 != 9) for c in range(club_count)
    ])  # fmt: skip
    homes = [player_ids[c::club_count] for c in range(club_count)]
    entries: list[ClubPlayer] = []
    match_ids: list[int] = []
    for c, club in enumerate(clubs):
        guests = homes[(c + 1) % club_count][:2]
        entries += [ClubPlayer(club=club, player_id=p) for p in homes[c]]
        entries += [ClubPlayer(club=club, player_id=p, guest=True) for p in guests]
        seated = homes[c] + guests
        tables = synthetic_db.outcomes(
            players=len(seated), matches=matches // club_count, seed=21 + c, sizes=(2, 3, 4)
        )
        months = 12
        for month in range(months):
            chunk = tables[month * len(tables) // months : (month + 1) * len(tables) // months]
            begins = now - dt.timedelta(days=30.4 * (months - month))
            ids = synthetic_db.store(
                game="tally", tables=chunk, player_ids=seated, start=begins, club=club.pk
            )
            match_ids[:0] = ids  # the first club's last: the score sheet asked for is public
    ClubPlayer.objects.bulk_create(entries, batch_size=1000)
    return match_ids, clubs


def run(matches: int, player_count: int, runs: int, profile: str | None = None, club_count: int = 0) -> None:
    from benchmarks import site_setup

    site_setup.setup()
    _run(matches, player_count, runs, profile, club_count)


def _run(matches: int, player_count: int, runs: int, profile: str | None, club_count: int) -> None:
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.db.models import Count
    from django.test import Client
    from django.urls import reverse
    from django.utils import timezone

    from benchmarks.scratch_db import backend_cpu_seconds
    from ratings.backtest import synthetic_db
    from ratings.models import RatingHistory, RatingPool
    from ratings.services import rating_events_process_all, rating_pool_recompute
    from scorekeeper.clubs.models import home_club_id
    from tests.fakes import install

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    install()
    started = time.perf_counter()
    # Without clubs, every player on the home club's roster, as player_create puts them.
    ids = synthetic_db.players(player_count, club=None if club_count else home_club_id())
    now = timezone.now()
    match_ids: list[int] = []
    clubs: list = []
    if club_count:
        match_ids, clubs = store_clubs(club_count, ids, matches, now)
    else:
        tables = synthetic_db.outcomes(players=player_count, matches=matches, seed=21, sizes=(2, 3, 4))
        # Spread over five years of months (the synthetic matches of a month a millisecond apart),
        # so that "this month" is a month's share of the pool, as in a club's history.
        months = 60
        for month in range(months):
            chunk = tables[month * len(tables) // months : (month + 1) * len(tables) // months]
            begins = now - dt.timedelta(days=30.4 * (months - month))
            match_ids += synthetic_db.store(game="tally", tables=chunk, player_ids=ids, start=begins)
    stored = time.perf_counter()
    if connection.vendor == "postgresql":
        # A full recompute: one incremental update of 100,000 pending matches names them all in
        # one statement, over PostgreSQL's 65,535 parameters.
        rating_pool_recompute(pool=RatingPool.objects.get_or_create(game="tally")[0])
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    else:
        rating_events_process_all()
    rated = time.perf_counter()
    print(
        f"pool: {matches} tally matches among {player_count} players, stored in {stored - started:.1f} s, "
        f"rated in {rated - stored:.1f} s ({connection.vendor})"
    )
    if clubs:
        from ratings.reads import boards

        private = sum(not club.public for club in clubs)
        print(
            f"site: {len(clubs)} clubs, {private} private; "
            f"{len(boards.private_only_players('tally'))} private-only players"
        )
    busiest = (
        RatingHistory.objects.values("player_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .values_list("player_id", "n")
    )[0]
    first = RatingHistory.objects.order_by("played_at").values_list("played_at", flat=True)[0]
    today = now.date()
    whole = f"?from={first.date().isoformat()}&to={today.isoformat()}"
    # The last month's matches were played 30.4 days ago: a day more, whatever the hour.
    last_month = f"?from={(today - dt.timedelta(days=31)).isoformat()}&to={today.isoformat()}"
    answers = [
        ("page /leaderboards/", reverse("leaderboards")),
        ("page a game's board", reverse("leaderboard", args=["tally"])),
        ("page its season, the last 30 days", reverse("season", args=["tally"]) + last_month),
        ("page its season, every match", reverse("season", args=["tally"]) + whole),
        (f"page the busiest profile ({busiest[1]} matches)", reverse("player-detail", args=[busiest[0]])),
        ("page a score sheet's changes", reverse("match-detail", args=[match_ids[-1]])),
        ("api board", "/api/v1/leaderboards/tally"),
        ("api provisional list", "/api/v1/leaderboards/tally?provisional=true"),
        ("api season, the last 30 days", "/api/v1/leaderboards/tally/season" + last_month),
        ("api season, every match", "/api/v1/leaderboards/tally/season" + whole),
        ("api the busiest history", f"/api/v1/players/{busiest[0]}/ratings/tally/history"),
    ]
    if clubs:
        # An anonymous client: the site's boards above are the federation's (no private-only
        # player); a club's board, its first page and its provisional list.
        club = clubs[0].slug
        answers += [
            ("page a club's board", reverse("club-board", args=[club, "tally"])),
            ("api a club's board", f"/api/v1/clubs/{club}/leaderboards/tally"),
            ("api a club's provisional list", f"/api/v1/clubs/{club}/leaderboards/tally?provisional=true"),
        ]
    client = Client()
    print(f"{'answer':40} {'median':>8} {'CPU':>8} {'DB CPU':>8} {'both':>8} {'p90':>8} {'queries':>8}")
    for label, url in answers:
        for _ in range(3):  # warm-up: templates compiled and cached, connections open
            assert client.get(url).status_code == 200, url
        executed: list[str] = []

        def note(execute, sql, *rest, executed=executed):
            executed.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(note):
            client.get(url)
        times, cpu = [], []
        db_before = backend_cpu_seconds(connection)
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
            assert response.status_code == 200
        db_after = backend_cpu_seconds(connection)
        db_ms = (
            (db_after - db_before) * 1000 / runs if db_before is not None and db_after is not None else 0.0
        )
        times.sort()
        median, cpu_median = statistics.median(times), statistics.median(cpu)
        server = cpu_median + db_ms
        p90 = times[int(0.9 * (len(times) - 1))]
        if profile and profile in label:
            import cProfile
            import pstats

            with cProfile.Profile() as prof:
                for _ in range(5):
                    client.get(url)
            pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        mark = "" if server < TARGET_MS else "  MISSED"
        print(
            f"{label:40} {median:6.1f}ms {cpu_median:6.1f}ms {db_ms:6.1f}ms {server:6.1f}ms {p90:6.1f}ms "
            f"{len(executed):8}{mark}"
        )
    print(
        f"target < {TARGET_MS:.0f} ms of server time (CPU and DB CPU) per answer; {runs} runs each; "
        f"load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )


if __name__ == "__main__":
    main()
