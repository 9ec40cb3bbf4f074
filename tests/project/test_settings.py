"""Settings come from the environment; production mode refuses to start without a secret key."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from scorekeeper.settings import env_bool, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "REDIS_URL", "DATABASE_URL"))
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_missing_secret_key_in_production_mode_stops_the_start_with_a_clear_message():
    run = manage("check", DJANGO_DEBUG="0")

    assert run.returncode != 0
    assert "ImproperlyConfigured: DJANGO_SECRET_KEY is not set" in run.stderr
    assert "required when DJANGO_DEBUG is off" in run.stderr


def test_production_mode_starts_with_a_secret_key():
    run = manage("check", DJANGO_DEBUG="0", DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="scores.example")
    assert run.returncode == 0, run.stderr


def test_without_redis_tasks_run_in_process_and_with_it_redis_is_the_broker():
    show = "from django.conf import settings as s; print(s.CELERY_TASK_ALWAYS_EAGER, s.CELERY_BROKER_URL)"
    assert manage("shell", "--no-imports", "-c", show).stdout.split() == ["True", "memory://"]
    with_redis = manage(
        "shell", "--no-imports", "-c", show, REDIS_URL="redis://127.0.0.1:6379/3"
    ).stdout.split()
    assert with_redis == ["False", "redis://127.0.0.1:6379/3"]


def test_the_default_database_is_a_sqlite_file_in_the_project_folder():
    show = "from django.conf import settings as s; print(s.DATABASES['default']['NAME'])"
    assert manage("shell", "--no-imports", "-c", show).stdout.strip() == str(ROOT / "db.sqlite3")


@pytest.mark.parametrize(
    ("raw", "value"), [("1", True), ("true", True), ("ON", True), ("0", False), ("no", False)]
)
def test_booleans_read_the_usual_spellings(monkeypatch, raw, value):
    monkeypatch.setenv("SK_FLAG", raw)
    assert env_bool("SK_FLAG", not value) is value


def test_a_misspelt_boolean_or_integer_is_refused_at_start(monkeypatch):
    monkeypatch.setenv("SK_FLAG", "maybe")
    monkeypatch.setenv("SK_NUM", "ten")
    with pytest.raises(ImproperlyConfigured, match="SK_FLAG"):
        env_bool("SK_FLAG", True)
    with pytest.raises(ImproperlyConfigured, match="SK_NUM"):
        env_int("SK_NUM", 1)


def test_lists_are_comma_separated(monkeypatch):
    monkeypatch.setenv("SK_HOSTS", " a.example, b.example ,")
    assert env_list("SK_HOSTS", "") == ["a.example", "b.example"]


def test_postgresql_connections_bind_server_side_and_prepare_statements_unless_turned_off():
    show = (
        "from django.conf import settings as s; "
        "print(sorted(s.DATABASES['default'].get('OPTIONS', {}).items()))"
    )
    postgres = "postgres://scores@127.0.0.1:5432/scores"
    assert manage("shell", "--no-imports", "-c", show, DATABASE_URL=postgres).stdout.strip() == (
        "[('connect_timeout', 3), ('prepare_threshold', 2), ('server_side_binding', True)]"
    )
    assert (
        manage(
            "shell", "--no-imports", "-c", show, DATABASE_URL=postgres, DATABASE_PREPARE_THRESHOLD="5"
        ).stdout.strip()
        == "[('connect_timeout', 3), ('prepare_threshold', 5), ('server_side_binding', True)]"
    )
    off = manage("shell", "--no-imports", "-c", show, DATABASE_URL=postgres, DATABASE_PREPARED_STATEMENTS="0")
    assert off.stdout.strip() == "[('connect_timeout', 3)]"
    assert manage("shell", "--no-imports", "-c", show).stdout.strip() == "[]"  # SQLite


def test_postgresql_connections_give_up_within_seconds_and_statements_may_be_bounded():
    """A database that is down or unreachable must answer 503 within seconds, not hold the
    request for psycopg's default of 130 s (api/exceptions.py)."""
    show = (
        "from django.conf import settings as s; d = s.DATABASES['default']; "
        "print(d['OPTIONS']['connect_timeout'], repr(d['OPTIONS'].get('options')), d['CONN_HEALTH_CHECKS'])"
    )
    postgres = "postgres://scores@127.0.0.1:5432/scores"

    def shown(url=postgres, **env):
        run = manage("shell", "--no-imports", "-c", show, DATABASE_URL=url, **env)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    assert shown() == "3 None True"  # a broken kept connection is replaced on the next request
    assert shown(DATABASE_CONNECT_TIMEOUT="5", DATABASE_STATEMENT_TIMEOUT="20") == (
        "5 '-c statement_timeout=20s' True"
    )
    url = postgres + "?connect_timeout=10&options=-c%20search_path%3Dscores"  # the URL's own win
    assert shown(url, DATABASE_STATEMENT_TIMEOUT="20") == (
        "10 '-c search_path=scores -c statement_timeout=20s' True"
    )


def readme_production_environment() -> dict[str, str]:
    """The variables the README's "Production mode" exports, with a real secret key for its
    placeholder, and DJANGO_DEBUG=0 as its commands run."""
    import re
    import secrets
    import shlex

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Production mode") :]
    found = re.search(r"```sh\n(export .*?)\n\.venv", section, re.S)
    assert found, "the section's sh block of exports"
    block = found.group(1)
    words = shlex.split(block.replace("\\\n", " "))
    env = dict(word.split("=", 1) for word in words[1:])
    assert env["DJANGO_SECRET_KEY"].startswith("<"), "the README shows a placeholder, not a key"
    return {**env, "DJANGO_SECRET_KEY": secrets.token_urlsafe(50), "DJANGO_DEBUG": "0"}


def test_check_deploy_is_clean_with_the_readme_production_environment():
    env = readme_production_environment()
    assert {"DJANGO_ALLOWED_HOSTS", "DJANGO_SECURE_PROXY_SSL_HEADER", "REDIS_URL"} <= set(env)

    run = manage("check", "--deploy", "--fail-level", "WARNING", **env)

    assert run.returncode == 0, run.stdout + run.stderr
    assert "System check identified no issues" in run.stdout


def test_production_mode_is_https_only_behind_the_proxy():
    show = (
        "from django.conf import settings as s; print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE,"
        " s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER)"
    )
    production = manage("shell", "--no-imports", "-c", show, **readme_production_environment()).stdout
    proxy = "('HTTP_X_FORWARDED_PROTO', 'https')"
    assert production.strip().split(maxsplit=4) == ["True", "True", "True", "31536000", proxy]
    debug = manage("shell", "--no-imports", "-c", show).stdout.split()
    assert debug == ["False", "False", "False", "0", "None"]
