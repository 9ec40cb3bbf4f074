"""Club night, event mode (issue 34): a Swiss evening of two-hand piquet, its projectors, and
Redis and the worker failing in the middle of a round.

    DATABASE_URL=postgres://USER@127.0.0.1:5432/DB .venv/bin/python benchmarks/club_night_event.py \\
        [--tables 200] [--pace 25] [--rounds 3] [--projectors 50] [--poll 3] [--history 2000] \\
        [--fault-round 2] [--workers 2] [--threads 1] [--keep-db]

Not a test and not run in CI. Loopback only. Prerequisites: PostgreSQL reachable through
DATABASE_URL by a role that may create databases, and ``redis-server`` on the PATH: the run
starts a Redis of its own on a free port (no persistence, as a crash leaves one) and points
REDIS_URL at it, since it restarts it; a REDIS_URL in the environment is not used. Never the
machine's own Redis or PostgreSQL is stopped.

What it does:
1. as the club night (``club_night.prepare``): a scratch database ``<DB>_clubnight_event``, its
   members and ``--history`` past matches, rated; then a club of its own (public), whose roster
   is the ``2 × --tables`` entrants, each player with a user account and an API token (the
   event's services make each table's match with the seated players' accounts as its scorers:
   the player in seat 1 scores his table with his own token, as the players of a real event do);
   a director (the club's admin) with a token. It starts its Redis, a real ``celery worker``,
   ``celery beat`` (whose ``outbox.sweep`` hands over again what a fault lost) and gunicorn in
   production mode, and warms them up as the club night does (one partie by a phone, one by an
   app, each waiting for its rating: the worker is up);
2. the director makes a Swiss event of ``--rounds`` rounds through the API and enters every
   member (``POST /api/v1/events/<id>/entrants``);
3. each round: the director pairs it (``POST /api/v1/events/<id>/rounds``; 409 ``round_open``:
   again half a second later); each table is a thread that reads its match, then plays one of
   the demo's real parties to its end at ``--pace``, as ``club_night.app_table`` plays over the
   API (the dry run, then the hand with its version and an ``Idempotency-Key``; a hand whose
   answer was lost or refused is sent again with the same key, up to 5 times); once its match
   is finished it polls the first player's rating history until the match is rated. When every
   table is done the director pairs the next round;
4. all along, ``--projectors`` screens, anonymous (the club is public), each load the projector
   page and then poll ``/clubs/<slug>/events/<id>/live/`` every ``--poll`` seconds with
   ``If-None-Match``: 200s, 304s, and any other answer or a connection error as an error;
5. in round ``--fault-round`` (0: none), once ``--fault-after`` of its tables have finished
   (their ratings are on their way: the faults meet the outbox's work, not an idle queue):
   Redis is killed (SIGKILL), started again on the same port 2 s later, empty; 4 s after it is
   back, the celery worker is killed (SIGKILL to its main process and its pool) and a new one
   started;
6. after the last round: waits (up to ``--drain`` s) until every rating event is processed and
   every outbox message done (beat's sweep redelivers a lost one after OUTBOX_REDELIVER_AFTER),
   then leaves the projectors alone for ``--idle`` seconds (nothing changes: 304s) and measures
   the service's CPU per poll; then checks: every acknowledged hand stored once and nothing
   else, every finished match rated, no rating event pending (``club_night.check``); every round
   paired with ``--tables`` tables, every entrant seated once; the standings of ``GET
   /standings`` equal a recount from the matches' results (``GET /api/v1/matches/<id>``: 1 for
   a win, ½ each for a tie, 0 for a loss); the projectors had no error answer. It prints the
   requests by kind, the rounds' times, the faults' times, the projectors' counts and the CPU,
   and exits with 1 when a check fails (the latency targets are printed, not checked).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import club_night as cn  # noqa: E402  after the path
from benchmarks.load_api import free_port, start_gunicorn, stop  # noqa: E402
from benchmarks.scratch_db import scratch_database  # noqa: E402

GAME = cn.GAME
#: A request whose answer was lost or refused is sent again (the same Idempotency-Key) this often.
ATTEMPTS = 5
RETRY_PAUSE = 1.0
#: The director pairs again this long after a 409 round_open.
PAIR_RETRY = 0.5
#: A table looks for its match's rating every 0.1 s for this long, then every second.
RATING_FAST_FOR = 2.0
RATING_SLOW_POLL = 1.0
#: The faults: Redis down this long, the worker killed this long after Redis is back.
REDIS_DOWN = 2.0
WORKER_AFTER = 4.0
#: The rows of the table of requests, in this order (any other kind after them).
EVENT_KINDS = [
    "record · API",
    "live check · API dry run",
    "match · API",
    "rating poll · API",
    "projector · live poll",
    "projector · page",
    "event · API",
    "enter · API",
    "pair round · API",
    "rounds · API",
    "standings · API",
    "recount · match API",
]
FAULT_TIMES = ("redis killed", "redis back", "worker killed", "new worker started")
PROJECTOR_KINDS = ("projector · live poll", "projector · page")
RECORD_TARGET_MS = cn.TARGETS_MS["record"]


# -- pure helpers (tests/benchmarks/test_club_night_event.py runs them) ---------------------
def table_points(players: Sequence[int], placements: Sequence[int]) -> dict[int, Fraction]:
    """Event points at one table of a Swiss: 1 for the first place, 0 for the last, players
    sharing places sharing their points (a tie of two: ½ each)."""
    if len(players) != len(placements):
        raise ValueError(f"{len(players)} players, {len(placements)} places")
    by_place = [Fraction(1)] + [Fraction(0)] * (len(players) - 1)
    out = {}
    for player, place in zip(players, placements, strict=True):
        span = list(placements).count(place)
        out[player] = sum(by_place[place - 1 : place - 1 + span], Fraction(0)) / span
    return out


def recount(entrants: Iterable[int], results: Iterable[tuple[Sequence[int], Sequence[int]]]) -> dict:
    """Every entrant's event points from the tables' (players, placements), 0 for none."""
    points: dict[int, Fraction] = {p: Fraction(0) for p in entrants}
    for players, placements in results:
        for player, earned in table_points(players, placements).items():
            points[player] = points.get(player, Fraction(0)) + earned
    return points


def standings_problems(rows: Sequence[dict], points: dict[int, Fraction]) -> list[str]:
    """Where the API's standings rows (``player``, ``values.points``) differ from a recount."""
    problems = []
    shown = {row["player"]: row["values"].get("points") for row in rows}
    if set(shown) != set(points):
        missing, extra = set(points) - set(shown), set(shown) - set(points)
        problems.append(
            f"the standings list {len(shown)} players, the recount {len(points)}"
            f" (missing {sorted(missing)[:3]}, extra {sorted(extra)[:3]})"
        )
    wrong = [
        (player, shown[player], str(points[player]))
        for player in sorted(set(shown) & set(points))
        if shown[player] is None or Fraction(str(shown[player])).limit_denominator(1000) != points[player]
    ]
    if wrong:
        problems.append(
            f"{len(wrong)} players' points differ from the recount (player, API, recount): {wrong[:3]}"
        )
    return problems


