"""The rating engine, like the rules engine, imports without Django, DRF or Celery."""

import subprocess
import sys

MODULES = (
    "ratings.engine",
    "ratings.cul",
    "ratings.backtest",
    "ratings.backtest.refit",
)


def test_the_rating_engine_loads_no_django_drf_or_celery():
    code = (
        f"import sys, importlib; [importlib.import_module(m) for m in {MODULES!r}];"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'});"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
