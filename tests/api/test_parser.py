"""api.parsers.StrictJSONParser: U+0000 anywhere in a document is refused, however it is written;
so are unpaired surrogates, nesting past 64 levels and integers past 64 bits, each at its path."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError

from api.parsers import BodyInvalid, StrictJSONParser

TEXT = st.text(alphabet=st.sampled_from(["a", "\\", "u", "0", "\x00", "é"]), max_size=6)
DOCUMENTS = st.recursive(
    st.none() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)


def parse(text: str):
    return StrictJSONParser().parse(io.BytesIO(text.encode()), parser_context={})


def has_nul(document) -> bool:
    if isinstance(document, str):
        return "\x00" in document
    if isinstance(document, dict):
        return any(has_nul(key) or has_nul(value) for key, value in document.items())
    return isinstance(document, list) and any(map(has_nul, document))


@given(DOCUMENTS, st.booleans())
def test_a_document_parses_back_unless_it_holds_a_nul(document, ascii_only):
    text = json.dumps(document, ensure_ascii=ascii_only)
    if has_nul(document):
        with pytest.raises(ParseError, match="U\\+0000"):
            parse(text)
    else:
        assert parse(text) == document


def test_an_escaped_backslash_before_u0000_is_no_nul():
    assert parse(r'{"note": "\\u0000"}') == {"note": "\\u0000"}
    with pytest.raises(ParseError):
        parse(r'{"\u0000": 1}')


@pytest.mark.parametrize(
    ("text", "code", "field"),
    [
        (r'{"preset": "\ud800"}', "string_invalid", "preset"),
        (r'{"options": {"\udfff": 1}}', "string_invalid", "options.\\udfff"),
        (r'{"record": {"notes": ["ok", "x\uDBFFy"]}}', "string_invalid", "record.notes[1]"),
        ('{"record": {"n": 9223372036854775808}}', "number_out_of_range", "record.n"),
        ('{"n": -9223372036854775809}', "number_out_of_range", "n"),
        ('{"a": ' + "[" * 65 + "]" * 65 + "}", "too_deep", "a" + "[0]" * 63),
        ("[" * 900 + "]" * 900, "too_deep", "[0]" * 64),
    ],
)
def test_a_body_beyond_the_limits_is_refused_with_its_path(text, code, field):
    with pytest.raises(BodyInvalid) as refused:
        parse(text)

    assert refused.value.detail.code == code and refused.value.field == field
    assert refused.value.errors[0]["field"] == field


@pytest.mark.parametrize(
    "text",
    [
        '{"n": 9223372036854775807, "m": -9223372036854775808}',
        r'{"emoji": "\ud83c\udca1", "é": "\u00e9"}',  # a surrogate pair is a character
        r'{"note": "\\ud800"}',  # an escaped backslash, then text
        '{"a": ' + "[" * 63 + "]" * 63 + "}",
        "[" + "[], " * 200 + "[]]",  # many brackets, not deep
    ],
)
def test_a_body_within_the_limits_parses(text):
    assert parse(text) == json.loads(text)
