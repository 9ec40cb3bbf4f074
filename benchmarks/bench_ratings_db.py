"""The ratings pipeline against PostgreSQL (issue 11); a benchmark, not a test.

    DATABASE_URL=postgres://USER@127.0.0.1:5432/DB REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python benchmarks/bench_ratings_db.py [--matches 100000] [--players 2000] \\
        [--rounds 4] [--latency 200] [--keep] [--reuse] [--points]

Makes a scratch database ``DB_ratingsbench`` (dropped afterwards unless ``--keep``; ``--reuse``
runs again on a kept one without storing its pool anew) and stores ``--matches``
synthetic finished matches of 2–6 players out of ``--players`` in one pool (``--points``: with
each seat's total, and the pool rated with its point scale, as a fitted pool weighs the
margins), then measures:

(a) a full recompute of that pool end to end, ``ratings.services.rating_pool_recompute``:
    read the matches from PostgreSQL, rate them, write every rating and history row, commit;
    beside openskill's own ``PlackettLuce().rate()`` loop over the same matches held in memory
    (read from the database beforehand, untimed). Each runs in a fresh child process, alternately,
    ``--rounds`` times; the peak RSS is the child's whole process (``ru_maxrss``).
(b) with a real celery worker on REDIS_URL (skipped without it): ``--latency`` matches are
    finished one after the other through ``hand_record`` into that pool; the time from just
    before the finishing hand's write (its commit is in it) until its rating is visible in the
    database, p50 / p95 / max.
(c) after a VACUUM ANALYZE (a site's state once autovacuum has passed: ``settle``), the
    pages on that pool through Django's test client (the server's time, without a
    network), in a fresh child process started as a gunicorn worker is (``scorekeeper.wsgi``)
    and with debug off, as production serves them: the game's leaderboard (its first page and a
    deep one) and the profile of the player with the most matches, ``--page-runs`` times each,
    p50 / p95.
(d) the storage: the pool's history partition and the seats the head-to-head reads, in MB
    (``pg_total_relation_size``: rows, indexes, TOAST).

Last, one summary of what issue 32 asks, side by side: each round's recompute time, its ratio
to openskill's loops and its peak RSS; the head-to-head's storage beside the history's; the
player page's p50 / p95.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.scratch_db import scratch_database  # noqa: E402  after the path

GAME = "tally"
#: openskill's loops timed beside the recompute: its default model, and the default's update
#: (Bradley–Terry, full pairing) with the default's parameters.
OPENSKILL = (
    "PlackettLuce",
    "BradleyTerryFull",
)  # the test game: free for all, registered in the worker by tests.integration.worker_setup


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    from benchmarks import site_setup

    site_setup.setup()
    from tests.fakes import install

    install()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- children: one measurement each, in a fresh process ------------------------------------
def child_recompute() -> dict:
    setup_django()
    from ratings.models import RatingPool
    from ratings.services import rating_pool_recompute

    pool = RatingPool.objects.get_or_create(game=GAME)[0].pk
    started = time.perf_counter()
    outcome = rating_pool_recompute(pool=pool)
    return {"seconds": time.perf_counter() - started, "matches": outcome["replayed"], "peak_mb": peak_mb()}


def child_openskill(model_name: str) -> dict:
    """openskill's own ``rate()`` loop over the pool's matches, read into memory first (untimed)."""
    setup_django()
    import openskill.models

    from ratings.pool_reading import pool_matches
    from ratings.raters import rater

    matches = [(m.sides, list(m.places)) for m in pool_matches(GAME)]
    if model_name == "BradleyTerryFull":  # the default's update, with its parameters
        default = rater()
        model: Any = openskill.models.BradleyTerryFull(
            mu=default.mu, sigma=default.sigma, beta=default.beta, tau=default.tau, kappa=default.kappa
        )
    else:
        model = getattr(openskill.models, model_name)()
    ratings: dict[Any, Any] = {}
    started = time.perf_counter()
    for sides, places in matches:
        teams = []
        for side in sides:
            team = []
            for p in side:
                r = ratings.get(p)
                if r is None:
                    r = ratings[p] = model.rating()
                team.append(r)
            teams.append(team)
        for side, new in zip(sides, model.rate(teams, ranks=places), strict=True):
            for p, r in zip(side, new, strict=True):
                ratings[p] = r
    return {"seconds": time.perf_counter() - started, "matches": len(matches), "peak_mb": peak_mb()}


def child_pages(runs: int) -> dict:
    """(c), in a process started as a gunicorn worker is: ``scorekeeper.wsgi`` (the apps, the
    URLconf, the startup's objects frozen out of the garbage collector's sight), debug off as
    the Procfile's production mode (the settings' default is on: every request's test-client
    receiver then stayed in a cache of Django's, and the full collections grew with them)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    os.environ["DJANGO_LOG_LEVEL"] = "WARNING"
    from django.conf import settings

    import scorekeeper.wsgi  # noqa: F401  the worker's startup

    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    from tests.fakes import install

    install()
    return {"pages": page_times(runs), "loop": python_loop()}


