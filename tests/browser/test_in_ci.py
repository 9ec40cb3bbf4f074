"""The browser tests skip on a machine without Chromium, but under CI=true they fail: CI must
not pass by skipping them. Run in a child pytest with the browser's path pointing nowhere."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ONE_TEST = "tests/browser/test_live_check.py::test_a_valid_hand_says_so_and_each_seats_score"


def run_without_browser(ci: str | None) -> subprocess.CompletedProcess:
    # Not the parent's live-server port either: that one is taken.
    drop = ("CI", "DATABASE_URL", "REDIS_URL", "DJANGO_LIVE_TEST_SERVER_ADDRESS")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["CHROMIUM"] = "/nonexistent/chromium"
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-q", ONE_TEST],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_under_ci_a_missing_browser_fails_the_browser_tests():
    done = run_without_browser("true")

    assert done.returncode == 1, done.stdout[-2000:]
    assert "CI runs the browser tests, but no Chromium at /nonexistent/chromium" in done.stdout


def test_elsewhere_they_skip_with_the_reason():
    done = run_without_browser(None)

    assert done.returncode == 0, done.stdout[-2000:]
    assert "1 skipped" in done.stdout and "apt-get install chromium" in done.stdout


AXE_TEST = ["tests/browser/test_accessibility.py", "-k", "main_pages"]


def run_without_axe(ci: str | None) -> subprocess.CompletedProcess:
    drop = ("CI", "DATABASE_URL", "REDIS_URL", "DJANGO_LIVE_TEST_SERVER_ADDRESS")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["AXE_CORE"] = "/nonexistent/axe.min.js"
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rs", "-q", *AXE_TEST],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_under_ci_a_missing_axe_fails_the_accessibility_check():
    done = run_without_axe("true")

    assert done.returncode == 1, done.stdout[-2000:]
    assert "CI runs the accessibility check, but axe-core is missing" in done.stdout


def test_elsewhere_a_missing_axe_skips_it_with_the_reason():
    done = run_without_axe(None)

    assert done.returncode == 0, done.stdout[-2000:]
    assert "1 skipped" in done.stdout and "axe-core is missing (/nonexistent/axe.min.js)" in done.stdout
