"""Compile the translation catalogs (locale/*/LC_MESSAGES/*.po → .mo) with polib.

Django's ``compilemessages`` needs GNU gettext's ``msgfmt``, which a machine with only Python
does not have; the compiled ``.mo`` files are committed beside their ``.po`` files, and
tests/test_i18n_catalogs.py checks that they match. Run this after editing a ``.po`` file.
"""

from __future__ import annotations

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogs() -> list[Path]:
    return sorted(path for root in settings.LOCALE_PATHS for path in Path(root).glob("*/LC_MESSAGES/*.po"))


class Command(BaseCommand):
    help = "Compile every .po catalog of LOCALE_PATHS into its .mo file (no msgfmt needed)."

    def handle(self, *args, **options):
        for po_path in catalogs():
            catalog = polib.pofile(str(po_path))
            catalog.save_as_mofile(str(po_path.with_suffix(".mo")))
            self.stdout.write(f"{po_path.with_suffix('.mo')}: {len(catalog.translated_entries())} messages")
