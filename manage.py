#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    from django.core.management import execute_from_command_line
    from django_scopes import scopes_disabled

    # A command is the system's own work: site-wide (scorekeeper/clubs/scoping.py). The
    # requests runserver serves run in threads of their own, scoped by the middleware.
    with scopes_disabled():
        execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
