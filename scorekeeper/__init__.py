"""The scorekeeper Django project.

Nothing is imported here on purpose: ``scorekeeper.rules`` must load without Django or
Celery. The Celery app is loaded by the matches app's ``ready()`` instead.
"""
