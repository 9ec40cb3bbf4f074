"""The translation catalogs: one per language besides English, complete (no empty or fuzzy
entry), and their committed .mo files compiled from the .po files as they are."""

from __future__ import annotations

from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

TRANSLATED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def po_files(language: str) -> list[Path]:
    """The language's catalogs in every folder of LOCALE_PATHS (the site's, the engine's …)."""
    pattern = f"{language}/LC_MESSAGES/*.po"
    return sorted(path for root in settings.LOCALE_PATHS for path in Path(root).glob(pattern))


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_language_has_its_catalog_in_every_locale_folder(language):
    folders = [path.parent.parent.parent for path in po_files(language)]
    assert folders == sorted(map(Path, settings.LOCALE_PATHS))
    assert {path.name for path in po_files(language)} == {"django.po"}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    for path in po_files(language):
        catalog = polib.pofile(str(path))
        assert catalog.metadata["Language"] == language
        assert not catalog.metadata_is_fuzzy
        assert [e.msgid for e in catalog.untranslated_entries()] == [], path
        assert [e.msgid for e in catalog.fuzzy_entries()] == [], path
        assert [e.msgid for e in catalog.obsolete_entries()] == [], path
        for entry in catalog.translated_entries():
            if entry.msgid_plural:  # every plural form of the language is written
                forms = int(catalog.metadata["Plural-Forms"].split("nplurals=")[1].split(";")[0])
                assert sorted(entry.msgstr_plural) == list(range(forms)), entry.msgid


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_committed_mo_files_are_compiled_from_the_po_files(language):
    """`manage.py compile_catalogs` after editing a .po file; this catches a forgotten run."""
    for path in po_files(language):
        mo_path = path.with_suffix(".mo")
        assert mo_path.exists(), f"{mo_path} is missing: run manage.py compile_catalogs"
        compiled = {(e.msgctxt, e.msgid): (e.msgstr, e.msgstr_plural) for e in polib.mofile(str(mo_path))}
        entries = polib.pofile(str(path)).translated_entries()
        source = {(e.msgctxt, e.msgid): (e.msgstr, e.msgstr_plural) for e in entries}
        assert compiled == source, f"{mo_path} is stale: run manage.py compile_catalogs"


@pytest.mark.parametrize("language", TRANSLATED)
def test_django_serves_the_catalog(language):
    catalog = polib.pofile(str(po_files(language)[0]))
    entry = catalog.translated_entries()[0]
    with translation.override(language):
        assert translation.gettext(entry.msgid) == entry.msgstr
