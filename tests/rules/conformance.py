"""Loading the conformance cases (spec 1.8) kept as test data inside the project."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "conformance"
#: The binding copy, present in the developers' workspace and CI, absent on a user's machine.
SHARED = Path(__file__).resolve().parents[3] / "shared" / "spec" / "conformance"
#: One conformance file per game key.
GAMES = (
    "bank",
    "bastard",
    "cul",
    "piquet",
    "piquet-au-cent",
    "piquet-auction",
    "piquet-normand",
    "piquet-voleur",
)


def load_cases(game_file: str) -> list[dict]:
    return json.loads((DATA / f"{game_file}.json").read_text(encoding="utf-8"))


def case_params(*game_files: str):
    """pytest params of every case of the given files (all of them by default), ids ``game:case``."""
    import pytest

    return [
        pytest.param(case, id=f"{game}:{case['id']}")
        for game in game_files or GAMES
        for case in load_cases(game)
    ]


def accepted_records(game_file: str) -> list[tuple[str, dict]]:
    """``(case id, record)`` of every hand of the cases the engine accepts (no expected errors)."""
    return [
        (case["id"], record)
        for case in load_cases(game_file)
        if not case.get("expect", {}).get("errors")
        for record in case.get("hands") or [case["hand"]]
    ]
