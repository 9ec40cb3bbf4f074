"""The live check's own messages (scorekeeper/matches/views/live.py) are in the site's catalog
of every language (locale/, where makemessages puts them), translated and compiled.

The matches app has no catalog of its own: with one, makemessages would route every string
of the app into it instead of the site's catalog."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "scorekeeper" / "matches"
SITE_LOCALE = ROOT / "locale"
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def messages_in_the_code() -> set[str]:
    return set(re.findall(r'\b_\("((?:[^"\\]|\\.)*)"\)', (APP / "views" / "live.py").read_text()))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_live_check_is_translated_and_compiled(language):
    po_path = SITE_LOCALE / language / "LC_MESSAGES" / "django.po"
    catalog = polib.pofile(str(po_path))

    assert catalog.metadata["Language"] == language
    translated = {e.msgid: e.msgstr for e in catalog.translated_entries()}
    assert messages_in_the_code() <= set(translated), messages_in_the_code() - set(translated)
    assert not catalog.untranslated_entries() and not catalog.fuzzy_entries()
    for msgid in messages_in_the_code():  # the same placeholders
        msgstr = translated[msgid]
        assert sorted(re.findall(r"%\(\w+\)s", msgid)) == sorted(re.findall(r"%\(\w+\)s", msgstr)), msgid
    compiled = {e.msgid: e.msgstr for e in polib.mofile(str(po_path.with_suffix(".mo")))}
    for msgid in messages_in_the_code():
        assert compiled.get(msgid) == translated[msgid], f"stale .mo: compile_catalogs ({msgid})"
    with translation.override(language):  # and Django serves them
        assert {msgid: translation.gettext(msgid) for msgid in messages_in_the_code()} == {
            msgid: translated[msgid] for msgid in messages_in_the_code()
        }


def test_the_site_catalog_is_one_django_reads_and_the_app_has_none_of_its_own():
    assert SITE_LOCALE in map(Path, settings.LOCALE_PATHS)
    assert not (APP / "locale").exists(), "an app catalog would take the app's strings from locale/"
