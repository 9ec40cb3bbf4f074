"""WSGI entry point (gunicorn scorekeeper.wsgi)."""

import gc
import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

application = get_wsgi_application()
# What a worker loads once (the apps and models, and the URLconf with every view, imported here
# rather than by the first request) kept out of the garbage collector's full collections: they
# walked these ~125,000 long-lived objects, 100–150 ms on two cores, every few dozen requests:
# the player page's p95 (issue 32). Reference counting still frees what is frozen; only a
# cycle among those objects would stay.
import_module(settings.ROOT_URLCONF)
gc.freeze()
