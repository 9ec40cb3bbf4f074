"""Imported by the integration test's celery worker (``-I tests.worker_setup``): registers the
test game there too, so the worker re-evaluates the same matches the test recorded."""

from tests.fakes import install

install()
