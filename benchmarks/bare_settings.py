"""The site's settings plus the bare view's URL, for ``benchmarks/load_api.py`` only."""

import warnings

from scorekeeper.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bareview"
# Production mode without collectstatic: no static files are served in the benchmark.
warnings.filterwarnings("ignore", message="No directory at")
