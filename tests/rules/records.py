"""Building bad-input records for the table tests: a good record with some fields changed."""

from __future__ import annotations

import copy

#: Hoffmann's full two-hand piquet deal (conformance P11): 43 / 23.
P11 = {
    "dealer": 1,
    "carte_blanche": None,
    "point": {"scorer": 0, "cards": 6, "pips": 55},
    "sequences": {"scorer": 0, "runs": [{"length": 5, "top": "J"}, {"length": 3, "top": "J"}]},
    "sets": {"scorer": 1, "sets": [{"rank": "Q", "count": 4}, {"rank": "K", "count": 3}]},
    "tricks": [0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0],
    "declared": [43, 23],
}


def changed(base: dict, changes: dict, *, drop: object = ...) -> dict:
    """A deep copy of ``base`` with ``changes`` applied; a change to ``drop`` removes the field."""
    record = copy.deepcopy(base)
    for key, value in changes.items():
        if value is drop:
            record.pop(key, None)
        else:
            record[key] = value
    return record
