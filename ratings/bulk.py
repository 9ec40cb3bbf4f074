"""How a replay moves its rows in bulk, apart from what it computes (ratings/replay.py).

A full recompute rates a pool of up to hundreds of thousands of matches on one core; what
made it fast is keeping the database busy on the other core at the same time and keeping the
Python side from doing work the rating does not need. Three pieces, each of which paid for
itself in the end-to-end recompute benchmark (benchmarks/bench_ratings_db.py):

- ``read_aside``: the pool's matches read by a thread on a connection of its own, up to a
  bounded queue ahead of the rating, so that PostgreSQL runs the query while the rating runs;
- ``collector_paused``: Python's cyclic garbage collector off while a replay runs (its
  collections over the matches read ahead cost a fifth of the time, for no cycle to free);
- ``HistoryWriter``: the history rows written through one binary ``COPY`` kept open for the
  whole replay (the rows packed by numpy in PostgreSQL's binary format and handed to
  psycopg's queued writer, so that the server stores them while the rating goes on); bulk
  INSERTs on other databases.
- ``Beside``: writes that need not come before the rating (a recompute's pending events marked
  processed) run on a connection of their own at the same time, and commit right after the
  caller's transaction does.

``history_table`` beside it gives the COPY of a full recompute its target (a fresh partition,
indexed and swapped in afterwards).
"""

from __future__ import annotations

import contextlib
import gc
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import TypeVar

import numpy as np
from django.db import connection, transaction
from psycopg import Copy
from psycopg.copy import QueuedLibpqWriter

from .engine import Replayed
from .models import RatingHistory
from .pool_reading import PoolMatch

T = TypeVar("T")


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the replay: its millions of short-lived
    lists and tuples (no cycles among them) set off full collections over the matches read
    ahead, a fifth of a full recompute's time. Reference counting still frees everything."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextlib.contextmanager
