"""Every production module is named somewhere in docs/*.md, so that the docs cannot leave a part out.

The production modules: every ``.py`` under ``scorekeeper/``, ``ratings/`` and ``api/`` (not
their migrations, not an ``__init__.py`` that is empty or only a docstring), every JavaScript
file of their static folders and of the site's own ``static/`` (ours: nothing there is
vendored), and every ``benchmarks/*.py``.

A module is named when one of the pages ``docs/*.md`` writes

1. its path from the repository root: ``ratings/bulk.py``, ``scorekeeper/matches/static/matches/live.js``;
2. or its dotted name, alone or followed by an attribute: ``scorekeeper.middleware``,
   ``ratings.services.rating_event_record`` (a Python module; a package's ``__init__.py`` by
   its package's name, ``scorekeeper.rules``, or its folder, ``scorekeeper/rules/``);
3. or its path inside its app, on a line that also writes the app's folder itself: ``bulk.py``
   on the line (a row of architecture.md's tables) that writes ``ratings/``. The apps' folders
   are ``scorekeeper/<app>/``, ``ratings/``, ``api/``, ``benchmarks/`` and, for the project's
   own modules (``scorekeeper/settings.py`` …), ``scorekeeper/``;
4. or, for a management command, ``manage.py <command>``.

A name counts only as a whole word: ``views.py`` is not named by ``views_club.py``, nor
``ratings/`` by ``scorekeeper/ratings/``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").glob("*.md"))
PACKAGES = ("scorekeeper", "ratings", "api")


def _is_code(path: Path) -> bool:
    """False for an ``__init__.py`` that holds nothing but perhaps a docstring."""
    if path.name != "__init__.py":
        return True
    body = ast.parse(path.read_text(encoding="utf-8")).body
    docstring = body[:1] and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
    return len(body) > (1 if docstring else 0)


def _is_production(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    if "migrations" in parts or "__pycache__" in parts:
        return False
    if path.suffix == ".js":
        return "static" in parts
    return path.suffix == ".py" and _is_code(path)


def production_modules() -> list[Path]:
    found = [path for package in PACKAGES for path in (ROOT / package).rglob("*") if _is_production(path)]
    site_scripts = (ROOT / "static").rglob("*.js")  # the site's own assets, beside the apps'
    return sorted([*found, *site_scripts, *(ROOT / "benchmarks").glob("*.py")])


def _word(text: str) -> re.Pattern[str]:
    """``text`` as a whole name: no path or name character right before it or after it."""
    return re.compile(rf"(?<![\w./-]){re.escape(text)}(?![\w/-])")


def _app_folder(relative: Path) -> Path:
    top = relative.parts[0]
    if top == "scorekeeper" and len(relative.parts) > 2:
        return Path(*relative.parts[:2])
    return Path(top)


def _names(relative: Path) -> tuple[list[re.Pattern[str]], tuple[re.Pattern[str], re.Pattern[str]]]:
    """The patterns that name a module anywhere, and (its path in its app, the app's folder)."""
    anywhere = [_word(relative.as_posix())]
    if relative.suffix == ".py":
        parts = relative.with_suffix("").parts
        if relative.name == "__init__.py":
            parts = parts[:-1]
            anywhere.append(_word(f"{Path(*parts).as_posix()}/"))
        anywhere.append(re.compile(rf"(?<![\w.]){re.escape('.'.join(parts))}(?![\w])"))
        if relative.parent.name == "commands" and relative.parent.parent.name == "management":
            anywhere.append(_word(f"manage.py {relative.stem}"))
    folder = _app_folder(relative)
    inside = (_word(relative.relative_to(folder).as_posix()), re.compile(rf"(?<![\w./-]){folder}/(?![\w.-])"))
    return anywhere, inside


def _named(relative: Path, text: str, lines: list[str]) -> bool:
    anywhere, (inside, folder) = _names(relative)
    if any(pattern.search(text) for pattern in anywhere):
        return True
    return any(inside.search(line) and folder.search(line) for line in lines)


def _docs() -> tuple[str, list[str]]:
    text = "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
    return text, text.splitlines()


def test_every_production_module_is_named_in_the_docs():
    text, lines = _docs()
    modules = [path.relative_to(ROOT) for path in production_modules()]
    unnamed = [m.as_posix() for m in modules if not _named(m, text, lines)]
    assert unnamed == [], f"named nowhere in docs/*.md (this test's docstring says what names one): {unnamed}"


def test_the_rule_names_what_it_says():
    """The four forms of the docstring, and the whole-word condition, on a page of their own."""
    page = "\n".join(
        [
            "| `ratings/` | `bulk.py`: the plumbing |",
            "`scorekeeper/matches/static/matches/live.js`; `scorekeeper.middleware.Atomic`",
            "`manage.py site_export`; `views_club.py` beside `scorekeeper/matches/`",
            "`scorekeeper/rules/` and `scorekeeper/ratings/`",
        ]
    )
    lines = page.splitlines()
    for named in (
        "ratings/bulk.py",
        "scorekeeper/matches/static/matches/live.js",
        "scorekeeper/middleware.py",
        "scorekeeper/backup/management/commands/site_export.py",
        "scorekeeper/matches/views_club.py",
        "scorekeeper/rules/__init__.py",
    ):
        assert _named(Path(named), page, lines), named
    # engine.py not on the page; views.py only inside views_club.py; bulk.py not beside their folders
    for unnamed in (
        "ratings/engine.py",
        "scorekeeper/matches/views.py",
        "scorekeeper/bulk.py",
        "api/bulk.py",
    ):
        assert not _named(Path(unnamed), page, lines), unnamed
