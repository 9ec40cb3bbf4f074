"""api.parsers.StrictJSONParser: U+0000 anywhere in a document is refused, however it is written."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.exceptions import ParseError

from api.parsers import StrictJSONParser

TEXT = st.text(alphabet=st.sampled_from(["a", "\\", "u", "0", "\x00", "é"]), max_size=6)
DOCUMENTS = st.recursive(
    st.none() | st.integers() | TEXT,
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
