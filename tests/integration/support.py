"""Real processes for the integration tests: a celery worker on the test database, and a Redis
server of the test's own that it may stop and start again (the machine's Redis is shared).

Both need PostgreSQL (the worker is another process, so it cannot see SQLite's in-memory test
database); ``require_services`` skips or, with REQUIRE_SERVICES=1 (CI), fails without it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


def test_database_url() -> str:
    """A DATABASE_URL for the test database pytest-django created (test_<name>)."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s["PASSWORD"]:
        auth += ":" + quote(s["PASSWORD"], safe="")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


setattr(test_database_url, "__test__", False)  # noqa: B010  pytest reads it: a helper, not a test


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """``redis-server`` on a free port, keeping nothing on disk; ``stop()`` and ``start()`` at will."""

    def __init__(self, workdir: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = workdir
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed: the integration tests need it")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not come up on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


class WorkerProcess:
    """A ``celery worker`` (solo pool) on its own queue, so no other worker takes its tasks."""

    def __init__(
        self, log_path: Path, *, broker_url: str | None = None, beat: bool = False, env=None, queue: str = ""
    ):
        #: Its own queue by default; "celery" (Celery's default) on a private Redis, to take what
        #: the code under test enqueues without naming a queue (the outbox).
        self.queue = queue or f"it-{uuid.uuid4().hex[:12]}"
        self.log_path = log_path
        self.env = {
            **os.environ,
            "DATABASE_URL": test_database_url(),
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            "PYTHONPATH": str(ROOT),
            **({"REDIS_URL": broker_url} if broker_url else {}),
            **(env or {}),
        }
        self.beat = beat
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        log = open(self.log_path, "a")  # noqa: SIM115  the process holds it
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "scorekeeper", "worker",
                "--include", "tests.integration.worker_setup",  # registers the tally test game in the worker
                "--pool", "solo", "--queues", self.queue, "--hostname", f"{self.queue}@%h",
                "--without-gossip", "--without-mingle", "--loglevel", "INFO",
                *(["--beat", "--schedule", str(self.log_path.with_suffix(".beat"))] if self.beat else []),
            ],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()

    def kill(self) -> None:
        """SIGKILL: the worker dies mid-task, as in an out-of-memory kill."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def freeze(self) -> None:
        """SIGSTOP: the worker hangs where it is (its threads too: no heartbeat), holding its
        connections and locks, as a process stuck in the kernel or paused by a debugger."""
        assert self.process is not None, "the worker is not running"
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None, "the worker is not running"
        self.process.send_signal(signal.SIGCONT)

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Wait until the worker consumes (its "ready." line); the time it took, in seconds."""
        started = time.monotonic()
        wait_until(
            lambda: self.log_path.exists() and " ready." in self.log_path.read_text(),
            timeout=timeout, interval=0.1, what=lambda: f"the worker to be ready\n{self.log()}",
        )  # fmt: skip
        return time.monotonic() - started

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text()[-3000:] if self.log_path.exists() else ""


class BeatProcess(WorkerProcess):
    """``celery beat`` alone, as the Procfile runs it: it sends the periodic tasks (the outbox's
    sweep) to Celery's default queue, and lives on when a worker dies."""

    def start(self) -> None:
        log = open(self.log_path, "a")  # noqa: SIM115  the process holds it
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "scorekeeper", "beat", "--loglevel", "INFO",
                "--schedule", str(self.log_path.with_suffix(".schedule")),
            ],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()


@contextlib.contextmanager
def celery_app_on(broker_url: str, *, queue: str | None = None):
    """Point this process's Celery app at ``broker_url`` (say a ``RedisServer``'s) as broker and
    result store, tasks really sent (not eager), those sent without a queue routed to ``queue``
    (a ``WorkerProcess``'s); everything restored afterwards. The app caches its producer pool,
    its result backend and its routing: all are dropped on the way in and out."""
    from scorekeeper.celery import app

    keys = ("broker_url", "result_backend", "task_always_eager", "task_default_queue")
    saved = {key: app.conf[key] for key in keys}

    def reset() -> None:
        # Celery's private state, which its stubs leave out.
        app._pool = None  # type: ignore[attr-defined]  # the producer connection pool, made for the old broker
        app.__dict__.pop("amqp", None)  # its cached queues, router and producer pool
        app._backend_cache = None  # type: ignore[attr-defined]
        if hasattr(app._local, "backend"):  # type: ignore[attr-defined]
            del app._local.backend  # type: ignore[attr-defined]

    app.conf.update(broker_url=broker_url, result_backend=broker_url, task_always_eager=False)
    if queue is not None:
        app.conf.task_default_queue = queue
    reset()
    try:
        yield app
    finally:
        app.conf.update(saved)
        reset()


@pytest.fixture
def private_redis(tmp_path):
    """A ``RedisServer`` of the test's own, started (PostgreSQL required: see ``require_services``)."""
    from tests.conftest import require_services

    require_services(redis=False, why="a separate celery worker process")
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def wait_until(condition, *, timeout: float = 60.0, interval: float = 0.05, what="the condition"):
    """Poll ``condition()`` until it is true (returned) or ``timeout`` seconds passed (AssertionError
    saying ``what``, or what ``what()`` returns then: a worker's log, say)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(
                f"timed out after {timeout:.0f} s waiting for {what() if callable(what) else what}"
            )
        time.sleep(interval)
