"""The live check's own messages (scorekeeper/matches/views_live.py) have their catalog in
every language of the site (scorekeeper/matches/locale, an app catalog Django finds by
itself), complete and compiled."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings

APP = Path(__file__).resolve().parents[1] / "scorekeeper" / "matches"
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def messages_in_the_code() -> set[str]:
    return set(re.findall(r'\b_\("((?:[^"\\]|\\.)*)"\)', (APP / "views_live.py").read_text()))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_live_check_is_translated_and_compiled(language):
    po_path = APP / "locale" / language / "LC_MESSAGES" / "django.po"
    catalog = polib.pofile(str(po_path))

    assert catalog.metadata["Language"] == language
    translated = {e.msgid: e.msgstr for e in catalog.translated_entries()}
    assert messages_in_the_code() <= set(translated), messages_in_the_code() - set(translated)
    assert not catalog.untranslated_entries() and not catalog.fuzzy_entries()
    for msgid, msgstr in translated.items():  # the same placeholders
        assert sorted(re.findall(r"%\(\w+\)s", msgid)) == sorted(re.findall(r"%\(\w+\)s", msgstr)), msgid
    compiled = {e.msgid: e.msgstr for e in polib.mofile(str(po_path.with_suffix(".mo")))}
    assert compiled == translated, "stale .mo: recompile with polib (save_as_mofile)"
