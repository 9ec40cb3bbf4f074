"""Every API URL resolves to its own view, whatever the order its patterns are tried in."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from api.urls import v1


def named_patterns(patterns):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from named_patterns(entry.url_patterns)
        elif isinstance(entry, URLPattern) and entry.name:
            yield entry


def sample_arguments(pattern: URLPattern) -> dict:
    """Values for a pattern's arguments: ids and numbers 7, formats json."""
    names = re.findall(r"\(\?P<(\w+)>", pattern.pattern.regex.pattern)
    return {name: "json" if name == "format" else 7 for name in names}


@pytest.mark.parametrize("pattern", list(named_patterns(v1)), ids=lambda p: p.name)
def test_each_v1_url_resolves_back_to_its_own_name(pattern):
    path = reverse(f"api:{pattern.name}", kwargs=sample_arguments(pattern))
    assert resolve(path).url_name == pattern.name
    assert path.startswith("/api/v1/")


def test_the_recording_url_is_the_first_the_resolver_tries():
    first = get_resolver().url_patterns[0]
    assert str(first.pattern) == "api/v1/"
    assert first.url_patterns[0].name == "hand-list"


def test_the_schema_and_its_ui_keep_their_urls():
    assert (reverse("schema"), reverse("docs")) == ("/api/schema/", "/api/docs/")
