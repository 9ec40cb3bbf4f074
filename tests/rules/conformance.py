"""Loading the conformance cases (spec 1.8) kept as test data inside the project."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "conformance"
#: The binding copy, present in the developers' workspace and CI, absent on a user's machine.
SHARED = Path(__file__).resolve().parents[3] / "shared" / "spec" / "conformance"


def load_cases(game_file: str) -> list[dict]:
    return json.loads((DATA / f"{game_file}.json").read_text(encoding="utf-8"))


def case_params(game_file: str):
    import pytest

    return [pytest.param(case, id=case["id"]) for case in load_cases(game_file)]
