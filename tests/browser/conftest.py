"""Playwright (sync API) driving Debian's Chromium at phone size against pytest-django's
live_server. Every test here is marked ``browser``.

The browser setup is scorekeeper/devtools/browser.py's, shared with ``manage.py screenshots``:
Debian's Chromium, nothing downloaded. Without it the tests skip with the reason, except under
``CI=true``, where a missing browser is a failure: CI must run them.

Every page of every test runs under the site's Content-Security-Policy, and any violation it
reports (a ``securitypolicyviolation`` event, or the console's word of a blocked resource or a
bad policy header) fails the test that opened it: ``policy_reports`` collects them.
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


# Run in every document before its own scripts (Playwright's init scripts are not subject to
# the page's CSP): each violation the browser reports is handed to the test.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.__reportPolicyViolation({
    page: document.location.href, directive: e.effectiveDirective, blocked: e.blockedURI,
    source: e.sourceFile, line: e.lineNumber, sample: e.sample,
  });
}, true);
"""
#: The console's words for a resource the CSP blocked and for a policy header it cannot read.
POLICY_WORDS = ("Content Security Policy", "Content-Security-Policy", "Permissions-Policy")


def _address(message) -> str:
    """The page's address, and the resource's when the message is about another."""
    page = message.page.url if message.page else ""
    where = message.location.get("url", "")
    return page if where in ("", page) else f"{page} ({where})"


@pytest.fixture
def policy_reports():
    """What the pages of this test reported about the security policies: ``violations`` (the
    ``securitypolicyviolation`` events) and ``console`` (every console message, as
    (type, text, page address)). The ``phone`` fixture fails the test on any violation."""
    return {"violations": [], "console": []}


@pytest.fixture
def phone(browser, policy_reports):
    """A fresh phone-sized browser context (no cookies), English unless a test says otherwise."""
    contexts = []

    def open_context(locale: str = "en-GB", **options):
        context = phone_context(browser, locale=locale, **options)
        context.set_default_timeout(10_000)
        violations, console = policy_reports["violations"], policy_reports["console"]
        context.expose_binding("__reportPolicyViolation", lambda _source, report: violations.append(report))
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("console", lambda message: console.append((message.type, message.text, _address(message))))
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()
    violations = policy_reports["violations"]
    refusals = [m for m in policy_reports["console"] if any(word in m[1] for word in POLICY_WORDS)]
    assert not violations and not refusals, f"security policy violations: {violations} {refusals}"


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
