"""The project's copy of the conformance cases must equal the binding spec when it is present."""

import pytest

from .conformance import DATA, SHARED


def test_the_project_keeps_a_copy_of_every_conformance_file():
    names = sorted(p.name for p in DATA.glob("*.json"))
    games = [
        "bank",
        "bastard",
        "cul",
        "piquet",
        "piquet-au-cent",
        "piquet-auction",
        "piquet-normand",
        "piquet-voleur",
    ]
    assert names == sorted(f"{game}.json" for game in games)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/spec/conformance is not present here")
def test_the_copy_equals_the_shared_spec():
    shared = sorted(p.name for p in SHARED.glob("*.json"))
    assert sorted(p.name for p in DATA.glob("*.json")) == shared
    for name in shared:
        assert (DATA / name).read_bytes() == (SHARED / name).read_bytes(), name