def round_problems(rounds: Sequence[dict], expected: int, entrants: Sequence[int]) -> list[str]:
    """What is wrong with the event's rounds (``GET …/rounds``): their number, each round's
    tables (one a pair of entrants, each with its match), every entrant seated once a round."""
    problems = []
    if [r["number"] for r in rounds] != list(range(1, expected + 1)):
        problems.append(f"rounds paired {[r['number'] for r in rounds]}, expected 1 to {expected}")
    for r in rounds:
        tables = r["tables"]
        if len(tables) != len(entrants) // 2:
            problems.append(f"round {r['number']}: {len(tables)} tables, expected {len(entrants) // 2}")
        odd = [t["table"] for t in tables if t["match"] is None or t["bye"] or len(t["players"]) != 2]
        if odd:
            problems.append(f"round {r['number']}: tables {odd[:5]} are not a match of two")
        seated = [p for t in tables for p in t["players"]]
        if sorted(seated) != sorted(entrants):
            problems.append(
                f"round {r['number']}: {len(seated)} seats for {len(entrants)} entrants, "
                f"{len(set(seated))} players seated, {len(set(entrants) - set(seated))} entrants not"
            )
    return problems


def count_polls(polls: Iterable[tuple[float, int]], start: float = float("-inf"), end: float = float("inf")):
    """How many projector polls answered between ``start`` and ``end`` were 200, 304 or
    anything else (0: a connection error)."""
    counts = {"200": 0, "304": 0, "error": 0}
    for at, status in polls:
        if start <= at < end:
            counts[str(status) if status in (200, 304) else "error"] += 1
    return counts


