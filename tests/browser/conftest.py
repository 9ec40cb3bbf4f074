"""Playwright (sync API) driving Debian's Chromium at phone size against pytest-django's
live_server. Every test here is marked ``browser``.

No browser is downloaded: Chromium is the system's (``apt-get install chromium``; the path
can be changed with ``CHROMIUM``). Without it the tests skip with the reason, except under
``CI=true``, where a missing browser is a failure: CI must run them.
"""

from __future__ import annotations

import os
import shutil
import socket

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run in a
# thread with a running loop unless told it is fine (the live server is another thread).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: A phone: the pages are made for one at the card table.
PHONE = {"width": 390, "height": 844}
#: What this machine's closed network and a headless run need (no background connections).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


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


def chromium_missing() -> str:
    """Why the browser cannot run here ("" when it can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (requirements-dev.txt)"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return ""


@pytest.fixture(scope="session")
def browser():
    why = chromium_missing()
    if why:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI runs the browser tests, but {why}", pytrace=False)
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A fresh phone-sized browser context (no cookies), English unless a test says otherwise."""
    contexts = []

    def open_context(locale: str = "en-GB", **options):
        context = browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()


@pytest.fixture
def page(phone):
    return phone().new_page()
