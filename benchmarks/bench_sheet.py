"""Server time of a 60-hand match's score sheet page (issue 13: under 50 ms on this machine).

    .venv/bin/python benchmarks/bench_sheet.py [--hands 60] [--runs 50]

Builds a scratch SQLite database (a temporary file, migrated), records a 60-hand match through
the services (four seats, every tenth hand disputed with a reason, so the sheet has notes),
then asks for ``/matches/<id>/`` through Django's whole stack (middleware, view, selectors,
templates; the test client, no network) ``--runs`` times after a warm-up, and prints the
median, the best and the 90th percentile of the wall time, the median CPU time of the process
(the server's own work: on a shared machine the wall time also counts the waits for a core;
the load average is printed beside it), and the page's query count. The game is the test
suite's ``tally`` (tests/fakes.py): the sheet's cost is its rows, not the rules of a game.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET_MS = 50.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--profile", action="store_true", help="print where the time of one page goes")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
        run(args.hands, args.runs, args.profile)


def run(hands: int, runs: int, profile: bool = False) -> None:
    from benchmarks import site_setup

    site_setup.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from scorekeeper.matches.services import hand_record, match_create, player_create
    from tests.fakes import hand, install

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    install()
    user = get_user_model().objects.create_user("bench")
    players = [player_create(name=name, by=user) for name in ("Alice", "Boris", "Camille", "Dmitri")]
    match = match_create(game="tally", players=players, by=user, options={"target": 10**9})
    for i in range(hands):
        points = [(i * 7 + seat * 3) % 11 for seat in range(4)]
        disputed = i % 10 == 9
        declared = [p + (1 if disputed and seat == 0 else 0) for seat, p in enumerate(points)]
        match = hand_record(
            match=match,
            record=hand(points, declared=declared, dealer=i % 4),
            by=user,
            accept_declared=disputed,
            reason="the table agreed" if disputed else "",
        ).match

    client = Client()
    url = match.get_absolute_url()
    for _ in range(5):  # warm-up: templates compiled and cached, connections open
        assert client.get(url).status_code == 200
    executed: list[str] = []

    def count(execute: Any, sql: str, *args: Any) -> Any:
        executed.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(count):
        response = client.get(url)
    assert response.content.decode().count('<tr id="hand-') == hands
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200
    times.sort()
    if profile:
        import cProfile
        import pstats

        with cProfile.Profile() as prof:
            for _ in range(10):
                client.get(url)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(40)
    median, cpu_median = statistics.median(times), statistics.median(cpu)
    p90 = times[int(0.9 * (len(times) - 1))]
    print(
        f"score sheet of a {hands}-hand match ({len(response.content) // 1024} KiB, "
        f"{len(executed)} queries): median {median:.1f} ms, best {times[0]:.1f} ms, "
        f"p90 {p90:.1f} ms over {runs} runs; CPU time median {cpu_median:.1f} ms "
        f"(target < {TARGET_MS:.0f} ms of server time: {'met' if cpu_median < TARGET_MS else 'MISSED'} "
        f"in CPU time, {'met' if median < TARGET_MS else 'missed'} in wall time; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
