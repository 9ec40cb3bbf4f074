"""The layers go one way (issue 19): ``scorekeeper.rules`` <- ``scorekeeper.matches`` <-
``ratings`` <- the interfaces (``api``, the pages). Read from the source (an AST walk, nothing
imported), one case per package, so that a failure names the offending modules and lines:

- no package of ``scorekeeper/`` (rules, matches, outbox, accounts, idempotency …) imports
  ``ratings`` or ``api``;
- no module under ``ratings/`` imports ``api``;
- the small apps beneath the matches (idempotency, outbox) do not import ``scorekeeper.matches``;
- beneath the API nothing imports its framework (DRF, drf-spectacular, knox): an HTTP concern,
  such as the ``Idempotency-Key`` decorator, lives in ``api``;
- no string literal in an app's code names another app's table (``Model._meta.db_table`` and
  the fields' ``.column`` do).

The dev-only app (``scorekeeper/devtools/``: the demo, the screenshots, the browser tooling)
may import anything; the site's backup and restore (``scorekeeper/backup/``) is an interface
beside ``api`` that imports every app it carries and that nothing imports; and
``scorekeeper/settings.py`` and ``scorekeeper/urls.py`` wire the apps
together: they are not in these packages.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parents[2]
DEV_ONLY = ROOT / "scorekeeper" / "devtools"
BACKUP = ROOT / "scorekeeper" / "backup"
LOWER = {"scorekeeper.rules", "scorekeeper.matches", "scorekeeper.outbox", "scorekeeper.accounts"}


def dotted(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def below_ratings() -> list[Path]:
    """Every package of scorekeeper/ but the dev-only app and the backup, which sit at the
    interfaces' level (found, so that a new app is checked from its first commit)."""
    inits = (ROOT / "scorekeeper").glob("*/__init__.py")
    return sorted(init.parent for init in inits if init.parent not in (DEV_ONLY, BACKUP))


#: (package, the packages it must not import). ``scorekeeper.backup`` (site export and import)
#: is an interface beside ``api``: it may import every app it carries, and no app imports it.
IMPORT_RULES = [(package, ("ratings", "api", "scorekeeper.backup")) for package in below_ratings()] + [
    # The small apps that matches uses stand beneath it (their errors' classes are
    # scorekeeper/errors.py's, not the matches').
    (ROOT / "scorekeeper" / "idempotency", ("scorekeeper.matches",)),
    (ROOT / "scorekeeper" / "outbox", ("scorekeeper.matches",)),
    (ROOT / "ratings", ("api", "scorekeeper.backup")),
    (ROOT / "api", ("scorekeeper.backup",)),
]

#: The API's framework: HTTP requests and answers, their schema, the API's tokens.
API_FRAMEWORK = ("rest_framework", "drf_spectacular", "knox")
#: The packages beneath the API, which speak no HTTP of the API's kind.
BELOW_THE_API = [*below_ratings(), ROOT / "ratings"]

#: The apps whose code must not name another app's table.
APP_PACKAGES = [*below_ratings(), ROOT / "ratings", ROOT / "api", BACKUP]


def modules(package: Path) -> list[Path]:
    return sorted(path for path in package.rglob("*.py") if not path.is_relative_to(DEV_ONLY))


def parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imports(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, module) of each absolute import, at the top or inside a function, and of each
    ``import_module("…")`` / ``__import__("…")`` of a literal name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                yield node.lineno, node.args[0].value


def report(title: str, offending: list[str]) -> str:
    return "\n".join([title, *offending])


@pytest.mark.parametrize(
    ("package", "forbidden"), IMPORT_RULES, ids=[dotted(package) for package, _ in IMPORT_RULES]
)
def test_a_layer_imports_nothing_of_the_layers_above_it(package, forbidden):
    offending = imports_of(package, forbidden)
    assert not offending, report(f"{dotted(package)} must not import {' or '.join(forbidden)}:", offending)


@pytest.mark.parametrize("package", BELOW_THE_API, ids=[dotted(package) for package in BELOW_THE_API])
def test_beneath_the_api_nothing_imports_its_framework(package):
    offending = imports_of(package, API_FRAMEWORK)
    assert not offending, report(
        f"{dotted(package)} must leave {', '.join(API_FRAMEWORK)} to api:", offending
    )


def imports_of(package: Path, forbidden: tuple[str, ...]) -> list[str]:
    """Where the package's modules import one of ``forbidden`` (or a module of it)."""
    return [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in modules(package)
        for line, name in sorted(imports(parse(path)))
        if any(name == banned or name.startswith(f"{banned}.") for banned in forbidden)
    ]


def table_owners() -> dict[str, str]:
    """Each table of an installed model (the many-to-many ones too) -> its app's label."""
    models = apps.get_models(include_auto_created=True)
    return {model._meta.db_table: model._meta.app_config.label for model in models}


@pytest.mark.parametrize("package", APP_PACKAGES, ids=[dotted(package) for package in APP_PACKAGES])
def test_no_app_names_another_apps_table(package):
    owners = table_owners()
    tables = re.compile(r"\b(" + "|".join(map(re.escape, sorted(owners, key=len, reverse=True))) + r")\b")
    offending = []
    # The migrations are left out: they are frozen history, the schema as it was when they were
    # written, where ``_meta`` tells the schema as it is.
    for path in modules(package):
        if "migrations" in path.relative_to(package).parts:
            continue
        config = apps.get_containing_app_config(dotted(path))
        strings = [node for node in ast.walk(parse(path)) if isinstance(node, ast.Constant)]
        for node in sorted((node for node in strings if isinstance(node.value, str)), key=lambda n: n.lineno):
            offending += [
                f"{path.relative_to(ROOT)}:{node.lineno} names {table}"
                for table in dict.fromkeys(tables.findall(node.value))
                if config is None or owners[table] != config.label
            ]
    assert not offending, report(
        f"{dotted(package)} names other apps' tables (take them from _meta):", offending
    )


def test_the_rules_cover_the_lower_packages_and_leave_out_the_dev_only_app():
    checked = {dotted(package) for package, _ in IMPORT_RULES}
    assert checked >= {*LOWER, "ratings"}
    assert "scorekeeper.devtools" not in checked


def test_the_walk_finds_imports_wherever_they_are():
    tree = ast.parse(
        "import ratings.services\n"
        "from api import views\n"
        "from . import selectors\n"
        "def f():\n"
        "    from ratings.selectors import leaderboard\n"
        "    importlib.import_module('api.urls')\n"
    )
    found = sorted(imports(tree))
    assert found == [(1, "ratings.services"), (2, "api"), (5, "ratings.selectors"), (6, "api.urls")]
