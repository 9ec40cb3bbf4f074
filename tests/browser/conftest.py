"""Playwright (sync API) driving Debian's Chromium at phone size against pytest-django's
live_server. Every test here is marked ``browser``.

The browser setup is scorekeeper/devtools/browser.py's, shared with ``manage.py screenshots``:
Debian's Chromium, nothing downloaded. Without it the tests skip with the reason, except under
``CI=true``, where a missing browser is a failure: CI must run them.
"""

from __future__ import annotations

import os
import socket

import pytest

from scorekeeper.devtools.browser import chromium_missing, launch, phone_context

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run in a
# thread with a running loop unless told it is fine (the live server is another thread).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

def _free_port(first: int = 8600, last: int = 8699) -> int:
    """A free port in the range this project's live servers use (one machine, many runs)."""
    for port in range(first, last + 1):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    return 0  # any port the system gives


if not os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS"):
    os.environ["DJANGO_LIVE_TEST_SERVER_ADDRESS"] = f"127.0.0.1:{_free_port()}"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    why = chromium_missing()
    if why:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI runs the browser tests, but {why}", pytrace=False)
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = launch(p)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized browser context (no cookies), English unless a test says otherwise."""
    contexts = []

    def open_context(locale: str = "en-GB", **options):
        context = phone_context(browser, locale=locale, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def page(phone):
    return phone().new_page()


@pytest.fixture(autouse=True)
def _tasks_in_process():
    """Ratings are computed by Celery tasks: here in-process, whatever REDIS_URL says, so that
    a finished match's rating is on the pages when the next one loads."""
    from scorekeeper.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was
