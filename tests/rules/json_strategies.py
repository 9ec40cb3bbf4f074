"""Arbitrary JSON for the properties that the engine never raises (spec 1.7: only structured errors),
and what those properties check.

Each test module picks its scalars: small integers near seat numbers and counts, or card names,
reach deeper into the readers than large ones; the nesting is the same everywhere.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st


def json_scalars(
    min_int: int = -(10**6), max_int: int = 10**6, *, text_size: int = 6, allow_nan: bool = False
):
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_int, max_int),
        st.floats(allow_nan=allow_nan),
        st.text(max_size=text_size),
    )


def arbitrary_json(scalars=None, *, max_size: int = 4, key_size: int = 8, max_leaves: int = 12):
    """Scalars, lists and objects nested up to ``max_leaves`` leaves."""
    return st.recursive(
        json_scalars() if scalars is None else scalars,
        lambda inner: (
            st.lists(inner, max_size=max_size)
            | st.dictionaries(st.text(max_size=key_size), inner, max_size=max_size)
        ),
        max_leaves=max_leaves,
    )


def with_field_replaced(record: dict, field: str, value, inner: bool) -> dict:
    """A deep copy of ``record`` with ``field`` (or, with ``inner``, its first entry and that
    entry's first entry) replaced by ``value``."""
    record = json.loads(json.dumps(record))
    if inner and isinstance(record[field], list):
        record[field][0] = value
        if isinstance(record[field][0], list) and record[field][0]:
            record[field][0][0] = value
    else:
        record[field] = value
    return record


def assert_well_formed(ev, per_seat_key: str) -> None:
    """A JSON-ready result: no scoring with errors, else one score per entry of the state's
    ``per_seat_key`` list."""
    out = ev.to_dict()
    json.dumps(out)
    if out["errors"]:
        assert out["scores"] is None and out["state_after"] is None and not out["valid"]
    else:
        assert len(out["scores"]) == len(out["state_after"][per_seat_key])
