"""A scratch PostgreSQL database beside the one of DATABASE_URL, for the benchmarks."""

from __future__ import annotations

import sys
from collections.abc import Callable
from urllib.parse import urlparse, urlunparse


def scratch_database(
    url: str, suffix: str, *, keep: bool = False, reuse: bool = False
) -> tuple[str, Callable[[], None]]:
    """Create ``<db>_<suffix>`` (afresh; with ``reuse``, the one a run with ``keep`` left) next
    to the database of ``url``; its URL and a dropper (which keeps it, saying so, with ``keep``)."""
    import psycopg

    parsed = urlparse(url)
    if parsed.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit(f"error: DATABASE_URL must be PostgreSQL (postgres://…), not {parsed.scheme or url!r}")
    name = f"{parsed.path.lstrip('/') or 'postgres'}_{suffix}"
    admin = urlunparse(parsed._replace(scheme="postgresql", path="/postgres"))

    def run(sql: str) -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql)

    if not reuse:
        run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        run(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        if keep:
            print(f"kept the database {name}")
        else:
            run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return urlunparse(parsed._replace(path=f"/{name}")), drop


def backend_cpu_seconds(connection) -> float | None:
    """The CPU seconds the PostgreSQL backend of ``connection`` has used so far (user and
    system, from ``/proc``), or None when it cannot be read (not PostgreSQL, or a server on
    another machine). A benchmark's process time leaves the database's work out: this adds
    it, per statement's backend (a parallel query's workers are not counted)."""
    import os

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
