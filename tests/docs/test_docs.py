"""The rules documentation (docs/rules/) checked against the engine, so the two cannot drift.

Every fenced block whose info string starts with ``json hand``, ``json match``, ``json state`` or
``json result`` is an example; the words after it say what the engine must answer:

- ```` ```json hand GAME scores=43,23 ```` — a hand record and the scores the text states.
  Optional: ``seats=N``, ``preset=seed``, ``option.NAME=VALUE`` (a JSON value, else a string),
  ``state=NAME`` (the state before the hand, a ``json state id=NAME`` block of the same page),
  ``after=NAME`` (the state after it), ``result=NAME`` (a ``json result id=NAME`` block; without
  it the hand must not end the match), ``errors=a,b`` (codes that must be reported; ``scores=null``),
  ``warnings=a,b`` and ``mismatch=0,1`` (exactly these; absent means none), ``accept_declared``,
  ``evaluation=NAME`` (the whole answer, a ``json evaluation id=NAME`` block).
- ```` ```json match GAME scores=1,2;3,4 ```` — a list of hand records played from ``state``
  (default: the initial state), ``scores`` per hand separated by ``;``; each hand valid, no
  warnings, the match ending exactly at the last hand, whose result must equal ``result=NAME``.

errors.md is checked too: every code the engine source can report has a row there, and every
row names a code that exists in the source.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorekeeper.rules import find_ruleset

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "rules"
ENGINE = ROOT / "scorekeeper" / "rules"

FENCE = re.compile(
    r"^```json[ \t]+(hand|match|state|result|evaluation)\b([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S
)
GAMES = (
    "piquet",
    "piquet-au-cent",
    "piquet-auction",
    "piquet-voleur",
    "piquet-normand",
    "cul",
    "bank",
    "bastard",
)


def _attrs(words: list[str]) -> tuple[str | None, dict[str, str]]:
    game, attrs = None, {}
    for word in words:
        if "=" in word:
            key, value = word.split("=", 1)
            attrs[key] = value
        elif word in GAMES and game is None:
            game = word
        else:
            attrs[word] = "true"
    return game, attrs


def _blocks(page: Path) -> list[dict]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        game, attrs = _attrs(m.group(2).split())
        line = text.count("\n", 0, m.start()) + 1
        out.append(
            {
                "kind": m.group(1),
                "game": game,
                "attrs": attrs,
                "body": m.group(3),
                "where": f"{page.name}:{line}",
            }
        )
    return out


def _examples() -> list:
    params = []
    for page in sorted(DOCS.glob("*.md")):
        blocks = _blocks(page)
        named = {
            b["attrs"]["id"]: b for b in blocks if b["kind"] not in ("hand", "match") and "id" in b["attrs"]
        }
        for block in blocks:
            if block["kind"] in ("hand", "match"):
                params.append(pytest.param(block, named, id=block["where"]))
    return params


EXAMPLES = _examples()


def _value(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return text


def _named(named: dict, name: str, kind: str, where: str):
    block = named.get(name)
    assert block is not None and block["kind"] == kind, f"{where}: no ```json {kind} id={name}``` block"
    return json.loads(block["body"])


def _codes(text: str | None) -> list[str]:
    return [c for c in (text or "").split(",") if c]


def _ints(text: str) -> list[int] | None:
    return None if text == "null" else [int(v) for v in text.split(",")]


def _game(block: dict):
    attrs = block["attrs"]
    options = {k.removeprefix("option."): _value(v) for k, v in attrs.items() if k.startswith("option.")}
    seats = int(attrs["seats"]) if "seats" in attrs else None
    return find_ruleset(block["game"]).create(attrs.get("preset", "classic"), options, seats)


@pytest.mark.parametrize(("block", "named"), EXAMPLES)
def test_the_engine_agrees_with_the_documented_example(block, named):
    where, attrs = block["where"], block["attrs"]
    assert block["game"] in GAMES, f"{where}: name the game after 'json {block['kind']}'"
    assert "scores" in attrs, f"{where}: state the scores (scores=…)"
    game = _game(block)
    state = _named(named, attrs["state"], "state", where) if "state" in attrs else None
    body = json.loads(block["body"])
    if block["kind"] == "match":
        records, expected = body, [_ints(s) for s in attrs["scores"].split(";")]
        assert len(records) == len(expected), f"{where}: one score list per hand"
    else:
        records, expected = [body], [_ints(attrs["scores"])]
    for i, (record, scores) in enumerate(zip(records, expected, strict=True)):
        got = game.evaluate(state, record, accept_declared="accept_declared" in attrs).to_dict()
        here = f"{where} hand {i + 1}: {got['errors'] or got['mismatches'] or got['warnings']}"
        assert got["scores"] == scores, here
        if "errors" in attrs:
            assert set(_codes(attrs["errors"])) <= {e["code"] for e in got["errors"]}, here
            if "evaluation" in attrs:
                assert got == _named(named, attrs["evaluation"], "evaluation", where), where
            return
        assert not got["errors"], here
        mismatched = sorted({m["seat"] for m in got["mismatches"]})
        assert mismatched == [int(s) for s in _codes(attrs.get("mismatch"))], here
        assert {w["code"] for w in got["warnings"]} == set(_codes(attrs.get("warnings"))), here
        last = i == len(records) - 1
        assert got["match_over"] == (last and "result" in attrs), here
        state = got["state_after"]
    if "after" in attrs:
        assert got["state_after"] == _named(named, attrs["after"], "state", where), where
    if "evaluation" in attrs:
        assert got == _named(named, attrs["evaluation"], "evaluation", where), where
    if "result" in attrs:
        documented = _named(named, attrs["result"], "result", where)
        assert _same_result(got["result"], documented), (where, got["result"])


def _same_result(got: dict, documented: dict) -> bool:
    """Equal, except that cul ratings are shown rounded to one decimal (spec 1.8: within 0.05)."""
    if set(got) != set(documented):
        return False
    for key, value in documented.items():
        if key == "rating_pct":
            pairs = zip(got[key], value, strict=True)
            if not all(
                (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= 0.05)
                for a, b in pairs
            ):
                return False
        elif got[key] != value:
            return False
    return True


def test_every_game_has_documented_examples():
    games = {b["game"] for page in DOCS.glob("*.md") for b in _blocks(page) if b["kind"] == "hand"}
    assert set(GAMES) <= games


# -- errors.md against the engine source --------------------------------------------------------------

#: How the engine reports a code: ev.error("…"), f.error("…"), ev.warn("…"), code="…", Problem("…").
_REPORTED = (
    re.compile(r"\b(?:error|warn)\(\s*\"([a-z_]+)\""),
    re.compile(r"\bcode\s*=\s*\"([a-z_]+)\""),
    re.compile(r"\bProblem\(\s*\"([a-z_]+)\""),
)


def _engine_source() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(ENGINE.rglob("*.py")))


def _documented_codes() -> set[str]:
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))


def test_errors_page_lists_every_code_the_engine_reports():
    source = _engine_source()
    reported = {code for pattern in _REPORTED for code in pattern.findall(source)}
    assert "points_out_of_range" in reported  # the patterns still find codes passed as arguments
    assert reported - _documented_codes() == set()


def test_errors_page_lists_no_code_the_engine_does_not_have():
    source = _engine_source()
    assert {code for code in _documented_codes() if f'"{code}"' not in source} == set()


# -- options tables against the engine's option declarations -------------------------------------------

PAGES = {game: "piquet.md" for game in GAMES if game.startswith("piquet")} | {
    "cul": "cul.md",
    "bank": "bank.md",
    "bastard": "bastard.md",
}
#: | `option` | values | `classic` | `seed` | effect | meaning |
OPTION_ROW = re.compile(
    r"^\| `([a-z_0-9]+)` \| [^|\n]* \| `([^`]*)` \| `([^`]*)` \| (scoring|check|recorded) \|", re.M
)


def _section(game: str) -> str:
    """The part of the game's page about it: piquet.md has one ``## `key` `` section per game."""
    text = (DOCS / PAGES[game]).read_text(encoding="utf-8")
    if PAGES[game] != "piquet.md":
        return text
    start = text.index(f"\n## `{game}`\n")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def _shown(value) -> str:
    return json.dumps(value) if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("game", GAMES)
