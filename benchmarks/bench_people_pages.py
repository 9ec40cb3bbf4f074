"""Server time of the head-to-head pages on a big pool (issue 21: each under 50 ms on a pool
of 100,000 matches).

    .venv/bin/python benchmarks/bench_people_pages.py [--matches 100000] [--players 500] [--runs 30]
        [--postgres [--keep | --reuse]]

Builds a scratch SQLite database (a temporary file, migrated; with ``--postgres`` a scratch
database beside DATABASE_URL's instead), stores ``--matches`` synthetic finished matches of 2–6
of ``--players`` players in one pool (ratings.backtest.synthetic_db) and rates them (a full
recompute), then asks through Django's whole stack (the test client, no network) for each page
and API answer the head-to-head adds, for the busiest player and the one he met most often:
his profile (with its head-to-head section), ``/players/<a>/vs/<b>/``, and the API's opponents,
head-to-head and meetings. Prints for each the median wall and CPU time over ``--runs`` after a
warm-up, on PostgreSQL the database backend's CPU time (the mean over the runs, from ``/proc``;
the server's time is both), its query count and the load average (a shared machine's wall time
counts the waits for a core; the CPU time is the server's own work). On PostgreSQL the pool is
vacuumed after the recompute, as autovacuum leaves a live pool's history; ``--keep`` keeps the
scratch database and ``--reuse`` measures on a kept one without building it again (so that two
checkouts can take turns on the same pool).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 50.0
GAME = "tally"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--postgres", action="store_true", help="a scratch database beside DATABASE_URL's")
    parser.add_argument("--keep", action="store_true", help="with --postgres: keep the scratch database")
    parser.add_argument("--reuse", action="store_true", help="with --postgres: measure on a kept one")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    if args.postgres:
        from benchmarks.scratch_db import scratch_database

        url, drop = scratch_database(
            os.environ.get("DATABASE_URL", ""), "peoplebench", keep=args.keep or args.reuse, reuse=args.reuse
        )
        os.environ["DATABASE_URL"] = url
        try:
            run(args.matches, args.players, args.runs, build=not args.reuse)
        finally:
            from django.db import connections

            connections.close_all()
            drop()
        return
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
        run(args.matches, args.players, args.runs)


def run(matches: int, players: int, runs: int, *, build: bool = True) -> None:
    from benchmarks import site_setup

    site_setup.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from benchmarks.scratch_db import backend_cpu_seconds
    from ratings.backtest import synthetic_db
    from ratings.models import RatingPool
    from ratings.services import rating_pool_recompute
    from scorekeeper.clubs.models import home_club_id
    from scorekeeper.matches.models import Player, Seat
    from tests.fakes import install

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    install()  # the test game, ``tally``
    tables = synthetic_db.outcomes(players=players, matches=matches, seed=21)
    if build:
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        ids = synthetic_db.players(players, club=home_club_id())
        synthetic_db.store(game=GAME, tables=tables, player_ids=ids)
        stored = time.perf_counter() - started
        rating_pool_recompute(pool=RatingPool.objects.get_or_create(game=GAME)[0])
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
        print(f"stored {matches:,} matches of {players:,} players in {stored:.1f} s and rated them")
    else:
        call_command("migrate", verbosity=0)  # a database kept by an older checkout
        # synthetic_db.players made them first, in order, in the fresh database.
        ids = list(Player.objects.order_by("id").values_list("id", flat=True)[:players])

    seats = Counter(player for seated, _ in tables for player in seated)
    busiest = seats.most_common(1)[0][0]
    met = Counter(other for seated, _ in tables if busiest in seated for other in seated if other != busiest)
    rival, together = met.most_common(1)[0]
    a, b = ids[busiest], ids[rival]
    print(
        f"player {a}: {Seat.objects.filter(player_id=a).count():,} matches; met player {b} in {together:,} "
        f"of them; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    pages = [
        ("profile with its head-to-head", f"/players/{a}/"),
        ("head-to-head page", f"/players/{a}/vs/{b}/"),
        ("API opponents", f"/api/v1/players/{a}/opponents"),
        ("API head-to-head", f"/api/v1/players/{a}/vs/{b}"),
        ("API meetings", f"/api/v1/players/{a}/vs/{b}/matches"),
    ]
    client = Client()
    for label, url in pages:
        for _ in range(3):  # warm-up: templates compiled and cached, connections open
            assert client.get(url).status_code == 200, url
        executed: list[str] = []

        def count(execute, sql, *rest, executed=executed):
            executed.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(count):
            client.get(url)
        wall, cpu = [], []
        db_before = backend_cpu_seconds(connection)
        for _ in range(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            assert client.get(url).status_code == 200
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        db_after = backend_cpu_seconds(connection)
        db_ms = (
            (db_after - db_before) * 1000 / runs if db_before is not None and db_after is not None else 0.0
        )
        cpu_median = statistics.median(cpu)
        server = cpu_median + db_ms
        print(
            f"{label:30} {url:34} median {statistics.median(wall):6.1f} ms wall, {cpu_median:6.1f} ms CPU, "
            f"{db_ms:5.1f} ms DB CPU, {len(executed):2} queries ({'met' if server < TARGET_MS else 'MISSED'})"
        )
    # The profile is an older page (its charts and match list are most of its time): its
    # head-to-head section alone, as the page's include renders it.
    from django.template.loader import render_to_string

    player = Player.objects.get(pk=a)
    cpu = []
    for _ in range(runs):
        start_cpu = time.process_time()
        render_to_string("ratings/_head_to_head.html", {"player": player})
        cpu.append((time.process_time() - start_cpu) * 1000)
    print(f"{'profile: its head-to-head':30} {'(the include alone)':34} {statistics.median(cpu):6.1f} ms CPU")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
