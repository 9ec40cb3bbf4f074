"""Record what the service answers, so that a change meant to move code only can be shown to
change no answer: every GET URL of the API and the pages, for every id the demo gives, in the
four languages, for an anonymous visitor and for the demo's scorer. One file per answer
(status, content type, body) under OUT; compare two checkouts with ``diff -r``::

    git worktree add /tmp/base <commit>
    (cd /tmp/base && "$OLDPWD/.venv/bin/python" "$OLDPWD/scripts/answers_snapshot.py" /tmp/answers-base)
    .venv/bin/python scripts/answers_snapshot.py /tmp/answers-new
    diff -r /tmp/answers-base /tmp/answers-new && echo identical

Run from the checkout to record (it imports that checkout's code). It builds its own SQLite
database in a temporary folder (migrate, then ``manage.py demo``) with tasks in-process and the
clock stood still (``django.utils.timezone.now`` answers one fixed instant, patched before
Django loads, so every stored timestamp is the same in both runs); the per-request tokens (CSRF,
the CSP nonce) are masked in the bodies. The admin is left out (Django's own pages).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sys
import tempfile
from pathlib import Path
from unittest import mock

ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
LANGUAGES = ("en", "fr", "de", "ru")
FIXED_NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
MASKS = [
    (re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"'), b'name="csrfmiddlewaretoken" value="-"'),
    (re.compile(rb'nonce="[^"]+"'), b'nonce="-"'),
    (re.compile(rb'"csrfToken": ?"[^"]+"'), b'"csrfToken": "-"'),
]


def main(out: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="answers-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{work / 'db.sqlite3'}"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    with mock.patch("django.utils.timezone.now", lambda: FIXED_NOW):
        import django

        django.setup()
        from django.conf import settings

        settings.ALLOWED_HOSTS = ["*"]
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
        call_command("demo", verbosity=0)
        record(out)


def urls() -> list[str]:
    from django.urls import URLPattern, URLResolver, get_resolver, reverse

    from scorekeeper.matches.models import Match, Player, Seat

    matches: list[int] = []  # the first match of each game
    seen_games: set[str] = set()
    for match in Match.objects.order_by("pk"):
        if match.game not in seen_games:
            seen_games.add(match.game)
            matches.append(match.pk)
    players = list(Player.objects.order_by("pk").values_list("pk", flat=True))
    games = sorted(seen_games)

    def walk(patterns, namespace=""):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if str(entry.pattern).startswith("admin/"):
                    continue
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                yield from walk(entry.url_patterns, inner)
            elif isinstance(entry, URLPattern) and entry.name:
                yield f"{namespace}{entry.name}", entry

    found: set[str] = set()
    for name, pattern in walk(get_resolver().url_patterns):
        arguments = re.findall(r"\(\?P<(\w+)>", pattern.pattern.regex.pattern)
        route = str(pattern.pattern)
        for kwargs in combinations(arguments, route, matches, players, games, Seat):
            try:
                found.add(reverse(name, kwargs=kwargs))
            except Exception as error:  # a name the walk read wrongly: say so, record the rest
                print(f"cannot reverse {name} {kwargs}: {error}", file=sys.stderr)
    return sorted(found)


def combinations(arguments, route, matches, players, games, seat_model):
    """The keyword arguments to fill a route with: every game; every player (and a few pairs of
    them); the first match of each game, with its first seat's player, hands 1 and 2, both
    export formats."""
    if not arguments:
        return [{}]
    if "game" in arguments:
        return [{"game": game} for game in games]
    if route.startswith("players"):
        if "other" in arguments:
            pairs = [(players[0], other) for other in players[1:4]] + [(players[1], players[0])]
            return [{"pk": pk, "other": other} for pk, other in pairs]
        return [{"pk": pk} for pk in players]
    rows = []
    for pk in matches:
        row = {"pk": pk}
        if "player" in arguments:
            row["player"] = seat_model.objects.filter(match_id=pk).order_by("position").first().player_id
        if "format" in arguments:
            rows += [{**row, "format": fmt} for fmt in ("json", "csv")]
        elif "number" in arguments:
            rows += [{**row, "number": number} for number in (1, 2)]
        else:
            rows.append(row)
    return rows


def record(out: Path) -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    out.mkdir(parents=True, exist_ok=True)
    scorer = get_user_model().objects.get(username="demo")
    paths = urls()
    count = 0
    for who in ("anonymous", "scorer"):
        for language in LANGUAGES:
            client = Client(HTTP_ACCEPT_LANGUAGE=language, HTTP_HOST="testserver")
            if who == "scorer":
                client.force_login(scorer)
            for path in paths:
                response = client.get(path)
                body = b"".join(response.streaming_content) if response.streaming else response.content
                for pattern, mask in MASKS:
                    body = pattern.sub(mask, body)
                name = re.sub(r"[^A-Za-z0-9._-]+", "_", path.strip("/")) or "_root"
                target = out / who / language / f"{name}.txt"
                target.parent.mkdir(parents=True, exist_ok=True)
                head = f"{response.status_code} {response.get('Content-Type', '')}\n".encode()
                target.write_bytes(head + body)
                count += 1
    print(f"{count} answers ({len(paths)} URLs x {len(LANGUAGES)} languages x 2 visitors) in {out}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]))
