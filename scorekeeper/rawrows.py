"""Model instances from the rows of hand-written SQL, without ``Manager.raw()``'s set-up.

``raw()`` works out, on every query, which columns map to which fields and which converters
apply; on the recording path that took as long as PostgreSQL took to answer. A ``RowReader``
works it out once per model and database: the statement selects ``reader.columns`` first
(every concrete field, in order), then any extra columns the reader was told about, and
``reader.read`` turns a fetched row into an instance exactly as the ORM would (the backend's
converters applied: JSON decoded, SQLite's datetimes made aware and its booleans bools),
with the extra values set as attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connections
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
