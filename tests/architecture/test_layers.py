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
  the fields' ``.column`` do);
- no import circle among the project's modules (every production package, the dev-only app
  and the backup included, the migrations left out): a module that imports, at the top or
  inside a function, a module that leads back to it fails, named with the circle's lines.

The dev-only app (``scorekeeper/devtools/``: the demo, the screenshots, the browser tooling)
may import anything; the site's backup and restore (``scorekeeper/backup/``) is an interface
beside ``api`` that imports every app it carries and that nothing imports; and
``scorekeeper/settings.py`` and ``scorekeeper/urls.py`` wire the apps
together: they are not in these packages.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterable, Iterator
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
        "    from ratings.reads.boards import leaderboard\n"
        "    importlib.import_module('api.urls')\n"
    )
    found = sorted(imports(tree))
    assert found == [(1, "ratings.services"), (2, "api"), (5, "ratings.reads.boards"), (6, "api.urls")]


#: The project's production packages: every top-level package but the tests (found, so that
#: a new one is checked from its first commit).
PRODUCTION = sorted(init.parent for init in ROOT.glob("*/__init__.py") if init.parent.name != "tests")


def project_modules() -> dict[str, Path]:
    """Every production module by its dotted name, the migrations left out (frozen history)."""
    return {
        dotted(path): path
        for package in PRODUCTION
        for path in sorted(package.rglob("*.py"))
        if "migrations" not in path.relative_to(ROOT).parts
    }


def module_imports(name: str, tree: ast.AST, known: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line, module) of each module of ``known`` that module ``name`` imports, at the top or
    inside a function, relative imports resolved: ``from . import views`` is the module
    ``views`` of the package, ``from .models import Match`` the module ``models``; a name that
    is no module of ``known`` stands for the nearest one that holds it (``import a.b.c`` of a
    package ``a.b`` without a module ``c`` is ``a.b``)."""
    known = set(known)
    package = name if name in _packages(known) else name.rpartition(".")[0]

    def nearest(module: str) -> str | None:
        while module and module not in known:
            module = module.rpartition(".")[0]
        return module or None

    for node in ast.walk(tree):
        wanted: list[str]
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            wanted = submodules if len(submodules) == len(node.names) else [*submodules, base]
        elif isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.Call):  # import_module("…") / __import__("…") of a literal name
            wanted = [module for _line, module in imports(ast.Expression(node))]
        else:
            continue
        for module in wanted:
            found = nearest(module)
            if found is not None and found != name:
                yield node.lineno, found


def _packages(known: Iterable[str]) -> set[str]:
    """The names among ``known`` that other names are inside of (the packages)."""
    return {module.rpartition(".")[0] for module in known if "." in module}


def import_graph(sources: dict[str, ast.AST]) -> dict[str, dict[str, int]]:
    """module -> {module it imports: the first line that does}, among ``sources``."""
    graph: dict[str, dict[str, int]] = {}
    for name, tree in sources.items():
        edges = graph.setdefault(name, {})
        for line, module in sorted(module_imports(name, tree, sources)):
            edges.setdefault(module, line)
    return graph


def import_circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The circles of each group of modules that import one another (a strongly connected
    component of the graph, found by Tarjan's walk without recursion): from each member, the
    shortest way back to itself, as the modules in turn (a circle met twice named once)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            step = next(successors, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, {})))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(group)
    circles: dict[frozenset, list[str]] = {}
    for group in groups:
        for start in sorted(group):  # every member's shortest circle: each edge named once
            paths = {start: [start]}
            queue = [start]
            while queue:
                node = queue.pop(0)
                if start in graph[node]:
                    circle = [*paths[node], start]
                    circles.setdefault(frozenset(itertools.pairwise(circle)), circle)
                    break
                for step in sorted(graph[node]):
                    if step in group and step not in paths:
                        paths[step] = [*paths[node], step]
                        queue.append(step)
    return sorted(circles.values())


def test_no_import_circle_among_the_projects_modules():
    modules_found = project_modules()
    graph = import_graph({name: parse(path) for name, path in modules_found.items()})
    offending = [
        " -> ".join(circle)
        + "".join(
            f"\n    {modules_found[a].relative_to(ROOT)}:{graph[a][b]} imports {b}"
            for a, b in itertools.pairwise(circle)
        )
        for circle in import_circles(graph)
    ]
    assert not offending, report("These modules import one another (a circle):", offending)


def test_the_circle_walk_finds_a_circle_hidden_in_functions():
    sources = {
        "app.services": (
            "from .engine import Rater\n"
            "def write():\n    from .display import shown\n"
            "def count():\n    from .head_to_head import pairs\n"
        ),
        "app.display": "from .services import rater\n",
        "app.head_to_head": "from .services import rater\n",
        "app.engine": "import math\n",
        "app.views": "from app import display, head_to_head\n",
    }
    trees = {name: ast.parse(text) for name, text in sources.items()}
    graph = import_graph(trees)
    assert graph["app.views"] == {"app.display": 1, "app.head_to_head": 1}
    assert import_circles(graph) == [
        ["app.display", "app.services", "app.display"],
        ["app.head_to_head", "app.services", "app.head_to_head"],
    ]
    trees["app.services"] = ast.parse("def count():\n    from .head_to_head import pairs\n")
    trees["app.display"] = ast.parse("from .engine import Rater\n")
    assert import_circles(import_graph(trees)) == [["app.head_to_head", "app.services", "app.head_to_head"]]
    trees["app.head_to_head"] = ast.parse("from . import engine\n")
    assert import_circles(import_graph(trees)) == []


def test_the_circle_check_covers_every_production_package():
    assert {package.name for package in PRODUCTION} == {"api", "ratings", "scorekeeper"}
    found = project_modules()
    assert {"ratings.services", "api.ratings", "scorekeeper.matches.services"} <= found.keys()
    assert not any(".migrations." in name for name in found)


#: The ratings' write side: the entry points and the stages of a replay, what its tasks and
#: receivers run.
RATINGS_WRITES = {
    "ratings.services",
    "ratings.replay",
    "ratings.pool_reading",
    "ratings.bulk",
    "ratings.history_table",
    "ratings.tasks",
    "ratings.receivers",
}


def reads_and_model(name: str) -> bool:
    """The ratings' modules beneath or beside its writes that must not import them: the model
    (the engine, the raters, the displayed scale, the fit), the reads and the pages."""
    return name in {
        "ratings.engine",
        "ratings.raters",
        "ratings.display",
        "ratings.fitting",
        "ratings.cul",
        "ratings.charts",
        "ratings.views",
        "ratings.views_people",
    } or name.startswith(("ratings.reads", "ratings.templatetags"))


def test_the_ratings_reads_and_its_model_import_nothing_of_its_writes():
    found = project_modules()
    graph = import_graph({name: parse(path) for name, path in found.items()})
    checked = sorted(name for name in graph if reads_and_model(name))
    assert {"ratings.reads.boards", "ratings.raters", "ratings.views"} <= set(checked)
    offending = [
        f"{found[name].relative_to(ROOT)}:{line} imports {target}"
        for name in checked
        for target, line in sorted(graph[name].items(), key=lambda item: item[1])
        if target in RATINGS_WRITES
    ]
    assert not offending, report("The ratings' reads, pages and model must not import its writes:", offending)
