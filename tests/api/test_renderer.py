"""api.renderers.JSONRenderer writes what DRF's JSONRenderer writes, whichever encodes it."""

from __future__ import annotations

import datetime
import decimal
import json
import uuid

import pytest
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st
from rest_framework import renderers

from api.renderers import JSONRenderer

CHARACTERS = ["a", "é", "\u2028", "\u2029", '"', "\\", "\n", "\x01", "😀"]
TEXT = st.text(alphabet=st.sampled_from(CHARACTERS), max_size=6)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()  # beyond 64 bits too: those go to DRF's encoder
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=10,
)


def both(data, media_type="application/json"):
    return JSONRenderer().render(data, media_type, {}), renderers.JSONRenderer().render(data, media_type, {})


@given(VALUES.filter(lambda data: data is not None))  # None renders as no body at all
def test_any_json_value_reads_back_the_same(data):
    ours, drfs = both(data)
    assert json.loads(ours) == json.loads(drfs) == data


NO_FLOATS = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=10,
)


@given(NO_FLOATS)
def test_but_for_floats_the_bytes_are_drfs(data):
    """A float may be spelled otherwise (0.00006103515625 for 6.103515625e-05): the same number."""
    ours, drfs = both(data)
    assert ours == drfs


def test_line_and_paragraph_separators_are_escaped_as_drf_does():
    ours, drfs = both({"note": "a\u2028b\u2029c"})
    assert ours == drfs == b'{"note":"a\\u2028b\\u2029c"}'


def test_dates_lazy_strings_and_other_types_go_through_drfs_encoder():
    moment = datetime.datetime(2026, 11, 29, 17, 5, 3, 123456, tzinfo=datetime.UTC)
    data = {
        "at": moment,
        "day": moment.date(),
        "time": datetime.time(9, 30),
        "lazy": gettext_lazy("Invalid token."),
        "amount": decimal.Decimal("1.5"),
        "id": uuid.UUID(int=7),
        "span": datetime.timedelta(seconds=90),
    }
    ours, drfs = both(data)
    assert ours == drfs
    assert json.loads(ours)["at"] == "2026-11-29T17:05:03.123456Z"


@pytest.mark.parametrize("data", [{1: "a", "b": 2}, {"big": 2**70}, [-(2**64)]])
def test_what_orjson_refuses_is_written_by_drf(data):
    ours, drfs = both(data)
    assert ours == drfs


def test_an_object_neither_encodes_is_the_same_type_error():
    with pytest.raises(TypeError):
        JSONRenderer().render({"x": object()}, "application/json", {})


def test_an_indented_answer_is_drfs():
    ours, drfs = both({"a": [1, 2]}, "application/json; indent=2")
    assert ours == drfs == b'{\n  "a": [\n    1,\n    2\n  ]\n}'


def test_nothing_renders_as_no_bytes():
    assert JSONRenderer().render(None) == b""


@pytest.mark.django_db
def test_the_api_answers_through_it(anon):
    response = anon.get("/api/v1/games")
    assert response.status_code == 200
    assert isinstance(response.accepted_renderer, JSONRenderer)
    assert response.content == renderers.JSONRenderer().render(response.data, "application/json", {})
