"""Building bad-input records for the table tests: a good record with some fields changed."""

from __future__ import annotations

import copy


def changed(base: dict, changes: dict, *, drop: object = ...) -> dict:
    """A deep copy of ``base`` with ``changes`` applied; a change to ``drop`` removes the field."""
    record = copy.deepcopy(base)
    for key, value in changes.items():
        if value is drop:
            record.pop(key, None)
        else:
            record[key] = value
    return record
