"""PostgreSQL restarted under load, from outside: gunicorn in production mode on a PostgreSQL
cluster of the test's own (``initdb`` on a free port, tests/integration/pg_cluster.py), three
tables recording hands as fast as they can, each with an ``Idempotency-Key`` and retried on a
503 until acknowledged, and a reader on the score sheet's page and the API. The server is then
stopped twice, ``-m fast`` and ``-m immediate`` (a crash: the start replays the WAL), for a few
seconds each. While it is down every answer is a 503 ``database_unavailable`` with
``Retry-After`` (the page: the readable 503 page), none a 500 and none slower than a few
seconds; within 5 s of its return the site answers again by itself. At the end every
acknowledged hand is in the database exactly once, and every hand whole: its audit entry, its
key's stored answer, its match's hand count, version and state.

It needs the PostgreSQL server's programs (``initdb``, ``pg_ctl``; Debian's
/usr/lib/postgresql/<version>/bin) and runs with the other integration tests, on PostgreSQL:
skipped otherwise, failed when REQUIRE_SERVICES=1 (CI).
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection

from api.exceptions import DATABASE_RETRY_AFTER
from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.matches.models import AuditEntry, Hand, Match
from tests.integration.pg_cluster import PostgresCluster, server_bindir
from tests.integration.support import ROOT, free_port, wait_until

pytestmark = pytest.mark.integration

#: Seconds the server stays down each time.
OUTAGE = 3.0
#: No answer may take longer, during the outage or not.
SLOWEST = 3.0
#: The site answers again within this many seconds of the database's return.
RECOVERY = 5.0
#: A client's pause before it sends a refused request again. A real app waits the Retry-After
#: it was given; this one retries sooner so that the recovery is timed to a fraction of a second.
RETRY_PAUSE = 0.2
TABLES = 3


def require_postgresql_suite() -> Path:
    problems = []
    if connection.vendor != "postgresql":
        problems.append(
            f"the database is {connection.vendor}: this test runs with the integration tests, on PostgreSQL"
        )
    bindir = server_bindir()
    if bindir is None:
        problems.append("no PostgreSQL server programs (initdb) on PATH nor under /usr/lib/postgresql/*/bin")
    if not problems and bindir is not None:
        return bindir
    reason = "; ".join(problems)
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture
def cluster():
    server = PostgresCluster(require_postgresql_suite())
    server.start()
    try:
        yield server
    finally:
        server.remove()


@dataclass
class Answer:
    kind: str  # "write", "page" or "read"
    started: float
    ended: float
    status: int  # 0: no answer (the connection failed or timed out)
    headers: dict[str, str]
    body: bytes
    error: str = ""

    def json(self):
        return json.loads(self.body)

    @property
    def took(self) -> float:
        return self.ended - self.started

    @property
    def ok(self) -> bool:
        return self.status in (200, 201)

    def unavailable(self) -> bool:
        """The 503 of a database outage, in the API's shape or as the page."""
        if self.status != 503 or self.headers.get("retry-after") != str(DATABASE_RETRY_AFTER):
            return False
        if self.kind == "page":
            return (
                self.headers.get("content-type", "").startswith("text/html")
                and b"<h1>Database unavailable</h1>" in self.body
            )
        body = self.json()
        return body.get("code") == "database_unavailable" and body.get("retry_after") == DATABASE_RETRY_AFTER

    def __str__(self) -> str:
        return f"{self.kind} {self.status} after {self.took:.2f}s {self.error}{self.body[:300]!r}"


