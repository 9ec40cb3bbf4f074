"""The rules engine must import without Django, DRF or Celery (house style)."""

import subprocess
import sys


def test_the_rules_engine_loads_no_django_drf_or_celery():
    code = (
        "import sys, scorekeeper.rules;"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'});"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
