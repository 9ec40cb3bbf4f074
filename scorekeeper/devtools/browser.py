"""The one browser setup of the browser tests (tests/browser/) and ``manage.py screenshots``:
Debian's Chromium driven by Playwright (sync API) at a phone's size. Nothing is downloaded:
the browser is the system's (``apt-get install chromium``; another path in ``CHROMIUM``).
"""

from __future__ import annotations

import os
import shutil
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: A phone: the pages are made for one at the card table.
PHONE = {"width": 390, "height": 844}
#: Headless in a container, and no connections of its own (updates, sync, QUIC): a closed
#: network refuses them, and a test must not depend on them anyway.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_missing() -> str:
    """Why the browser cannot run here ("" when it can)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -r requirements-dev.txt)"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return ""


def launch(playwright: Any):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def phone_context(browser: Any, *, locale: str = "en-GB", **options: Any):
    """A fresh context (no cookies) the size of a phone, pixel for pixel (small screenshots)."""
    return browser.new_context(viewport=PHONE, locale=locale, device_scale_factor=1, **options)
