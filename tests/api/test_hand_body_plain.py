"""api/views._hand_body: the plain recording body read without the serializer, same outcome."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from api.serializers import MAX_VERSION, HandCreateSerializer
from api.views import _hand_body, _valid
from scorekeeper.matches import errors


def outcome(read, body):
    try:
        return ("ok", read(body))
    except errors.Invalid as exc:
        return ("400", exc.to_dict() if hasattr(exc, "to_dict") else str(exc))
    except Exception as exc:  # DRF's ValidationError: compare its detail
        return ("400", getattr(exc, "detail", repr(exc)))


def serializer(body):
    return dict(_valid(HandCreateSerializer, body))


# Finite floats only: the parser refuses NaN and infinities (api/parsers.py), so no body has one.
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8,
)
VERSIONS = st.integers(-2, 3) | st.sampled_from([MAX_VERSION, MAX_VERSION + 1, 2.0, "3", True, None])
BODIES = st.fixed_dictionaries(
    {},
    optional={
        "record": JSON,
        "version": VERSIONS,
        "accept_declared": st.booleans() | st.sampled_from(["true", 1, 0, None, "x"]),
        "reason": st.sampled_from(["", " why ", "x" * 2001, "a\x00b", None, 5]),
        "extra": JSON,
    },
)


@settings(max_examples=300, deadline=None)
@given(BODIES | JSON)
def test_every_body_reads_as_the_serializer_reads_it(body):
    assert outcome(_hand_body, body) == outcome(serializer, body)


@pytest.mark.parametrize(
    "body",
    [
        {"record": {"dealer": 0}, "version": 0},
        {"record": {"dealer": 0}},
        {"record": [], "version": MAX_VERSION, "accept_declared": True},
        {"record": {"a": 1}, "version": 3, "accept_declared": False},
    ],
)
def test_a_plain_body_is_read_without_the_serializer(body, monkeypatch):
    expected = serializer(body)
    monkeypatch.setattr("api.views._valid", pytest.fail)

    assert _hand_body(body) == expected
