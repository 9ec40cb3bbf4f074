"""Model instances from the rows of hand-written SQL, without ``Manager.raw()``'s set-up.

``raw()`` works out, on every query, which columns map to which fields and which converters
apply; on the recording path that took as long as PostgreSQL took to answer. A ``RowReader``
works it out once per model and database: the statement selects ``reader.columns`` first
(every concrete field, in order), then any extra columns the reader was told about, and
``reader.read`` turns a fetched row into an instance exactly as the ORM would (the backend's
converters applied: JSON decoded, SQLite's datetimes made aware and its booleans bools),
with the extra values set as attributes. ``fetch_one`` runs such a statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import InterfaceError, OperationalError, connections
from django.db.models import Field, Model


class RowReader:
    def __init__(self, model: type[Model], alias: str, extra: Sequence[tuple[str, Field | None]] = ()):
        """``alias``: the model's table alias in the statement; ``extra``: the names of the
        columns selected after the model's, each with the field whose converters apply to it
        (``None`` for a value the driver already gives as wanted)."""
        self.model = model
        self.fields = list(model._meta.concrete_fields)
        self.names = [f.attname for f in self.fields]
        self.extra = list(extra)
        self.columns = ", ".join(f'{alias}."{f.column}"' for f in self.fields)
        #: How many values of a row are the reader's: the model's columns and the extra ones.
        self.width = len(self.fields) + len(self.extra)
        self._converters: dict[str, list[tuple[int, list, Any]]] = {}

    def read(self, row: Sequence[Any], using: str) -> Model:
        values = list(row)
        connection = connections[using]
        for position, converters, column in self._converters_for(using):
            value = values[position]
            for convert in converters:
                value = convert(value, column, connection)
            values[position] = value
        count = len(self.fields)
        instance = self.model.from_db(using, self.names, values[:count])
        for (name, _), value in zip(self.extra, values[count:], strict=True):
            setattr(instance, name, value)
        return instance

    def _converters_for(self, using: str) -> list[tuple[int, list, Any]]:
        found = self._converters.get(using)
        if found is None:
            connection = connections[using]
            fields = [*self.fields, *(field for _, field in self.extra)]
            found = []
            for position, field in enumerate(fields):
                if field is None:
                    continue
                column = field.get_col(field.model._meta.db_table)
                converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
                if converters:
                    found.append((position, converters, column))
            self._converters[using] = found
        return found


def fetch_one(using: str, sql: str, params: Sequence[Any], *, own_health_check: bool = False) -> tuple | None:
    """The first row a hand-written statement returns (None when it returns none).

    With ``own_health_check`` the statement, a read, is its own connection health check.
    With ``CONN_HEALTH_CHECKS`` Django pings a reused connection (``SELECT 1``) before a
    request's first statement. When that statement is this read, outside a transaction, the
    ping is skipped: a connection that died while idle makes the read fail, and a read is
    safe to run again, once, on a new connection. The hot path (a token request recording a
    hand) saves a round trip; every other statement keeps Django's ping.
    """
    connection = connections[using]
    if (
        own_health_check
        and connection.connection is not None
        and connection.health_check_enabled
        and not connection.health_check_done
        and not connection.in_atomic_block
    ):
        connection.health_check_done = True
        try:
            return _fetch_one(connection, sql, params)
        except (OperationalError, InterfaceError):
            connection.close()  # what the ping would have done; the retry connects anew
    return _fetch_one(connection, sql, params)


def _fetch_one(connection, sql: str, params: Sequence[Any]) -> tuple | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()
