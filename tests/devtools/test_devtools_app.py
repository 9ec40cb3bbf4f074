"""The dev-only app (scorekeeper/devtools/): its commands keep their names, the demo runs with
only requirements.txt installed, the screenshots say what to install, and what serves requests
(the URLconf and its views, the WSGI application, the Celery tasks) loads none of the tooling
nor any development requirement. The children run with the development requirements made
unimportable, as on a machine where only requirements.txt is installed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command, get_commands

ROOT = Path(__file__).resolve().parents[2]

#: The import names of requirements-dev.txt's packages that requirements.txt does not pull in
#: (jsonschema it does: drf-spectacular needs it).
DEV_ONLY = ("openskill", "playwright", "pytest", "_pytest", "pytest_django", "hypothesis", "schemathesis")

WITHOUT_DEV_REQUIREMENTS = f"""
import sys

class DevelopmentRequirements:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {DEV_ONLY!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (a development requirement)", name=name)

sys.meta_path.insert(0, DevelopmentRequirements())
"""


def run_child(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    clean.update(DJANGO_SETTINGS_MODULE="scorekeeper.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_DEV_REQUIREMENTS + code],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_the_app_has_no_models_and_the_commands_keep_their_names():
    config = apps.get_app_config("devtools")
    assert config.name == "scorekeeper.devtools" and config.verbose_name == "Developer tools"
    assert list(config.get_models()) == []
    commands = get_commands()
    assert {name: commands[name] for name in ("demo", "screenshots", "compile_catalogs")} == dict.fromkeys(
        ("demo", "screenshots", "compile_catalogs"), "scorekeeper.devtools"
    )
    assert commands["ratings_backtest"] == "ratings"


def test_serving_loads_no_tooling_and_no_development_requirement():
    done = run_child(
        """
from scorekeeper.wsgi import application
from django.urls import get_resolver
from scorekeeper.celery import app

get_resolver().url_patterns  # every URLconf, and the views they name
app.loader.import_default_modules()  # every installed app's tasks, as a worker loads them
tooling = ("ratings.backtest", "scorekeeper.devtools.management", "scorekeeper.devtools.browser")
print(",".join(sorted(m for m in sys.modules if m.startswith(tooling))))
"""
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == ""


def test_the_demo_runs_with_only_the_runtime_requirements(tmp_path):
    done = run_child(
        """
import django
from django.core.management import call_command

django.setup()
call_command("migrate", verbosity=0)
call_command("demo")
""",
        DATABASE_URL=f"sqlite:///{tmp_path / 'demo.sqlite3'}",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "match(es) recorded, 0 already there, 12 players" in done.stdout
    assert "demo: ratings piquet:" in done.stdout


def test_without_playwright_the_screenshots_say_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "playwright", None)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)

    with pytest.raises(CommandError, match=r"pip install -r requirements-dev\.txt"):
        call_command("screenshots", "--out", str(tmp_path))
    assert list(tmp_path.iterdir()) == []
