"""Arbitrary JSON for the properties that the engine never raises (spec 1.7: only structured errors).

Each test module picks its scalars: small integers near seat numbers and counts, or card names,
reach deeper into the readers than large ones; the nesting is the same everywhere.
"""

from __future__ import annotations

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
        lambda inner: st.lists(inner, max_size=max_size)
        | st.dictionaries(st.text(max_size=key_size), inner, max_size=max_size),
        max_leaves=max_leaves,
    )