def redis_ping(port: int, timeout: float = 0.5) -> bool:
    """Whether a Redis answers PING on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


# -- the evening's state ---------------------------------------------------------------------
@dataclass
class Evening:
    night: cn.Night  # the port, the pace, the recorder, the parties (club_night's)
    slug: str
    event: int = 0
    poll: float = 3.0
    rating_timeout: float = 150.0
    #: (monotonic time answered, status; 0 for no answer) of every projector poll.
    polls: list[tuple[float, int]] = field(default_factory=list)
    rating_timeouts: int = 0
    tables_gave_up: list[str] = field(default_factory=list)


@dataclass
class Services:
    """The processes the evening restarts: its Redis, the celery worker."""

    redis_port: int
    queue: str
    concurrency: int
    logs: Path
    redis: subprocess.Popen | None = None
    worker: subprocess.Popen | None = None
    workers_started: int = 0

    def start_redis(self) -> None:
        command = ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        with open(self.logs / "redis.log", "a") as out:
            self.redis = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 10
        while not redis_ping(self.redis_port):
            if self.redis.poll() is not None or time.monotonic() > deadline:
                sys.exit(
                    f"error: redis-server did not start on port {self.redis_port} ({self.logs}/redis.log)"
                )
            time.sleep(0.05)

    def kill_redis(self) -> None:
        assert self.redis is not None
        self.redis.kill()
        self.redis.wait()

    def start_worker(self) -> None:
        self.workers_started += 1
        log = self.logs / f"worker-{self.workers_started}.log"
        self.worker = cn.start_worker(self.concurrency, self.queue, log)

    def kill_worker(self) -> None:
        assert self.worker is not None
        with contextlib.suppress(ProcessLookupError):  # it had exited by itself, its pool with it
            os.killpg(self.worker.pid, signal.SIGKILL)  # its own session: its main process and its pool
        self.worker.wait()


def start_beat(logs: Path) -> subprocess.Popen:
    """``celery beat`` as the Procfile starts it (its schedule file in the run's folder)."""
    with open(logs / "beat.log", "w") as out:
        command = [sys.executable, "-m", "celery", "-A", "scorekeeper", "beat", "--loglevel", "WARNING"]
        return subprocess.Popen(
            [*command, "--schedule", str(logs / "beat-schedule")],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


# -- the clients ------------------------------------------------------------------------------
def retrying(client: cn.Client, kind: str, method: str, path: str, **kwargs: Any) -> cn.Answer | None:
    """``client.call`` sent again (the same body and headers, so the same Idempotency-Key) after
    a failure, up to ATTEMPTS times; each failure is recorded as an error of ``kind``."""
    for attempt in range(ATTEMPTS):
        if attempt:
            time.sleep(RETRY_PAUSE)
        got = client.call(kind, method, path, **kwargs)
        if got is not None:
            return got
    return None


def event_table(
    evening: Evening, number: int, table: dict, token: str, partie: dict, rng: random.Random, done
) -> None:
    """One table of a round: its match read, its partie played hand by hand as an app does (the
    dry run, then the hand with its version and key), then the rating waited for."""
    night = evening.night
    client = cn.Client(night.port, night.recorder, token=token)
    players, match_id = table["players"], table["match"]
    where = f"round {number} table {table['table']} (match {match_id})"
    with night.recorder.lock:
        night.recorder.matches.append(match_id)
    try:
        cn.sleep_until(night, time.monotonic() + rng.uniform(0, cn.HAND_SECONDS[1] / night.pace))
        got = retrying(client, "match · API", "GET", f"/api/v1/matches/{match_id}")
        if got is None:
            evening.tables_gave_up.append(f"{where}: its match could not be read")
            return
        match = got.json()
        version, state = match["version"], None
        next_at = time.monotonic()
        for n, record in enumerate(partie["records"], 1):
            to_check, entry = cn.hand_times(rng, night.pace)
            cn.sleep_until(night, next_at + to_check)
            dry_run = {
                "preset": match["preset"],
                "options": match["options"],
                "seats": len(players),
                "state": state,
                "hand": record,
            }
            got = client.call(
                "live check · API dry run", "POST", f"/api/v1/rules/{GAME}/score", json_body=dry_run
            )
            if got is not None and not got.json().get("valid"):
                night.recorder.fail("live check · API dry run", f"{where} hand {n}: not valid")
            cn.sleep_until(night, next_at + to_check + entry)
            got = retrying(
                client,
                "record · API",
                "POST",
                f"/api/v1/matches/{match_id}/hands",
                json_body={"record": record, "version": version},
                headers={"Idempotency-Key": str(uuid.uuid4())},
                expect=(201,),
            )
            next_at = time.monotonic()
            if got is None:
                evening.tables_gave_up.append(f"{where}: hand {n} not acknowledged after {ATTEMPTS} tries")
                return
            written = got.json()
            version, state = written["version"], written["match"]["state"]
            with night.recorder.lock:
                night.recorder.hands.append((match_id, written["hand"]["number"]))
            finished = written["match"]["status"] == "finished"
            if finished != (n == partie["finish"]):
                night.recorder.fail("record · API", f"{where} hand {n}: status {written['match']['status']}")
            if finished:
                with night.recorder.lock:
                    night.recorder.finished.append(match_id)
                    night.recorder.finished_at.append(time.monotonic())
                done.set()  # the round may be paired on while this table waits for its rating
                await_rating(evening, client, players[0], match_id)
                return
        evening.tables_gave_up.append(f"{where}: the partie's hands did not finish the match")
    finally:
        done.set()


def await_rating(evening: Evening, client: cn.Client, player: int, match: int) -> None:
    """Poll the player's newest ratings until one is this match's (every 0.1 s, after 2 s every
    second: a rating the faults delayed is waited for without flooding the server)."""
    answered = time.perf_counter()
    path = f"/api/v1/players/{player}/ratings/{GAME}/history?page_size=5"
    while (waited := time.perf_counter() - answered) < evening.rating_timeout:
        time.sleep(cn.POLL_INTERVAL if waited < RATING_FAST_FOR else RATING_SLOW_POLL)
        got = client.call("rating poll · API", "GET", path)
        if got is not None and any(r["match"] == match for r in got.json()["results"]):
            with evening.night.recorder.lock:
                evening.night.recorder.rating_visible.append(time.perf_counter() - answered)
            return
    with evening.night.recorder.lock:
        evening.rating_timeouts += 1


def projector(evening: Evening, rng: random.Random, stop_event: threading.Event) -> None:
    """A screen: the projector page, then the live endpoint every ``poll`` s with its ETag."""
    client = cn.Client(evening.night.port, evening.night.recorder)
    base = f"/clubs/{evening.slug}/events/{evening.event}"
    client.call("projector · page", "GET", f"{base}/projector/")
    etag = ""
    next_at = time.monotonic() + rng.uniform(0, evening.poll)
    while not stop_event.wait(max(0.0, next_at - time.monotonic())):
        next_at += evening.poll
        headers = {"If-None-Match": etag} if etag else {}
        got = client.call("projector · live poll", "GET", f"{base}/live/", headers=headers, expect=(200, 304))
        with evening.night.recorder.lock:
            evening.polls.append((time.monotonic(), got.status if got is not None else 0))
        if got is not None:
            etag = got.headers.get("ETag") or etag


# -- the director -------------------------------------------------------------------------------
def pair_round(director: cn.Client, event: int, timeout: float) -> tuple[dict | None, int]:
    """The next round paired (its answer), and how many 409 ``round_open`` came first; None
    when it could not be paired within ``timeout`` seconds."""
    deadline, waits = time.monotonic() + timeout, 0
    key = str(uuid.uuid4())
    while time.monotonic() < deadline:
        got = director.call(
            "pair round · API",
            "POST",
            f"/api/v1/events/{event}/rounds",
            json_body={},
            headers={"Idempotency-Key": key},
            expect=(201, 409),
        )
        if got is not None and got.status == 201:
            return got.json(), waits
        if got is not None:
            code = got.json().get("code")
            if code != "round_open":
                director.recorder.fail("pair round · API", f"409 {code}")
                return None, waits
            waits += 1
            key = str(uuid.uuid4())  # a new request, not a retry of the refused one
        time.sleep(PAIR_RETRY)
    return None, waits


def enter_all(director: cn.Client, event: int, players: Sequence[int]) -> None:
    """Every player entered, one request each (a 429 of the write throttle: again after its
    Retry-After, as a client should)."""
    for player in players:
        for _ in range(ATTEMPTS):
            got = director.call(
                "enter · API",
                "POST",
                f"/api/v1/events/{event}/entrants",
                json_body={"player": player},
                expect=(201, 429),
            )
            if got is None:
                sys.exit(
                    f"error: player {player} could not be entered:\n  "
                    + "\n  ".join(director.recorder.first_errors)
                )
            if got.status == 201:
                break
            time.sleep(float(got.headers.get("Retry-After") or 1))


def prepare_event_club(entrants: Sequence[int]) -> dict[str, Any]:
    """A public club whose roster is the entrants (``prepare`` put every member on the home
    club's), each with a user account (his player's) and a token; its director (the club's
    admin) with a token."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from api.tokens import token_create
    from scorekeeper.clubs.services import club_create
    from scorekeeper.matches.models import ClubPlayer, Player

    User = get_user_model()
    director = User.objects.create_user("director")
    club = club_create(by=director, name="Club night event", slug="club-night-event")
    ClubPlayer.objects.bulk_create([ClubPlayer(club=club, player_id=p, added_by=director) for p in entrants])
    users = User.objects.bulk_create([User(username=f"player{p}", password="!") for p in entrants])
    players = list(Player.objects.filter(pk__in=entrants))
    user_of = {p: u for p, u in zip(entrants, users, strict=True)}
    for player in players:
        player.user = user_of[player.pk]
    Player.objects.bulk_update(players, ["user"])
    tokens = {p: token_create(user=user_of[p])[1] for p in entrants}
    connection.close()
    return {"slug": club.slug, "director": token_create(user=director)[1], "tokens": tokens}


# -- after the evening -----------------------------------------------------------------------
def pending() -> tuple[int, int]:
    """Rating events not processed, outbox messages not done."""
    from ratings.models import RatingEvent
    from scorekeeper.outbox.models import OutboxMessage

    return (
        RatingEvent.objects.filter(processed_at__isnull=True).count(),
        OutboxMessage.objects.filter(done_at__isnull=True).count(),
    )


def outbox_figures() -> dict[str, int]:
    """The outbox's messages: all, handed over more than once (the sweep's redeliveries), and
    with a failed hand-over on record (the broker was down)."""
    from django.db.models import Count, Q

    from scorekeeper.outbox.models import OutboxMessage

    return OutboxMessage.objects.aggregate(
        messages=Count("id"),
        redelivered=Count("id", filter=Q(attempts__gt=1)),
        failed=Count("id", filter=~Q(last_error="")),
    )


def drain(timeout: float) -> float | None:
    """Seconds until nothing is pending (the worker caught up), None when it did not in time."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if pending() == (0, 0):
            return time.monotonic() - started
        time.sleep(0.5)
    return None


def event_checks(director: cn.Client, event: int, rounds: int, entrants: Sequence[int]) -> list[str]:
    """The rounds as paired, and the standings against a recount from the matches' results."""
    got = director.call("rounds · API", "GET", f"/api/v1/events/{event}/rounds?page_size=100")
    if got is None:
        return ["the rounds could not be read"]
    paired = got.json()["results"]
    problems = round_problems(paired, rounds, entrants)
    results, unfinished = [], []
    for r in paired:
        for t in r["tables"]:
            if t["match"] is None:
                continue
            match = retrying(director, "recount · match API", "GET", f"/api/v1/matches/{t['match']}")
            if match is None:
                problems.append(f"match {t['match']} could not be read")
                continue
            body = match.json()
            placements = (body.get("result") or {}).get("placements")
            if body["status"] != "finished" or not placements:
                unfinished.append(t["match"])
                continue
            seats = sorted(body["seats"], key=lambda s: s["position"])
            results.append(([s["player"] for s in seats], placements))
    if unfinished:
        problems.append(f"{len(unfinished)} matches of the event not finished, e.g. {unfinished[:3]}")
    standings = director.call("standings · API", "GET", f"/api/v1/events/{event}/standings")
    if standings is None:
        return [*problems, "the standings could not be read"]
    recounted = recount(entrants, results)
    problems += standings_problems(standings.json()["rows"], recounted)
    leaders = sorted(recounted.values(), reverse=True)[:3]
    print(
        f"standings: {len(standings.json()['rows'])} rows, recounted from {len(results)} results; "
        f"the top points {[str(p) for p in leaders]}" + ("" if problems else ": equal")
    )
    return problems


def report(
    evening: Evening,
    rounds: list[dict],
    faults: dict[str, float],
    idle: dict[str, Any],
    machine: dict[str, Any],
    caught_up: float | None,
    outbox: dict[str, int],
) -> None:
    recorder = evening.night.recorder
    hands, elapsed = len(recorder.hands), machine["elapsed"]
    print(
        f"\n{elapsed:.0f} s of the event: {len(rounds)} rounds paired, {hands} hands recorded "
        f"({hands / elapsed:.1f}/s), {len(recorder.finished)} matches finished"
    )
    print("\n| kind | count | p50 ms | p95 ms | p99 ms | max ms | errors |")
    print("|---|---|---|---|---|---|---|")
    kinds = EVENT_KINDS + sorted(set(recorder.samples) - set(EVENT_KINDS))
    for kind in kinds:
        values = recorder.samples.get(kind, [])
        if values or recorder.errors.get(kind):
            print(cn.row(kind, cn.summarize(values), recorder.errors.get(kind, 0)))
    visible = cn.summarize(recorder.rating_visible)
    print(cn.row("finish → rating visible", visible, evening.rating_timeouts))
    record = cn.summarize(recorder.samples.get("record · API", []))
    print(
        f"(not checked here) record p95 {record['p95'] * 1000:.0f} ms, the club night's target "
        f"< {RECORD_TARGET_MS}; finish → rating visible p95 {visible['p95']:.2f} s "
        f"({evening.rating_timeouts} not within {evening.rating_timeout:.0f} s)"
    )

    print("\n| round | paired in ms | 409 waits | tables | first table finished s | last s | round s |")
    print("|---|---|---|---|---|---|---|")
    for r in rounds:
        print(
            f"| {r['number']} | {r['pair_ms']:.0f} | {r['waits']} | {r['tables']} | "
            f"{r['first']:.1f} | {r['last']:.1f} | {r['duration']:.1f} |"
        )
    if "errors" in faults:
        print(
            "\nfaults (s from the first pairing): "
            + ", ".join(f"{name} {faults[name]:.1f}" for name in FAULT_TIMES if name in faults)
            + f" (after {faults['finished before']:.0f} of the round's tables had finished)"
        )
        if "worker exited by itself" in faults:
            print(
                f"  WARNING: the worker exited by itself at {faults['worker exited by itself']:.1f} s "
                f"(exit code {faults['worker exit code']:.0f}) when Redis went away; it was started "
                "again as a supervisor would (its log says why: the logs below, worker-1.log)"
            )
        print(
            f"  request errors from Redis's kill to 10 s after the new worker: {faults['errors']:.0f} "
            f"(of them projector polls: {faults['projector errors']:.0f})"
        )
    counts = count_polls(evening.polls)
    print(
        f"\nprojectors: {len(evening.polls)} polls, {counts['200']} × 200, {counts['304']} × 304, "
        f"{counts['error']} errors (connection errors and other answers)"
    )
    if idle.get("polls"):
        print(
            f"  idle ({idle['seconds']:.0f} s after the evening, nothing changing): {idle['polls']} polls "
            f"({idle['304']} × 304, {idle['200']} × 200, {idle['error']} errors); CPU per poll "
            f"{idle['per_poll_ms']:.2f} ms (gunicorn {idle['gunicorn_ms']:.2f} ms + PostgreSQL "
            f"{idle['postgres_ms']:.2f} ms, all of the run's database backends)"
        )
    print(
        "the worker caught up "
        + (f"{caught_up:.1f} s after the last round" if caught_up is not None else "NOT within the drain")
        + " (no rating event pending, every outbox message done); the outbox: "
        f"{outbox['messages']} messages, {outbox['redelivered']} handed over more than once, "
        f"{outbox['failed']} with a failed hand-over on record"
        + ("" if outbox["beat alive"] else "; WARNING: beat had exited (its sweep stopped)")
    )
    cpus = os.cpu_count() or 1
    shares = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in machine["used"].items())
    print(
        f"\nmachine: {cpus} CPUs; load average at the start {machine['loads'][0]}, at the end "
        f"{machine['loads'][-1]}; CPUs busy {machine['busy']:.0%}; CPU-seconds: {shares}"
    )
    lag = cn.summarize(recorder.lag)
    print(
        f"the load generator's threads woke p50 {lag['p50'] * 1000:.1f} ms, "
        f"p95 {lag['p95'] * 1000:.1f} ms late"
    )
    for error in recorder.first_errors:
        print(f"  first errors: {error}")


