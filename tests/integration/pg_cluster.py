"""A PostgreSQL cluster of the test's own, made with ``initdb`` on a free port, that the test may
stop and start again (the machine's server at 127.0.0.1:5432 is shared: never that one).

PostgreSQL refuses to run as root, and CI runs as root: then every server command runs as the
``postgres`` OS user (``runuser``), in a data folder that user owns, under a fresh folder in
the system's temporary directory (pytest's own is private to root).
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from tests.integration.support import free_port

#: The OS user that runs the server when the tests run as root.
SERVER_USER = "postgres"


def server_bindir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on PATH, else Debian's newest
    /usr/lib/postgresql/<version>/bin; None without a PostgreSQL server installed."""
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if not found:
        return None
    newest = max(found, key=lambda path: [int(n) for n in re.findall(r"\d+", path)])
    return Path(newest).parent


class PostgresCluster:
    """``initdb`` on ``start()``'s first call, then ``pg_ctl`` start / stop at will; ``remove()``
    stops it and deletes its folder. Trust authentication on 127.0.0.1 only, as ``postgres``."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        self.home = Path(tempfile.mkdtemp(prefix="sk-pg-"))
        self.data = self.home / "data"
        self.log_path = self.home / "server.log"
        self.initialized = False

    def url(self, database: str) -> str:
        return f"postgres://{SERVER_USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str, timeout: float = 60) -> subprocess.CompletedProcess:
        argv = [str(self.bindir / command[0]), *command[1:]]
        if self.as_root:
            argv = ["runuser", "-u", SERVER_USER, "--", *argv]
        run = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=self.home)
        if run.returncode != 0:
            raise RuntimeError(
                f"{' '.join(command)} failed ({run.returncode}):\n{run.stdout}{run.stderr}{self.log()}"
            )
        return run

    def _initdb(self) -> None:
        if self.as_root:
            shutil.chown(self.home, SERVER_USER, SERVER_USER)
        # --no-sync: only initdb's own files; the server itself syncs every commit as usual.
        self._run(
            "initdb", "-D", str(self.data), "-U", SERVER_USER, "--auth=trust", "-E", "UTF8", "--no-sync"
        )
        settings = {
            "port": self.port,
            "listen_addresses": "'127.0.0.1'",
            "unix_socket_directories": "''",  # TCP only: no socket in a shared folder
            "shared_buffers": "'32MB'",
            "max_connections": 50,
        }
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.writelines(f"{name} = {value}\n" for name, value in settings.items())
        self.initialized = True

    def start(self) -> None:
        """Start the server and return once it accepts connections."""
        if not self.initialized:
            self._initdb()
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.log_path), "-w", "-t", "60", "start", timeout=90
        )

    def stop(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m fast`` (clients disconnected, a checkpoint) or ``immediate`` (every
        process quits at once, as in a crash: the next start replays the WAL)."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "-t", "60", "stop", "-m", mode, timeout=90)

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.url("postgres"), autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def connect(self, database: str) -> psycopg.Connection:
        return psycopg.connect(self.url(database), autocommit=True, connect_timeout=5)

    def log(self) -> str:
        try:
            return self.log_path.read_text()[-3000:]
        except OSError:
            return ""

    def remove(self) -> None:
        try:
            if self.running():
                self.stop("immediate")
        finally:
            shutil.rmtree(self.home, ignore_errors=True)