def read_aside(
    source: Callable[[], Iterable[T]], *, name: str, chunk: int, ahead: int
) -> Iterator[Iterator[T]]:
    """``source()`` (a pool's matches) iterated by a thread named ``name`` on its own connection,
    started at once and reading up to ``ahead`` items ahead of the consumer, handed over
    ``chunk`` at a time."""
    batches: queue.Queue = queue.Queue(maxsize=ahead // chunk)
    stop = threading.Event()

    def put(item) -> None:
        while not stop.is_set():
            try:
                batches.put(item, timeout=0.2)
                return
            except queue.Full:
                continue

    def read() -> None:
        try:
            # In a transaction, the server-side cursor streams the rows as the query makes
            # them (in autocommit, a cursor WITH HOLD would make every row before the first).
            with transaction.atomic():
                with connection.cursor() as cursor:
                    # One core for the query: the other is the rating's. (Its parallel plan
                    # and JIT compilation took CPU from the rating for no gain in all.)
                    cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
                    cursor.execute("SET LOCAL jit = off")
                    # The pool's order sorted in memory: 1,000,000 matches take about 150 MB,
                    # which the default 4 MB would spill to disk in an external merge.
                    cursor.execute("SET LOCAL work_mem = '256MB'")
                batch = []
                for m in source():
                    batch.append(m)
                    if len(batch) == chunk:
                        put(batch)
                        batch = []
                put(batch)
            put(None)
        except BaseException as error:  # handed to the consumer
            put(error)
        finally:
            connection.close()  # this thread's own

    def consume() -> Iterator[T]:
        while (batch := batches.get()) is not None:
            if isinstance(batch, BaseException):
                raise batch
            yield from batch

    reader = threading.Thread(target=read, name=name, daemon=True)
    reader.start()
    try:
        yield consume()
    finally:
        stop.set()
        reader.join(timeout=10)


class Beside:
    """``work`` (writes) run at once by a thread named ``name`` in a transaction on a connection
    of its own, beside the caller's transaction: made in the caller's transaction, whose commit
    commits it (``transaction.on_commit``); rolled back if the caller's rolls back.

    The caller calls ``written()`` before its commit, which waits until ``work`` is done (not
    committed), and ``finish()`` after its transaction, whatever its end, which waits for the
    commit or the rollback. Between the two commits the rows ``work`` wrote stay locked: a
    reader that locks them (``SELECT … FOR UPDATE``) waits and then sees them written. If
    ``work`` fails, the caller's transaction goes on and ``error`` holds why."""

    def __init__(self, work: Callable[[], object], *, name: str):
        self.error: BaseException | None = None
        self._done = threading.Event()
        self._decided = threading.Event()
        self._commit = False
        transaction.on_commit(self._committed)
        self._thread = threading.Thread(target=self._run, args=(work,), name=name, daemon=True)
        self._thread.start()

    def _committed(self) -> None:
        self._commit = True
        self._decided.set()

    def _run(self, work: Callable[[], object]) -> None:
        try:
            with transaction.atomic():
                try:
                    work()
                finally:
                    self._done.set()
                self._decided.wait()
                if not self._commit:
                    transaction.set_rollback(True)
        except BaseException as error:  # the caller's to report
            self.error = error
        finally:
            self._done.set()
            connection.close()  # this thread's own

    def written(self) -> None:
        """Wait until ``work`` is done (its rows written and locked, not committed)."""
        self._done.wait()

    def finish(self) -> None:
        """After the caller's transaction: wait for this one's commit (or its rollback, if the
        caller's did not commit)."""
        self._decided.set()
        self._thread.join()


#: The history's columns in PostgreSQL's binary COPY format (the field count, then each field's
#: length and value): int8 ids, timestamptz as µs since 2000, int2 side and place, float8s.
_COPY_FIELDS = {
    "pool_id": ">i8", "player_id": ">i8", "match_id": ">i8", "played_at": ">i8", "side": ">i2",
    "place": ">i2", "mu_before": ">f8", "sigma_before": ">f8", "mu_after": ">f8", "sigma_after": ">f8",
    "win_probability": ">f8",
}  # fmt: skip
_COPY_ROW = np.dtype(
    [("fields", ">i2")]
    + [field for name, kind in _COPY_FIELDS.items() for field in ((f"{name}_length", ">i4"), (name, kind))]
)
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + bytes(8)  # the signature, no flags, no extension
_COPY_TRAILER = b"\xff\xff"  # a field count of −1
_PG_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


class HistoryWriter:
    """Writes a replay's history rows a chunk of rated matches at a time: on PostgreSQL through
    one binary COPY kept open for the whole replay, fed through psycopg's queued writer so that the
    server stores rows on the other core while the rating goes on; bulk INSERTs elsewhere.
    Nothing else may use the connection until it is closed."""

    def __init__(self, pool_id: int, table: str | None = None):
        self.pool_id = pool_id
        #: PostgreSQL: the table the COPY goes to (the partitioned history, or a fresh partition).
        self.table = table or RatingHistory._meta.db_table
        self.postgresql = connection.vendor == "postgresql"
        self._stack = contextlib.ExitStack()
        self._copy: Copy | None = None

    def __enter__(self) -> HistoryWriter:
        return self

    def __exit__(self, kind, error, traceback) -> None:
        try:
            if kind is None and self._copy is not None:
                self._copy.write(_COPY_TRAILER)
        finally:
            self._stack.__exit__(kind, error, traceback)

    def add(self, done: Replayed[PoolMatch]) -> None:
        """The rows of a chunk of rated matches."""
        if not self.postgresql:
            m = done.matches
            columns = zip(
                done.players, done.match_index.tolist(), done.side.tolist(), done.place.tolist(),
                done.mu_before.tolist(), done.sigma_before.tolist(), done.mu_after.tolist(),
                done.sigma_after.tolist(), done.win_probability.tolist(), strict=True,
            )  # fmt: skip
            RatingHistory.objects.bulk_create(
                (
                    RatingHistory(
                        pool_id=self.pool_id, player_id=player, match_id=m[i].match_id,
                        played_at=m[i].played_at, side=side, place=place, mu_before=mu_b,
                        sigma_before=sigma_b, mu_after=mu_a, sigma_after=sigma_a, win_probability=odds,
                    )
                    for player, i, side, place, mu_b, sigma_b, mu_a, sigma_a, odds in columns
                ),
                batch_size=500,
            )  # fmt: skip
            return
        rows = np.empty(len(done.players), _COPY_ROW)
        for name, kind in _COPY_FIELDS.items():
            rows[f"{name}_length"] = np.dtype(kind).itemsize
        rows["fields"] = len(_COPY_FIELDS)
        rows["pool_id"] = self.pool_id
        rows["player_id"] = done.players
        index = done.match_index
        matches, count = done.matches, len(done.matches)
        rows["match_id"] = np.fromiter((m.match_id for m in matches), np.int64, count)[index]
        micros = np.fromiter((_pg_micros(m.played_at) for m in matches), np.int64, count)
        rows["played_at"] = micros[index]
        for name in _COPY_FIELDS.keys() - {"pool_id", "player_id", "match_id", "played_at"}:
            rows[name] = getattr(done, name)
        if self._copy is None:
            names = ", ".join(f'"{c}"' for c in _COPY_FIELDS)
            sql = f'COPY "{self.table}" ({names}) FROM STDIN (FORMAT BINARY)'
            raw = self._stack.enter_context(connection.cursor()).cursor
            self._copy = self._stack.enter_context(raw.copy(sql, writer=QueuedLibpqWriter(raw)))
            self._copy.write(_COPY_HEADER)
        self._copy.write(rows.tobytes())


def _pg_micros(moment: datetime) -> int:
    """``moment`` as PostgreSQL stores a timestamptz: µs since 2000."""
    delta = moment - _PG_EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