# -- main ---------------------------------------------------------------------------------------
def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--tables", type=int, default=200, help="tables a round (2 entrants each)")
    parser.add_argument("--pace", type=float, default=25, help="human times divided by this (default 25)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--projectors", type=int, default=50)
    parser.add_argument("--poll", type=float, default=3.0, help="a projector's seconds between polls")
    parser.add_argument("--history", type=int, default=2000, help="past matches, rated before the evening")
    parser.add_argument(
        "--fault-round", type=int, default=2, help="the round Redis and the worker fail in (0: none)"
    )
    parser.add_argument(
        "--fault-after",
        type=float,
        default=0.1,
        help="the faults come once this share of the fault round's tables finished (default 0.1)",
    )
    parser.add_argument("--drain", type=float, default=180, help="seconds to wait for the worker to catch up")
    parser.add_argument("--idle", type=float, default=15, help="seconds of projectors alone at the end")
    parser.add_argument("--pair-timeout", type=float, default=120, help="seconds of 409s before giving up")
    parser.add_argument("--rating-timeout", type=float, default=150)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (default 2)")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (>1: gthread)")
    parser.add_argument("--worker-concurrency", type=int, default=2, help="celery worker processes")
    parser.add_argument("--seed", type=int, default=34)
    parser.add_argument("--keep-db", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.pace <= 0 or args.rounds < 1 or args.projectors < 0 or args.poll <= 0:
        parser.error("--tables ≥ 1, --pace > 0, --rounds ≥ 1, --projectors ≥ 0, --poll > 0")
    if not 0 <= args.fault_round <= args.rounds or not 0 <= args.fault_after <= 1:
        parser.error("--fault-round from 0 (none) to --rounds, --fault-after from 0 to 1")
    return args


class Sampler(threading.Thread):
    """The machine's load and each part's CPU, every 5 s while the evening lasts."""

    def __init__(self, parts) -> None:
        super().__init__(daemon=True)
        self.parts = parts  # () -> {group: pids}
        self.meter = cn.CpuMeter()
        self.loads = [cn.loadavg()]
        self.stat = cn.proc_stat_cpu()
        self.halt = threading.Event()
        self.sample(born=False)

    def sample(self, born: bool) -> None:
        for group, pids in self.parts().items():
            self.meter.sample(group, pids, born=born)

    def run(self) -> None:
        from django.db import connection

        try:
            while not self.halt.wait(cn.WINDOW_SECONDS):
                self.loads.append(cn.loadavg())
                self.sample(born=True)
        finally:
            connection.close()  # this thread's own (database_backends)

    def finish(self) -> dict[str, Any]:
        self.halt.set()
        self.join()
        self.sample(born=True)
        self.loads.append(cn.loadavg())
        return {
            "used": self.meter.used(),
            "loads": self.loads,
            "busy": cn.cpu_busy(self.stat, cn.proc_stat_cpu()),
        }


def inject_faults(
    services: Services, evening: Evening, t0: float, since: float, finishes: int, out: dict[str, float]
) -> None:
    """Once ``finishes`` tables have finished since ``since`` (monotonic): Redis killed and
    started again empty, then the worker killed and a new one started; their times (s from
    ``t0``) and the errors from the first fault to 10 s after the last."""
    recorder = evening.night.recorder

    def errors() -> tuple[int, int]:
        with recorder.lock:
            return sum(recorder.errors.values()), count_polls(evening.polls)["error"]

    def finished() -> int:
        with recorder.lock:
            return sum(at >= since for at in recorder.finished_at)

    while finished() < finishes:
        time.sleep(0.05)
    out["finished before"] = finishes
    before = errors()
    services.kill_redis()
    out["redis killed"] = time.monotonic() - t0
    time.sleep(REDIS_DOWN)
    services.start_redis()
    out["redis back"] = time.monotonic() - t0
    # Celery's Redis transport may crash the worker as its connection drops (its "Unrecoverable
    # error": kombu's connection torn down under it): noted, and the worker then started again
    # as a supervisor would (honcho would stop every process of the Procfile instead).
    worker = services.worker
    assert worker is not None
    until = time.monotonic() + WORKER_AFTER
    while time.monotonic() < until:
        if "worker exited by itself" not in out and worker.poll() is not None:
            out["worker exited by itself"] = time.monotonic() - t0
            out["worker exit code"] = worker.returncode
        time.sleep(0.05)
    services.kill_worker()
    out["worker killed"] = time.monotonic() - t0
    services.start_worker()
    out["new worker started"] = time.monotonic() - t0
    time.sleep(10)
    after = errors()
    out["errors"], out["projector errors"] = after[0] - before[0], after[1] - before[1]


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    url = os.environ.get("DATABASE_URL", "")
    if not url:
        sys.exit("error: set DATABASE_URL (PostgreSQL)")
    if shutil.which("redis-server") is None:
        sys.exit("error: the event mode starts a Redis of its own: redis-server is not on the PATH")
    entrant_count = 2 * args.tables
    logs = Path(tempfile.mkdtemp(prefix="club-night-event-"))
    services = Services(
        redis_port=free_port(),
        queue=f"clubnight-{secrets.token_hex(4)}",
        concurrency=args.worker_concurrency,
        logs=logs,
    )
    services.start_redis()
    scratch, drop = scratch_database(url, "clubnight_event", keep=args.keep_db)
    static = tempfile.mkdtemp(prefix="club-night-static-")
    os.environ.update(
        DATABASE_URL=scratch,
        REDIS_URL=f"redis://127.0.0.1:{services.redis_port}/0",
        DJANGO_SETTINGS_MODULE="benchmarks.club_settings",
        CLUB_NIGHT_QUEUE=services.queue,
        CLUB_NIGHT_STATIC=static,
        DJANGO_DEBUG="0",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_LOG_LEVEL="ERROR",
    )  # the throttles stay as in production: each table is scored by one of its players
    server = beat = None
    recorder = cn.Recorder()
    stop_projectors = threading.Event()
    problems: list[str] = []
    try:
        setup_started = time.monotonic()
        club = cn.prepare(0, 0, entrant_count + 4, args.history, args.seed)
        members = club["member_ids"]
        entrants = members[:entrant_count]
        people = prepare_event_club(entrants)
        services.start_worker()
        beat = start_beat(logs)
        port = free_port()
        server = start_gunicorn(port, args.workers, args.threads)
        night = cn.Night(
            port=port,
            pace=args.pace,
            deadline=time.monotonic() + 7 * 86400,  # the rounds end the evening, not a clock
            recorder=recorder,
            parties=club["parties"],
            options=club["options"],
            member_ids=entrants,
        )
        cn.warm(night, club["credentials"], 0, members[entrant_count:])
        evening = Evening(
            night=night, slug=people["slug"], poll=args.poll, rating_timeout=args.rating_timeout
        )
        director = cn.Client(port, recorder, token=people["director"])
        got = director.call(
            "event · API",
            "POST",
            f"/api/v1/clubs/{evening.slug}/events",
            json_body={"name": "Club night Swiss", "game": GAME, "format": "swiss", "rounds": args.rounds},
            expect=(201,),
        )
        if got is None:
            sys.exit("error: the event could not be made:\n  " + "\n  ".join(recorder.first_errors))
        evening.event = got.json()["id"]
        enter_all(director, evening.event, entrants)
        server_pid, beat_pid = server.pid, beat.pid
        print(
            f"the event {evening.event}: {entrant_count} entrants, {args.rounds} rounds of "
            f"{args.tables} tables "
            f"at ×{args.pace:g}, {args.projectors} projectors every {args.poll:g} s; gunicorn "
            f"{args.workers}×{args.threads} on :{port}, celery worker ({args.worker_concurrency}) and beat, "
            f"Redis of its own on :{services.redis_port}; set up in {time.monotonic() - setup_started:.0f} s"
        )

        def parts() -> dict[str, list[int]]:
            worker = services.worker
            return {
                "gunicorn": cn.descendants(server_pid),
                "celery worker": cn.descendants(worker.pid) if worker and worker.poll() is None else [],
                "beat": [beat_pid],
                "Redis": [services.redis.pid] if services.redis else [],
                "PostgreSQL": cn.database_backends(),
                "load generator": [os.getpid()],
            }

        rng = random.Random(args.seed)
        screens = [
            threading.Thread(target=projector, args=(evening, random.Random(rng.random()), stop_projectors))
            for _ in range(args.projectors)
        ]
        sampler = Sampler(parts)
        sampler.start()
        t0 = time.monotonic()
        for screen in screens:
            screen.daemon = True
            screen.start()
        rounds: list[dict] = []
        faults: dict[str, float] = {}
        fault_thread = None
        tables: list[threading.Thread] = []
        parties = night.parties
        for number in range(1, args.rounds + 1):
            answer, waits = pair_round(director, evening.event, args.pair_timeout)
            if answer is None:
                problems.append(f"round {number} could not be paired within {args.pair_timeout:.0f} s")
                break
            paired_at = time.monotonic()
            dones = []
            for table in answer["tables"]:
                if table["match"] is None:
                    continue
                done = threading.Event()
                partie = parties[(table["table"] + number) % len(parties)]
                thread = threading.Thread(
                    target=event_table,
                    args=(
                        evening,
                        number,
                        table,
                        people["tokens"][table["players"][0]],
                        partie,
                        random.Random(rng.random()),
                        done,
                    ),
                    daemon=True,
                )
                thread.start()
                tables.append(thread)
                dones.append(done)
            if number == args.fault_round:
                finishes = min(len(dones), max(1, round(args.fault_after * len(dones))))
                fault_thread = threading.Thread(
                    target=inject_faults,
                    args=(services, evening, t0, paired_at, finishes, faults),
                    daemon=True,
                )
                fault_thread.start()
            for done in dones:
                done.wait()
            ended = time.monotonic()
            finishes = [at - paired_at for at in recorder.finished_at if at >= paired_at]
            rounds.append(
                {
                    "number": number,
                    "pair_ms": recorder.samples["pair round · API"][-1] * 1000,
                    "waits": waits,
                    "tables": len(answer["tables"]),
                    "first": min(finishes, default=0.0),
                    "last": max(finishes, default=0.0),
                    "duration": ended - paired_at,
                }
            )
            print(f"round {number}: {len(answer['tables'])} tables, {ended - paired_at:.1f} s", flush=True)
        if fault_thread is not None:
            fault_thread.join(timeout=30)  # its 10 s of errors counted; or its round never got there
            if "new worker started" not in faults:
                problems.append(f"the faults of round {args.fault_round} did not happen")
        elapsed = time.monotonic() - t0
        caught_up = drain(args.drain)
        for thread in tables:
            thread.join(timeout=max(1.0, args.rating_timeout - (time.monotonic() - t0 - elapsed)))
        outbox = outbox_figures()
        outbox["beat alive"] = int(beat.poll() is None)
        idle: dict[str, Any] = {"seconds": args.idle}
        if args.projectors and args.idle > 0:
            time.sleep(args.poll + 0.5)  # every screen has seen the last change: 304s from now on
            meter = cn.CpuMeter()
            meter.sample("gunicorn", cn.descendants(server_pid))
            meter.sample("PostgreSQL", cn.database_backends())
            idle_from = time.monotonic()
            time.sleep(args.idle)
            idle_to = time.monotonic()
            meter.sample("gunicorn", cn.descendants(server_pid), born=True)
            meter.sample("PostgreSQL", cn.database_backends(), born=True)
            with recorder.lock:
                idle.update(count_polls(evening.polls, idle_from, idle_to))
            idle["polls"] = idle["200"] + idle["304"] + idle["error"]
            used = meter.used()
            per = 1000 / max(1, idle["polls"])
            idle["gunicorn_ms"] = used.get("gunicorn", 0.0) * per
            idle["postgres_ms"] = used.get("PostgreSQL", 0.0) * per
            idle["per_poll_ms"] = idle["gunicorn_ms"] + idle["postgres_ms"]
        stop_projectors.set()
        for screen in screens:
            screen.join(timeout=cn.REQUEST_TIMEOUT)
        machine = {**sampler.finish(), "elapsed": elapsed, "t0": t0}
        problems += cn.check(recorder, drain=5)
        problems += event_checks(director, evening.event, args.rounds, entrants)
        projector_errors = sum(recorder.errors.get(kind, 0) for kind in PROJECTOR_KINDS)
        if projector_errors:
            problems.append(f"the projectors had {projector_errors} error answers")
        problems += evening.tables_gave_up
        report(evening, rounds, faults, idle, machine, caught_up, outbox)
    finally:
        stop_projectors.set()
        for process in (server, services.worker, beat, services.redis):
            if process is not None:
                stop(process)
        from django.db import connections

        connections.close_all()
        drop()
        shutil.rmtree(static, ignore_errors=True)
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print(f"logs (Redis, workers, beat): {logs}")
    if problems:
        sys.exit(1)


if __name__ == "__main__":
    main()
