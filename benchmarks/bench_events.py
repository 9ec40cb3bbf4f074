"""Benchmark: an event's standings and its live page's idle polling, on a 200-entrant Swiss.

    .venv/bin/python benchmarks/bench_events.py [--entrants 200] [--rounds 9] [--runs 30] [--polls 1000]
    DATABASE_URL=postgres://USER@127.0.0.1:5432/DB .venv/bin/python benchmarks/bench_events.py

Not a test and not run in CI. Builds a scratch database (a temporary SQLite file, migrated;
with ``DATABASE_URL`` a PostgreSQL one beside it, ``<DB>_bench_events_<pid>``, dropped at the
end) and in it, through the services, a club, ``--entrants`` players and a two-sided Swiss of
``--rounds`` rounds in the test game ``tally`` (tests/fakes.py): each round paired by
``round_pair`` and every table finished by one ``hand_record`` (a random winner, one table in
ten drawn, a fixed seed), with the tie-breaks points, buchholz, median_buchholz,
sonneborn_berger, wins, game_points, difference, head_to_head, rating and lots. The setup's
time is printed (the event's matches are made and rated as any other).

Then, each ``--runs`` times after a warm-up, prints the median and the 95th percentile of:

- ``selectors.standings(event)``: the server's time of the standings, the DB read and the
  ranking (target < 50 ms); wall time, the process's CPU and, on PostgreSQL, its backend's CPU;
- ``selectors.played(event)``: the DB read alone (and turning its rows into ``Table`` objects);
- ``standings.standings`` on the prepared tables: the ranking alone, plain Python;
- ``selectors.live_tag(event)``: the one aggregate an idle projector's 304 costs the database.

Last, the idle projector: the live page (URL name ``event-live``, kwargs slug and pk; an
ETag, and 304 to a matching If-None-Match) asked ``--polls`` times through Django's whole stack
(the test client, in-process, no network) with the ETag of its first answer; the process's CPU
per 304 (and the backend's on PostgreSQL), the share of one core that 50 screens polling every
3 s cost (16.7 requests a second), and the most 304s a second one core could answer. Skipped,
saying so, while that URL does not exist.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 50.0
SCREENS = 50
POLL_SECONDS = 3.0
TIEBREAKS = [
    "points",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "wins",
    "game_points",
    "difference",
    "head_to_head",
    "rating",
    "lots",
]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--polls", type=int, default=1000, help="conditional requests of the live page")
    parser.add_argument("--keep", action="store_true", help="keep the PostgreSQL scratch database")
    parser.add_argument("--profile", action="store_true", help="print where the standings' time goes")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        from benchmarks.scratch_db import scratch_database

        os.environ["DATABASE_URL"], drop = scratch_database(
            url, f"bench_events_{os.getpid()}", keep=args.keep
        )
        try:
            run(args)
        finally:
            from django.db import connections

            connections.close_all()
            drop()
        return
    with tempfile.TemporaryDirectory() as scratch:
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
        run(args)


def run(args: argparse.Namespace) -> None:
    from benchmarks import site_setup

    site_setup.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from tests.fakes import install

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    install()
    logging.getLogger("celery").setLevel(logging.WARNING)  # not a line per rated match
    started = time.perf_counter()
    event, director = build_event(args.entrants, args.rounds)
    print(
        f"setup: a {args.entrants}-entrant, {args.rounds}-round Swiss of tally "
        f"({event.entrants.count()} entrants, {args.rounds * (args.entrants // 2)} matches) built through "
        f"the services in {time.perf_counter() - started:.1f} s ({connection.vendor})"
    )
    # The setup's 900 matches were made in this process: a server's process does not carry
    # them. Collected and frozen, they no longer lengthen every full collection of the reads.
    gc.collect()
    gc.freeze()
    measure_reads(event, args.runs, args.profile)
    measure_projector(event, director, args.polls, args.profile)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def build_event(entrants: int, rounds: int) -> tuple[Any, Any]:
    """The club, its players and the Swiss, every round paired and every table finished."""
    from django.contrib.auth import get_user_model

    from scorekeeper.clubs.services import club_create
    from scorekeeper.events import selectors, services
    from scorekeeper.matches.services import hand_record, player_create
    from tests.fakes import hand

    rng = random.Random(34)
    director = get_user_model().objects.create_user("director")
    club = club_create(by=director, name="Bench Open", slug="bench-open")
    event = services.event_create(
        club=club,
        by=director,
        name="Bench Open",
        game="tally",
        format="swiss",
        rounds=rounds,
        tiebreaks=TIEBREAKS,
        seed=34,
    )
    for i in range(entrants):
        player = player_create(name=f"Player {i:03}", club=club, by=director)
        services.entrant_add(event=event, player=player, by=director, rating=rng.randint(1200, 2200))
    for number in range(1, rounds + 1):
        paired = time.perf_counter()
        round_ = services.round_pair(event=event, by=director)
        pair_s = time.perf_counter() - paired
        played = time.perf_counter()
        for table in selectors.round_tables(round_):
            if table.match_id is None:
                continue
            outcome = rng.random()
            loser = rng.randint(0, 9)
            points = [10, 10] if outcome < 0.1 else [10, loser] if outcome < 0.55 else [loser, 10]
            hand_record(match=table.match_id, record=hand(points), by=None)
        print(
            f"  round {number}: paired in {pair_s:.2f} s, its tables finished in "
            f"{time.perf_counter() - played:.1f} s",
            flush=True,
        )
    return event, director


def timed(call: Callable[[], Any], runs: int, connection) -> dict[str, Any]:
    """Wall and CPU milliseconds of ``runs`` calls after three warm-up ones (and the database
    backend's CPU, mean over the runs, on PostgreSQL)."""
    from benchmarks.scratch_db import backend_cpu_seconds

    for _ in range(3):
        call()
    wall, cpu = [], []
    db_before = backend_cpu_seconds(connection)
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    db_after = backend_cpu_seconds(connection)
    db = (db_after - db_before) * 1000 / runs if db_before is not None and db_after is not None else None
    return {"wall": wall, "cpu": cpu, "db": db}


def paused(call: Callable[[], Any]) -> Any:
    """``call()`` with the cyclic garbage collector off (to see what of the tail is its)."""
    gc.disable()
    try:
        return call()
    finally:
        gc.enable()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure_reads(event, runs: int, profile: bool = False) -> None:
    from fractions import Fraction

    from django.db import connection

    from scorekeeper.events import selectors
    from scorekeeper.events import standings as ranking

    done = selectors.played(event)
    entries = list(event.entrants.order_by("id").values_list("player_id", "rating"))
    players = [p for p, _ in entries]
    ratings = {p: r for p, r in entries if r is not None}

    def pure() -> list:
        return ranking.standings(
            players,
            done.tables,
            by_place=[Fraction(p) for p in event.points],
            tiebreaks=event.tiebreaks,
            byes=done.byes,
            bye_points=Fraction(event.bye_points),
            ratings=ratings,
            seed=event.seed,
        )

    table = selectors.standings(event)
    assert [row.player for row in table] == [row.player for row in pure()]
    leader = table[0]
    print(
        f"standings: {len(table)} rows from {len(done.tables)} decided tables and "
        f"{sum(done.byes.values())} byes; the leader {leader.values['points']} points, "
        f"{len({row.rank for row in table})} distinct ranks"
    )
    cases = [
        ("selectors.standings (DB read + ranking)", lambda: selectors.standings(event), TARGET_MS),
        ("  selectors.played (the DB read)", lambda: selectors.played(event), None),
        ("  standings.standings (ranking alone)", pure, None),
        ("selectors.live_tag (a 304's query)", lambda: selectors.live_tag(event), None),
        ("selectors.standings, the GC paused", lambda: paused(lambda: selectors.standings(event)), None),
    ]
    head = f"{'':42} {'median':>8} {'p95':>8} {'CPU med':>8} {'CPU p95':>8} {'DB CPU':>8}   target"
    print(head)
    for label, call, target in cases:
        t = timed(call, runs, connection)
        db = f"{t['db']:6.1f}ms" if t["db"] is not None else f"{'—':>8}"
        server = statistics.median(t["cpu"]) + (t["db"] or 0.0)
        verdict = ""
        if target is not None:
            met = server < target and p95(t["cpu"]) + (t["db"] or 0.0) < target
            verdict = f"< {target:.0f} ms server time: {'met' if met else 'MISSED'}"
        print(
            f"{label:42} {statistics.median(t['wall']):6.1f}ms {p95(t['wall']):6.1f}ms "
            f"{statistics.median(t['cpu']):6.1f}ms {p95(t['cpu']):6.1f}ms {db}   {verdict}"
        )
    print(f"({runs} runs each after 3 warm-up; server time = CPU of the process + DB backend CPU)")
    if profile:
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            for _ in range(5):
                selectors.standings(event)
        pstats.Stats(prof).sort_stats("tottime").print_stats(20)


def measure_projector(event, director, polls: int, profile: bool = False) -> None:
    from django.db import connection
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    from benchmarks.scratch_db import backend_cpu_seconds

    try:
        url = reverse("event-live", kwargs={"slug": event.club.slug, "pk": event.pk})
    except NoReverseMatch:
        print("idle projector: SKIPPED, there is no URL named 'event-live' (slug, pk) yet")
        return
    client = Client()
    first = client.get(url)
    if first.status_code != 200:  # a page for members only: a director's screen
        client.force_login(director)
        first = client.get(url)
    etag = first.headers.get("ETag")
    if first.status_code != 200 or not etag:
        print(f"idle projector: SKIPPED, {url} answered {first.status_code} with ETag {etag!r}")
        return
    for _ in range(10):  # warm-up
        answer = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert answer.status_code == 304, (url, answer.status_code)
    executed: list[str] = []

    def note(execute, sql, *rest):
        executed.append(sql)
        return execute(sql, *rest)

    with connection.execute_wrapper(note):
        client.get(url, HTTP_IF_NONE_MATCH=etag)
    db_before = backend_cpu_seconds(connection)
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(polls):
        client.get(url, HTTP_IF_NONE_MATCH=etag)
    cpu_s = (time.process_time() - cpu_start) / polls
    wall_s = (time.perf_counter() - wall_start) / polls
    db_after = backend_cpu_seconds(connection)
    db_s = (db_after - db_before) / polls if db_before is not None and db_after is not None else 0.0
    server_s = cpu_s + db_s
    rate = SCREENS / POLL_SECONDS
    db_note = f" + {db_s * 1000:.2f} ms of the DB backend = {server_s * 1000:.2f} ms" if db_s else ""
    print(
        f"idle projector: {url}, {polls} conditional requests (304, {len(executed)} queries each), "
        f"{len(first.content) // 1024} KiB full answer"
    )
    if profile:
        for sql in executed:
            print(f"    {sql[:150]}")
    print(
        f"  per 304: {wall_s * 1000:.2f} ms wall, {cpu_s * 1000:.2f} ms CPU of the process{db_note}; "
        f"{SCREENS} screens every {POLL_SECONDS:.0f} s ({rate:.1f} req/s) cost {server_s * rate * 100:.1f} % "
        f"of one core; one core answers at most {1 / server_s:,.0f} 304s a second"
    )


if __name__ == "__main__":
    main()
