"""``manage.py screenshots`` makes phone-width PNGs from a scratch demo, touching no database
of the caller's (here: a run on SQLite in memory, in a child process)."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_command_writes_phone_wide_pngs(tmp_path, browser):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    done = subprocess.run(
        [sys.executable, "manage.py", "screenshots", "--out", str(tmp_path),
         "--only", "leaderboard", "--only", "season", "--only", "hand-form-live"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    shots = sorted(p.name for p in tmp_path.iterdir())
    assert shots == ["hand-form-live.png", "leaderboard.png", "season.png"]
    for name in shots:
        width, height = png_size(tmp_path / name)
        assert width == 390 and height >= 400
        assert (tmp_path / name).stat().st_size < 400_000