class Site:
    """gunicorn in production mode (two sync workers, as the Procfile) on the cluster's database,
    migrated first, with a user ``scorer``."""

    def __init__(self, database_url: str, log_path: Path):
        self.port = free_port()
        self.log_path = log_path
        self.password = secrets.token_urlsafe(16)
        self.env = {
            **{
                k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "REDIS_URL"))
            },
            "DATABASE_URL": database_url,
            "DJANGO_SETTINGS_MODULE": "tests.integration.pg_restart_settings",
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback
            "DJANGO_LOG_LEVEL": "ERROR",
            # The per-user write throttle (600 a minute) would turn the load into 429s.
            "API_THROTTLE_WRITE": "1000000/second",
            "PYTHONPATH": str(ROOT),
        }
        self.process: subprocess.Popen | None = None
        self.token = ""

    def manage(self, *args: str) -> None:
        run = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert run.returncode == 0, run.stdout + run.stderr

    def start(self) -> None:
        # Migrated and the user made in one process: each start of Django costs seconds.
        setup = (
            "from django.core.management import call_command; call_command('migrate', interactive=False); "
            "from django.contrib.auth.models import User; User.objects.create_user('scorer', password=%r)"
        )
        self.manage("shell", "--no-imports", "-c", setup % self.password)
        log = open(self.log_path, "a")  # noqa: SIM115  the process holds it
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "scorekeeper.wsgi:application",
             "--bind", f"127.0.0.1:{self.port}", "--workers", "2", "--timeout", "30",
             "--log-level", "warning"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        log.close()
        wait_until(
            lambda: self.call("GET", "/api/v1/games").status == 200, timeout=30, interval=0.2, what=self.log
        )
        signed_in = self.call("POST", "/api/v1/auth/token", {"username": "scorer", "password": self.password})
        assert signed_in.status == 200, signed_in
        self.token = signed_in.json()["token"]

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            # Its own session: gunicorn and its workers. The test is over, nothing is left to
            # finish, and a graceful stop costs seconds (each idle worker ends its wait first).
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def call(self, method: str, path: str, body=None, *, kind: str = "read", key: str = "") -> Answer:
        headers = {"Accept-Language": "en"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        if key:
            headers["Idempotency-Key"] = key
        if body is not None:
            headers["Content-Type"] = "application/json"
        started = time.monotonic()
        # A generous socket timeout: an answer slower than SLOWEST fails the test, one that never
        # comes is caught here instead of hanging it.
        link = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        try:
            link.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
            response = link.getresponse()
            content = response.read()
            answer_headers = {name.lower(): value for name, value in response.getheaders()}
            return Answer(kind, started, time.monotonic(), response.status, answer_headers, content)
        except OSError as exc:
            return Answer(kind, started, time.monotonic(), 0, {}, b"", error=repr(exc))
        finally:
            link.close()

    def log(self) -> str:
        return self.log_path.read_text()[-4000:] if self.log_path.exists() else ""


@pytest.fixture
def site(cluster, tmp_path):
    served = Site(cluster.create_database("scorekeeper"), tmp_path / "gunicorn.log")
    try:
        served.start()
        yield served
    finally:
        served.stop()


class Table(threading.Thread):
    """A table recording hand after hand: each with a fresh key, sent again (same key, same body)
    after every 503 or lost answer until it is acknowledged by a 201; anything else ends it."""

    def __init__(self, site: Site, match: int, answers: list[Answer], stop: threading.Event):
        super().__init__(daemon=True)
        self.site, self.match, self.answers, self.stop = site, match, answers, stop
        #: (key, hand number) of every acknowledged hand, in order.
        self.acknowledged: list[tuple[str, int]] = []
        self.failure = ""

    def run(self) -> None:
        version = 0
        deadline = None  # once told to stop: the hand under way still gets its acknowledgement
        while not self.stop.is_set():
            key = str(uuid.uuid4())
            body = {
                "record": {"dealer": version % 2, "points": [1, 0], "declared": [1, 0]},
                "version": version,
            }
            while True:
                answer = self.site.call(
                    "POST", f"/api/v1/matches/{self.match}/hands", body, kind="write", key=key
                )
                self.answers.append(answer)
                if answer.status == 201:
                    written = answer.json()
                    version = written["version"]
                    self.acknowledged.append((key, written["hand"]["number"]))
                    break
                if answer.status not in (0, 503):
                    self.failure = str(answer)
                    return
                if self.stop.is_set():
                    deadline = deadline or time.monotonic() + 20
                    if time.monotonic() > deadline:
                        self.failure = f"never acknowledged: {answer}"
                        return
                time.sleep(RETRY_PAUSE)


class Reader(threading.Thread):
    """Someone reading: the score sheet's page and the match in the API, in turn."""

    def __init__(self, site: Site, match: int, answers: list[Answer], stop: threading.Event):
        super().__init__(daemon=True)
        self.site, self.match, self.answers, self.stop = site, match, answers, stop

    def run(self) -> None:
        while not self.stop.is_set():
            self.answers.append(self.site.call("GET", f"/matches/{self.match}/", kind="page"))
            self.answers.append(self.site.call("GET", f"/api/v1/matches/{self.match}", kind="read"))
            time.sleep(0.1)


def test_postgresql_restarted_under_load(cluster, site):
    players = [site.call("POST", "/api/v1/players", {"name": name}).json()["id"] for name in ("Ada", "Bea")]
    matches = []
    for _ in range(TABLES):
        created = site.call(
            "POST", "/api/v1/matches", {"game": "tally", "players": players, "options": {"target": 10**9}}
        )
        assert created.status == 201, created
        matches.append(created.json()["id"])

    answers: list[Answer] = []  # list.append is atomic: the threads share it
    stop = threading.Event()
    tables = [Table(site, match, answers, stop) for match in matches]
    reader = Reader(site, matches[0], answers, stop)
    for thread in (*tables, reader):
        thread.start()

    outages = []  # (mode, the stop asked, the server down, the start asked, the server back)
    time.sleep(1)  # recording under way
    for mode in ("fast", "immediate"):
        asked = time.monotonic()
        cluster.stop(mode)
        down = time.monotonic()
        time.sleep(OUTAGE)
        restart = time.monotonic()
        cluster.start()  # returns once the server accepts connections (it may do so a little earlier)
        back = time.monotonic()
        outages.append((mode, asked, down, restart, back))
        time.sleep(RECOVERY + 1)  # past the bound, to see every answer there succeed
    stop.set()
    finished = time.monotonic()
    for thread in (*tables, reader):
        thread.join(timeout=40)
    assert not any(thread.is_alive() for thread in (*tables, reader)), "a client thread hangs"
    assert [table.failure for table in tables] == [""] * TABLES, site.log()

    # Every answer: a success or the outage's 503, never a 500, never slow.
    wrong = [a for a in answers if not (a.ok or a.unavailable())]
    assert not wrong, "\n".join(map(str, wrong[:10])) + "\n" + site.log()
    slow = [a for a in answers if a.took > SLOWEST]
    assert not slow, "\n".join(map(str, slow[:10]))

    for (mode, asked, down, restart, back), until in zip(
        outages, [o[1] for o in outages[1:]] + [finished], strict=True
    ):
        during = [a for a in answers if down <= a.started and a.ended <= restart]
        assert during and all(a.status == 503 for a in during), (
            mode,
            [str(a) for a in during if a.status != 503],
        )
        assert {a.kind for a in during} == {"write", "page", "read"}, mode
        assert sum(a.kind == "write" for a in during) >= TABLES * 3, mode
        # Recovery: each kind of request succeeds again within RECOVERY seconds of the return,
        # and every request sent after that succeeds.
        for kind in ("write", "page", "read"):
            first = min(
                (a.ended for a in answers if a.kind == kind and a.ok and a.started >= back), default=None
            )
            assert first is not None and first - back <= RECOVERY, (mode, kind, first and first - back)
        # (until the next stop asked, or the end)
        late = [a for a in answers if back + RECOVERY <= a.started and a.ended <= until]
        assert late and all(a.ok for a in late), (mode, [str(a) for a in late if not a.ok])
        again = min(a.ended for a in answers if a.kind == "write" and a.ok and a.started >= back) - back
        print(
            f"{mode}: down {down - asked:.2f}s after the stop, back after {back - down:.2f}s; "
            f"{len(during)} answers while down, the slowest {max(a.took for a in during):.3f}s; "
            f"recording again {again:.2f}s after the return"
        )

    replayed = sum(a.headers.get("idempotent-replayed") == "true" for a in answers)
    print(f"{sum(a.ok for a in answers)} successes; {replayed} replays of a hand committed before its 503")
    assert_every_acknowledged_hand_stored_once_and_whole(cluster, tables)


def assert_every_acknowledged_hand_stored_once_and_whole(
    cluster: PostgresCluster, tables: list[Table]
) -> None:
    """Read the cluster's rows directly (the site's own reads could hide a half-written hand)."""
    hand, audit, match, key = (m._meta.db_table for m in (Hand, AuditEntry, Match, IdempotencyKey))
    with cluster.connect("scorekeeper") as db:
        for table in tables:
            acknowledged = table.acknowledged
            count = len(acknowledged)
            assert count > 0
            # Acknowledged once each, in order: no hand acknowledged twice, none skipped.
            assert [number for _, number in acknowledged] == list(range(1, count + 1))
            hands = db.execute(
                f"SELECT id, number, version, status FROM {hand} WHERE match_id = %s ORDER BY number",
                [table.match],
            ).fetchall()
            assert [(number, version, status) for _, number, version, status in hands] == [
                (n, 1, "valid") for n in range(1, count + 1)
            ], "every acknowledged hand, once; no other"
            row = db.execute(
                f"SELECT hand_count, version, state FROM {match} WHERE id = %s", [table.match]
            ).fetchone()
            assert row is not None, "the match is stored"
            hand_count, version, state = row
            assert (hand_count, version, state["hands"], state["totals"]) == (count, count, count, [count, 0])
            audited = db.execute(
                f"SELECT hand_id, count(*) FROM {audit} WHERE hand_id = ANY(%s) GROUP BY hand_id",
                [[h[0] for h in hands]],
            ).fetchall()
            assert sorted(audited) == sorted((h[0], 1) for h in hands), "every hand has its one audit entry"
            stored = db.execute(
                f"SELECT key, status_code, response FROM {key} WHERE path = %s",
                [f"/api/v1/matches/{table.match}/hands"],
            ).fetchall()
            assert sorted((k, s, r["hand"]["number"]) for k, s, r in stored) == sorted(
                (k, 201, n) for k, n in acknowledged
            ), "every key holds its hand's answer, and no key another"
