"""`manage.py screenshots`: the main pages at a phone's width, as PNGs in docs/screenshots/.

Nothing of the configured database is touched: the pages are served from a scratch
database (Django's test database: in memory on SQLite) loaded with ``manage.py demo`` plus
one match in progress, by Django's live-server thread on 127.0.0.1, and photographed by
the browser setup of the browser tests (scorekeeper/devtools/browser.py: Debian's Chromium,
390×844, one device pixel per CSS pixel so the files stay small). Tasks run in-process.

    .venv/bin/python manage.py screenshots            # all of them into docs/screenshots/
    .venv/bin/python manage.py screenshots --only hand-form-live --out /tmp/shots
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from django.test import Client
from django.test.utils import setup_test_environment, teardown_test_environment

from ratings.services import rating_events_process_all
from scorekeeper.devtools import DEMO_DATA
from scorekeeper.devtools.browser import chromium_missing, launch, phone_context
from scorekeeper.matches import services
from scorekeeper.matches.confirmations import hand_confirm
from scorekeeper.matches.models import Match
from scorekeeper.matches.player_accounts import player_link

OUT = Path(settings.BASE_DIR) / "docs" / "screenshots"
PORTS = range(8600, 8700)

#: (file name, what it shows), in the README's order.
SHOTS = [
    ("home", "Home: the matches being scored, recent matches, players"),
    ("matches", "Match list with its filters"),
    ("new-match", "New match: players in seat order and the table's chances"),
    ("hand-form-live", "Hand form: the live check marks a declared score the rules do not give"),
    ("score-sheet", "Score sheet of a finished partie: the result in words"),
    ("leaderboard", "Leaderboard of piquet: established players, then the provisional ones"),
    ("season", "Season board of piquet: this year's ratings, matches, wins and changes"),
    ("profile", "Player profile with the rating chart"),
    ("hand-form-live-ru", "The hand form and its live check in Russian"),
    ("confirmation", "After the save: the other side confirms at the table, one tap"),
    ("offline", "Saved without a network: the hand waits on the phone, the banner says so"),
]


class Command(BaseCommand):
    help = "Regenerate the phone-width screenshots of the main pages (docs/screenshots/) from a scratch demo."

    def add_arguments(self, parser):
        parser.add_argument("--out", default=str(OUT), help="folder for the PNGs (default docs/screenshots/)")
        parser.add_argument(
            "--only", action="append", choices=[name for name, _ in SHOTS], help="just this one (repeatable)"
        )

    def handle(self, *args, **options):
        why = chromium_missing()
        if why:
            raise CommandError(f"cannot take screenshots: {why}")
        # Playwright's sync API runs an event loop in this thread, next to the ORM's calls.
        os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        from scorekeeper.celery import app as celery_app

        celery_app.conf.task_always_eager = True  # no broker for a scratch run
        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        wanted = options["only"] or [name for name, _ in SHOTS]

        setup_test_environment()
        connection = connections["default"]
        if connection.vendor != "sqlite":
            # Its own scratch database, never the test runs' ``test_<name>``.
            connection.settings_dict["TEST"]["NAME"] = f"{connection.settings_dict['NAME']}_screenshots"
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            self._shoot(out, wanted)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
            teardown_test_environment()

    # -- the scratch site ----------------------------------------------------------------
    def _shoot(self, out: Path, wanted: list[str]) -> None:
        from playwright.sync_api import sync_playwright

        call_command("demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
        scene = _scene()
        server = _serve()
        base = f"http://{server.host}:{server.port}"
        try:
            with sync_playwright() as p:
                browser = launch(p)
                try:
                    for name in wanted:
                        path = out / f"{name}.png"
                        getattr(self, "_" + name.replace("-", "_"))(browser, base, scene, path)
                        self.stdout.write(f"{path} ({path.stat().st_size // 1024} KiB)")
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.join()

    def _page(self, browser, base: str, scene: dict, *, signed_in: bool = False, locale: str = "en-GB"):
        context = phone_context(browser, locale=locale)
        context.set_default_timeout(15_000)
        if signed_in:
            host = base.split("//", 1)[1].split(":")[0]
            context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": scene["session"],
                                  "domain": host, "path": "/"}])  # fmt: skip
        return context.new_page()

    @staticmethod
    def _save(page, path: Path, *, full: bool = True) -> None:
        page.wait_for_load_state("networkidle")
        page.screenshot(path=str(path), full_page=full, animations="disabled", caret="hide")
        page.context.close()

    # -- one method per picture -------------------------------------------------------------
    def _home(self, browser, base, scene, path):
        page = self._page(browser, base, scene, signed_in=True)
        page.goto(f"{base}/")
        self._save(page, path, full=False)

    def _matches(self, browser, base, scene, path):
        page = self._page(browser, base, scene)
        page.goto(f"{base}/matches/")
        self._save(page, path, full=False)

    def _new_match(self, browser, base, scene, path):
        page = self._page(browser, base, scene, signed_in=True)
        page.goto(f"{base}/matches/new/piquet/")
        for seat, player in enumerate(scene["players"]):
            page.select_option(f"select[name=seat_{seat}]", str(player.pk))
        page.click("button[name=chances]")
        page.wait_for_selector("#prediction")
        self._save(page, path, full=False)

    def _hand_form_live(self, browser, base, scene, path, locale: str = "en-GB"):
        page = self._page(browser, base, scene, signed_in=True, locale=locale)
        page.goto(f"{base}/matches/{scene['playing'].pk}/hands/new/")
        self._fill_next_hand(page, scene["next_hand"], overcounted=4)  # a point counted twice
        page.wait_for_selector('#hand-form[data-live-state="done"]')
        page.wait_for_selector("#live-declared_0 .diff, #live-declared_0.diff")
        # The declared scores and the live message by them, with the Save bar.
        page.locator("input[name=declared_0]").scroll_into_view_if_needed()
        page.evaluate("window.scrollBy(0, 260)")
        self._save(page, path, full=False)

    @staticmethod
    def _fill_next_hand(page, hand: dict, *, overcounted: int = 0) -> None:
        """Type the scene's next hand into the hand form, the first seat's declared score
        ``overcounted`` points too high."""
        fill = {
            "point_cards": hand["point"]["cards"],
            "point_pips": hand["point"]["pips"],
            "sets_sets": " ".join(f"{s['count']}{s['rank']}" for s in hand["sets"]["sets"]),
            "tricks": "".join(map(str, hand["tricks"])),
            "declared_0": hand["declared"][0] + overcounted,
            "declared_1": hand["declared"][1],
        }
        for field, value in (("dealer", hand["dealer"]), ("point_scorer", hand["point"]["scorer"]),
                             ("sequences_scorer", ""), ("sets_scorer", hand["sets"]["scorer"])):  # fmt: skip
            page.locator(f'.field[data-field="{field}"] label.opt:has(input[value="{value}"])').click()
        for field, value in fill.items():
            page.fill(f"[name={field}]", str(value))

    def _score_sheet(self, browser, base, scene, path):
        page = self._page(browser, base, scene)
        page.goto(f"{base}/matches/{scene['finished'].pk}/")
        self._save(page, path)

    def _leaderboard(self, browser, base, scene, path):
        page = self._page(browser, base, scene)
        page.goto(f"{base}/leaderboards/piquet/")
        self._save(page, path, full=False)

    def _season(self, browser, base, scene, path):
        page = self._page(browser, base, scene)
        page.goto(f"{base}/leaderboards/piquet/season/")
        page.get_by_role("link", name="This year").click()
        self._save(page, path, full=False)

    def _profile(self, browser, base, scene, path):
        page = self._page(browser, base, scene)
        page.goto(f"{base}/players/{scene['players'][0].pk}/")
        page.wait_for_load_state("networkidle")
        # From the top down to the end of the piquet card and its chart.
        box = page.locator("#rating-piquet").bounding_box()
        bottom = int(box["y"] + box["height"] + 12) if box else 844
        page.screenshot(path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": 390, "height": bottom})
        page.context.close()

    def _hand_form_live_ru(self, browser, base, scene, path):
        self._hand_form_live(browser, base, scene, path, locale="ru-RU")

    def _confirmation(self, browser, base, scene, path):
        # The scorer's phone right after saving hand 2 (hand 1 was confirmed at the table).
        page = self._page(browser, base, scene, signed_in=True)
        page.goto(f"{base}/matches/{scene['playing'].pk}/hands/2/")
        self._save(page, path, full=False)

    def _offline(self, browser, base, scene, path):
        # The match's pages visited with a network (the service worker keeps them), then the
        # next hand saved without one: it waits in the phone's queue, and the banner says so.
        page = self._page(browser, base, scene, signed_in=True)
        match = f"{base}/matches/{scene['playing'].pk}/"
        page.goto(match)
        # Polled by evaluate: wait_for_function compiles its predicate, which the CSP refuses.
        for _ in range(100):
            if page.evaluate("() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)"):
                break
            page.wait_for_timeout(100)
        for url in (f"{match}hands/new/", match):
            page.goto(url)
            page.wait_for_load_state("networkidle")
        page.context.set_offline(True)
        page.goto(f"{match}hands/new/")
        self._fill_next_hand(page, scene["next_hand"])
        page.locator("#hand-form .actions button[type=submit]").click()
        page.wait_for_url(match)
        page.locator("#offline-banner", has_text="1").wait_for()
        page.screenshot(path=str(path), animations="disabled", caret="hide")
        page.context.close()


def _scene() -> dict:
    """What the pictures show beyond the demo: a scorer signed in, a piquet match in progress."""
    finished = Match.objects.get(title="Demo piquet: partie-rubicon")
    players = [seat.player for seat in finished.seats.select_related("player").order_by("position")]
    user = get_user_model().objects.create_user("scorer", password=secrets.token_urlsafe(16))
    parties = json.loads((DEMO_DATA / "piquet.json").read_text())
    # A few more parties between the two, so that the profile's chart has a history to draw.
    for n, party in enumerate(parties * 2):
        seated = players if n % 2 else players[::-1]
        match = services.match_create(game="piquet", players=seated, by=user, title=f"Evening {n + 1}")
        for record in party["hands"]:
            services.hand_record(match=match, record=record, by=user)
    rating_events_process_all()
    hands = parties[0]["hands"]
    playing = services.match_create(game="piquet", players=players, by=user, title="Friday at Luc's")
    for record in hands[:2]:
        services.hand_record(match=playing, record=record, by=user)
    # The scorer plays Ines: Jakob, the other side, confirms at the table on her phone.
    player_link(player=players[0], user=user, by=None)
    hand_confirm(match=playing, number=1, by=user, player=players[1])
    client = Client()
    client.force_login(user)
    return {
        "finished": finished,
        "players": players,
        "playing": playing,
        "next_hand": hands[2],
        "session": client.cookies[settings.SESSION_COOKIE_NAME].value,
    }


def _serve():
    """Django's live-server thread (as pytest-django's ``live_server``) on a port of 8600–8699."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler
    from django.test.testcases import LiveServerThread

    shared = {}
    for conn in connections.all():
        if conn.vendor == "sqlite" and conn.is_in_memory_db():
            conn.inc_thread_sharing()
            shared[conn.alias] = conn
    last = None
    for port in PORTS:
        thread = LiveServerThread("127.0.0.1", StaticFilesHandler, connections_override=shared, port=port)
        thread.daemon = True
        thread.start()
        thread.is_ready.wait()
        if thread.error is None:
            return thread
        last = thread.error
        thread.join()
    raise CommandError(f"no free port in {PORTS.start}–{PORTS.stop - 1}: {last}")
