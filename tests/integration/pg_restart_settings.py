"""The site's settings for the gunicorn of tests/integration/test_pg_restart.py: production mode,
as the Procfile runs it, with two changes: static files without ``collectstatic`` (the pages'
``{% static %}`` would look for the manifest), and the tally test game in every process."""

import warnings

from scorekeeper.settings import *  # noqa: F403
from scorekeeper.settings import STORAGES
from tests.fakes import install

install()

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
warnings.filterwarnings("ignore", message="No directory at")  # whitenoise: no STATIC_ROOT