def python_loop() -> float:
    """CPU seconds of a 10⁷-step Python loop: how fast this machine's core is just now. The
    same code's CPU time moves by half between runs here (its other tenants), so the pages'
    figures are read beside it (about 0.22 s is the core at its fastest, 0.35 s and more slowed
    by the machine's other tenants)."""
    started, total = time.process_time(), 0
    for step in range(10**7):
        total += step
    return time.process_time() - started


def run_child(kind: str, env: dict, *extra: str) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, *extra],
        env=env, capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        sys.exit(f"the {kind} child failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# -- the parent ------------------------------------------------------------------------------
def prepare(matches: int, players: int, *, reuse: bool = False, points: bool = False) -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from ratings.backtest import synthetic_db
    from scorekeeper.clubs.models import home_club_id
    from scorekeeper.matches.models import Match

    if reuse and Match.objects.filter(game=GAME).exists():
        # A kept database: its matches as an earlier run stored them (plus the matches that
        # run's latency step finished), so reruns skip the minutes a 1M pool takes to store.
        print(f"reusing the kept pool: {Match.objects.filter(game=GAME).count():,} matches")
        return

    started = time.perf_counter()
    ids = synthetic_db.players(players, club=home_club_id())
    tables = synthetic_db.outcomes(players=players, matches=matches, seed=11, points=points)
    synthetic_db.store(game=GAME, tables=tables, player_ids=ids)
    if points:  # the pool rated as a fitted one is, its points weighed (its point scale set)
        from ratings.engine import MatchOutcome
        from ratings.fitting import point_scale
        from ratings.models import RatingPool

        scale = point_scale(
            [MatchOutcome(i, (), tuple(t[1]), scores=tuple(t[2])) for i, t in enumerate(tables)]
        )
        RatingPool.objects.update_or_create(game=GAME, defaults={"parameters": {"point_scale": scale}})
        print(f"the pool weighs the points: point scale {scale:.1f}")
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    took = time.perf_counter() - started
    print(f"stored {matches:,} synthetic matches of {players:,} players in {took:.1f} s")


def settle() -> None:
    """VACUUM ANALYZE before the pages are read, as autovacuum leaves a site that has been up a
    while: right after the pool's bulk store no visibility map is set, so the pages' index-only
    reads (his seats' count, a board's rank) visit the table row by row (the player page's p50
    at 1,000,000 matches: 52–64 ms before, 36–38 ms after)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def latency(count: int, redis_url: str) -> list[float]:
    from ratings.models import RatingPool

    # Rated: the pool's row names the match as its last one, written in the replay's own
    # transaction with the match's history and ratings. (Polling the history by match, which
    # no index leads with, was a parallel scan of 400,000 rows every 2 ms, competing with
    # the worker for the cores and doubling what was measured.)
    def rated(match_id: int) -> bool:
        return RatingPool.objects.filter(game=GAME, last_match_id=match_id).exists()

    from scorekeeper.clubs.services import home_club
    from scorekeeper.matches.models import Player
    from scorekeeper.matches.services import club_player_add, hand_record, match_create
    from tests.fakes import hand
    from tests.integration.support import WorkerProcess, celery_app_on

    # The timed matches are the home club's, among players on its roster (issue 33: a club's
    # matches seat its own players or named guests).
    players = list(Player.objects.order_by("id")[:40])
    for player in players:
        club_player_add(club=home_club(), player=player)
    log = Path("/tmp") / f"bench-ratings-worker-{os.getpid()}.log"
    worker = WorkerProcess(log, broker_url=redis_url)
    times = []
    with celery_app_on(redis_url, queue=worker.queue):
        worker.start()
        try:
            warm = _finish(players[0], players[1], hand_record, match_create, hand)  # the worker's first task
            _wait(lambda: rated(warm), 60, log)
            for i in range(count):
                a, b = players[(2 * i) % 40], players[(2 * i + 1) % 40]
                match = match_create(game=GAME, players=[a, b], by=None)
                match = hand_record(match=match, record=hand([4, 2]), by=None).match
                started = time.perf_counter()
                hand_record(match=match, record=hand([6, 1], dealer=1), by=None, version=match.version)
                _wait(lambda pk=match.pk: rated(pk), 30, log)
                times.append(time.perf_counter() - started)
        finally:
            worker.stop()
    return times


def _finish(a, b, hand_record, match_create, hand) -> int:
    match = match_create(game=GAME, players=[a, b], by=None)
    hand_record(match=match, record=hand([10, 2]), by=None)
    return match.pk


def _wait(condition, timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"no rating after {timeout} s; worker log:\n{log.read_text()[-3000:]}")
        time.sleep(0.002)


def page_times(runs: int) -> list[tuple[str, list[float], list[float], int]]:
    """(label, seconds of each run, CPU seconds of each run, SQL statements) of the pages on the
    benchmark's pool."""
    from django.db import connection
    from django.test import Client

    from ratings.models import PlayerRating

    busiest = PlayerRating.objects.filter(pool__game=GAME).order_by("-matches").first()
    if busiest is None:
        sys.exit(f"no rated player in the {GAME} pool")
    listed = PlayerRating.objects.filter(pool__game=GAME).count()
    deep = max(1, listed // 50 // 2)  # a page in the middle of the board
    pages = [
        ("leaderboard, first page", f"/leaderboards/{GAME}/"),
        (f"leaderboard, page {deep}", f"/leaderboards/{GAME}/?page={deep}"),
        (f"player page ({busiest.matches} matches)", f"/players/{busiest.player_id}/"),
    ]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    out = []
    for label, url in pages:
        executed: list[str] = []

        def count(execute, sql, *rest, executed=executed):
            executed.append(sql)
            return execute(sql, *rest)

        with connection.execute_wrapper(count):  # warm: templates compiled, rows cached
            client.get(url)
        times, cpu = [], []
        for _ in range(runs):
            started, started_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
            if response.status_code != 200:
                sys.exit(f"{url}: {response.status_code}")
        out.append((label, sorted(times), sorted(cpu), len(executed)))
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of the sorted ``values`` (the nearest rank)."""
    return values[min(len(values) - 1, int(q * len(values)))]


def storage() -> dict[str, float] | None:
    """MB of the pool's history partition and of the seats (``pg_total_relation_size``); None
    while the pool has no partition of its own (no full recompute yet: ``--rounds 0``)."""
    from django.db import connection

    from ratings import history_table
    from ratings.models import RatingPool
    from scorekeeper.matches.models import Seat

    pool = RatingPool.objects.filter(game=GAME).values_list("pk", flat=True).first()
    if pool is None:
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [f'"{history_table.partition_name(pool)}"'])
        if not cursor.fetchone()[0]:
            return None
    tables = {"history": history_table.partition_name(pool), "seats": Seat._meta.db_table}
    with connection.cursor() as cursor:
        sizes = {}
        for name, table in tables.items():
            cursor.execute("SELECT pg_total_relation_size(%s::regclass)", [f'"{table}"'])
            sizes[name] = cursor.fetchone()[0] / 2**20
        cursor.execute(f'SELECT count(*) FROM "{tables["history"]}"')
        sizes["history rows"] = cursor.fetchone()[0]
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument(
        "--rounds", type=int, default=4, help="timed runs of each, taking turns (the median counts)"
    )
    parser.add_argument("--latency", type=int, default=200, help="matches timed with a real worker (0: skip)")
    parser.add_argument("--page-runs", type=int, default=100, help="requests timed per page (0: skip)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument(
        "--reuse", action="store_true",
        help="use the database a --keep run left as it is (kept again); stores a pool only if it has none",
    )  # fmt: skip
    parser.add_argument(
        "--points", action="store_true",
        help="store each match's totals and rate the pool with its point scale (the margins weighed)",
    )  # fmt: skip
    parser.add_argument("--child", choices=["recompute", "pages", *OPENSKILL], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "pages":
        print(json.dumps(child_pages(args.page_runs)))
        return
    if args.child:
        print(json.dumps(child_recompute() if args.child == "recompute" else child_openskill(args.child)))
        return

    url, drop = scratch_database(
        os.environ.get("DATABASE_URL", ""), "ratingsbench", keep=args.keep, reuse=args.reuse
    )
    os.environ["DATABASE_URL"] = url
    redis_url = os.environ.get("REDIS_URL", "")
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("REDIS_URL", None)  # the children need no broker
    try:
        setup_django()
        prepare(args.matches, args.players, reuse=args.reuse, points=args.points)
        rows = []
        for _ in range(args.rounds):
            rows.append(
                {
                    **{name: run_child(name, env) for name in OPENSKILL},
                    "recompute": run_child("recompute", env),
                }
            )
        print()
        print("(a) full recompute from PostgreSQL, end to end, beside openskill's rate() loop in memory")
        print("| round | openskill PlackettLuce | openskill BradleyTerryFull | recompute end to end | "
              "× PL loop | × BT loop | recompute peak RSS |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")

        def cell(run):
            return f"{run['seconds']:.2f} s ({run['matches'] / run['seconds']:,.0f}/s)"

        for i, row in enumerate(rows, 1):
            pl, bt, rc = row["PlackettLuce"], row["BradleyTerryFull"], row["recompute"]
            print(f"| {i} | {cell(pl)} | {cell(bt)} | {cell(rc)} | {pl['seconds'] / rc['seconds']:.2f}× | "
                  f"{bt['seconds'] / rc['seconds']:.2f}× | {rc['peak_mb']:.0f} MB |")  # fmt: skip
        for name in OPENSKILL if rows else ():
            ratios = [row[name]["seconds"] / row["recompute"]["seconds"] for row in rows]
            print(f"median × {name} loop: {statistics.median(ratios):.2f} (target ≥ 1.0)")
        if rows:
            peak = max(row["recompute"]["peak_mb"] for row in rows)
            print(f"recompute peak RSS ≤ {peak:.0f} MB (target < 1 GB)")
        if args.latency and redis_url:
            times = sorted(latency(args.latency, redis_url))
            p = lambda q: times[min(len(times) - 1, int(q * len(times)))]  # noqa: E731
            print()
            print(
                f"(b) last hand committed → rating visible, real worker, {len(times)} matches into the "
                f"{args.matches:,}-match pool"
            )
            print(f"p50 {p(0.5) * 1000:.0f} ms, p95 {p(0.95) * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms "
                  "(target p95 < 100 ms)")  # fmt: skip
        elif args.latency:
            print("(b) skipped: REDIS_URL is not set")
        pages, loop = [], 0.0
        if args.page_runs:
            settle()
            measured = run_child("pages", env, "--page-runs", str(args.page_runs))
            pages, loop = measured["pages"], measured["loop"]
        if pages:
            print()
            print(
                f"(c) pages on the {args.matches:,}-match pool, server time in a worker's process, "
                f"{args.page_runs} runs"
            )
            print("| page | p50 | p95 | CPU here, p50 | SQL statements |")
            print("|---|---|---|---|---|")
            for label, times, cpu, statements in pages:
                p50, p95 = percentile(times, 0.5) * 1000, percentile(times, 0.95) * 1000
                print(f"| {label} | {p50:.1f} ms | {p95:.1f} ms | {percentile(cpu, 0.5) * 1000:.1f} ms "
                      f"| {statements} |")  # fmt: skip
            print("(target < 50 ms; the CPU column is this process's, without the database server's)")
            print(
                f"a 10⁷-step Python loop took {loop:.2f} s of CPU in that process "
                "(about 0.22 s: the core at its fastest)"
            )
        sizes = storage()
        print()
        if sizes is None:
            print("(d) storage: skipped, the pool has not been recomputed in full (no partition of its own)")
            return
        print(f"(d) storage: the pool's history partition {sizes['history']:,.0f} MB "
              f"({sizes['history rows']:,} rows); the head-to-head has none of its own: it reads the "
              f"seats ({sizes['seats']:,.0f} MB, the matches' own)")  # fmt: skip
        print()
        print(f"summary, {args.matches:,} matches of {args.players:,} players "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end)")  # fmt: skip
        print("| | time | × PL loop | × BT loop | peak RSS |")
        print("|---|---|---|---|---|")
        for i, row in enumerate(rows, 1):
            pl, bt, rc = row["PlackettLuce"], row["BradleyTerryFull"], row["recompute"]
            print(f"| recompute, round {i} | {rc['seconds']:.1f} s | {pl['seconds'] / rc['seconds']:.2f}× "
                  f"| {bt['seconds'] / rc['seconds']:.2f}× | {rc['peak_mb']:.0f} MB |")  # fmt: skip
        print(f"head-to-head storage: 0 rows, 0 MB (read from the seats); history {sizes['history']:,.0f} MB")
        for label, times, _cpu, _statements in pages:
            if label.startswith("player page"):
                print(f"{label}: p50 {percentile(times, 0.5) * 1000:.1f} ms, "
                      f"p95 {percentile(times, 0.95) * 1000:.1f} ms (target p95 < 50 ms)")  # fmt: skip
    finally:
        from django.db import connections

        connections.close_all()
        drop()


if __name__ == "__main__":
    main()