def test_the_options_table_shows_every_option_with_its_presets_and_effect(game):
    rows = {m.group(1): m.groups()[1:] for m in OPTION_ROW.finditer(_section(game))}
    specs = find_ruleset(game).Options.specs()
    assert set(rows) == {spec["name"] for spec in specs}
    for spec in specs:
        defaults = spec["defaults"]
        expected = (_shown(defaults["classic"]), _shown(defaults["seed"]), spec["effect"])
        assert rows[spec["name"]] == expected, spec["name"]


# -- links between the pages ------------------------------------------------------------------------

LINK = re.compile(r"\]\(([a-zA-Z0-9_./-]*\.md)?(?:#([^)]+))?\)")


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1 for repeats."""
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        out.add(slug if slug not in seen else f"{slug}-{seen[slug]}")
        seen[slug] = seen.get(slug, 0) + 1
    return out


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_links_between_the_rules_pages_resolve(page):
    for target, anchor in LINK.findall(page.read_text(encoding="utf-8")):
        linked = DOCS / target if target else page
        assert linked.exists(), f"{page.name}: {target}"
        if anchor:
            assert anchor in _anchors(linked), f"{page.name}: {target}#{anchor}"


# -- links of the README and of every page under docs/ ---------------------------------------------

#: ``[text](target)`` and ``![alt](target)``, the target relative (no scheme), with or without #anchor.
RELATIVE_LINK = re.compile(r"\]\((?![a-z]+:)([^)#\s]*)(?:#([^)\s]+))?\)")
ALL_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", ALL_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_of_the_readme_and_the_docs_resolves(page):
    for target, anchor in RELATIVE_LINK.findall(page.read_text(encoding="utf-8")):
        linked = (page.parent / target).resolve() if target else page
        assert linked.exists(), f"{page.relative_to(ROOT)}: {target}"
        if anchor:
            assert linked.suffix == ".md", f"{page.relative_to(ROOT)}: {target}#{anchor}"
            assert anchor in _anchors(linked), f"{page.relative_to(ROOT)}: {target}#{anchor}"
