"""``django.setup()`` for a benchmark, the rest of its process site-wide.

A benchmark's own writes and reads (storing a pool, making matches, finishing them through the
services) are the system's work, as a management command's are: manage.py runs site-wide
(issue 33's club guard, scorekeeper/clubs/scoping.py). A request a benchmark makes through the
test client or a server runs in its viewer's scope, which the middleware sets as in production.
"""

from __future__ import annotations

import contextlib

_site_wide = contextlib.ExitStack()


def setup() -> None:
    import django

    django.setup()
    from scorekeeper.clubs.scoping import site_wide

    _site_wide.enter_context(site_wide())
