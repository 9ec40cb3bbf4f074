"""Security headers on every page (docs/pages.md, "Security headers"): the Content-Security-Policy
with its directives, Referrer-Policy, Permissions-Policy and X-Frame-Options; and no page
carrying what that policy refuses: an inline script, an event-handler attribute, a
``javascript:`` address, a style attribute or a <style> block, a script or stylesheet from
another site. (tests/browser/test_security_headers.py shows the pages working under it.)"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from ratings import services as ratings

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "img-src": {"'self'"},
    "worker-src": {"'self'"},
    "object-src": {"'none'"},
    "base-uri": {"'self'"},
    "form-action": {"'self'"},
    "frame-ancestors": {"'none'"},
}
DENIED = {"camera", "microphone", "geolocation", "payment", "usb", "serial", "hid", "display-capture"}
#: <script> types that are data, never run (json_script's, DRF's CSRF settings).
DATA_SCRIPTS = {"application/json", "application/ld+json"}


def directives(header: str) -> dict[str, set[str]]:
    parts = (part.split() for part in header.split(";") if part.strip())
    return {name: set(values) for name, *values in parts}


def features(header: str) -> dict[str, str]:
    return dict(item.strip().split("=", 1) for item in header.split(","))


class Inline(HTMLParser):
    """What in a page the policy would refuse (or that comes from elsewhere), as readable lines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script: str | None = None  # the text of an inline script being read

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attrs:
            address = name in ("href", "src", "action", "formaction")
            if name == "style" or name.startswith("on") or (address and is_javascript(value)):
                self.found.append(f"<{tag} {name}={value!r}>")
        if tag == "style":
            self.found.append("<style> block")
        elif tag == "script":
            src = attributes.get("src")
            if src is not None:
                self._local(tag, src)
            elif (attributes.get("type") or "").lower() not in DATA_SCRIPTS:
                self._script = ""
        elif tag == "link" and "stylesheet" in (attributes.get("rel") or "").split():
            self._local(tag, attributes.get("href") or "")

    def handle_data(self, data):
        if self._script is not None:
            self._script += data

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            self.found.append(f"inline <script>: {self._script.strip()[:60]!r}")
            self._script = None

    def _local(self, tag, address):
        if not address.startswith("/") or address.startswith("//"):
            self.found.append(f"<{tag}> from elsewhere: {address}")


def is_javascript(address: str | None) -> bool:
    return (address or "").strip().lower().startswith("javascript:")


def refused(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    parser.close()
    return parser.found


def test_the_checker_finds_what_the_policy_refuses():
    page = """<html><head><style>p{}</style><script>go()</script><script src="https://cdn.example/x.js">
    </script><link rel="stylesheet" href="//cdn.example/x.css"></head><body onload="go()">
    <p style="color:red">x</p><a href="javascript:go()">y</a><svg><rect style="fill:red"/></svg>
    <script type="application/json" id="data">{"a": 1}</script><script src="/static/ok.js"></script>
    <link rel="stylesheet" href="/static/ok.css"></body></html>"""

    assert refused(page) == [
        "<style> block",
        "inline <script>: 'go()'",
        "<script> from elsewhere: https://cdn.example/x.js",
        "<link> from elsewhere: //cdn.example/x.css",
        "<body onload='go()'>",
        "<p style='color:red'>",
        "<a href='javascript:go()'>",
        "<rect style='fill:red'>",
    ]


@pytest.fixture
def club(tally, players, play, user):
    """A finished, rated match and one under way, their scorer a superuser (for the admin)."""
    user.is_staff = user.is_superuser = True
    user.set_password("a-long-password-1")
    user.save()
    finished = play([0, 1], [10, 3])
    play([0, 2], [10, 9])
    started = play([1, 2], [2, 3])
    ratings.rating_events_process_all()
    return {"finished": finished.pk, "started": started.pk, "player": players[0].pk, "user": user.pk}


@pytest.fixture
def players(make_players):
    return make_players("Ada", "Bea", "Cid")


#: Every kind of page, signed in (the scorer, a superuser) unless marked anonymous.
PAGES = [
    ("home", "/"),
    ("match list", "/matches/?game=tally"),
    ("match page", "/matches/{finished}/"),
    ("match page, under way", "/matches/{started}/"),
    ("hand", "/matches/{finished}/hands/1/"),
    ("hand history", "/matches/{finished}/hands/1/history/"),
    ("hand form", "/matches/{started}/hands/new/"),
    ("correction form", "/matches/{started}/hands/1/correct/"),
    ("void", "/matches/{started}/void/"),
    ("reopen", "/matches/{finished}/reopen/"),
    ("new match", "/matches/new/"),
    ("new match of a game", "/matches/new/tally/"),
    ("leaderboards", "/leaderboards/"),
    ("a leaderboard", "/leaderboards/tally/"),
    ("profile", "/players/{player}/"),
    ("settings", "/accounts/settings/"),
    ("admin index", "/admin/"),
    ("admin list", "/admin/matches/match/"),
    ("admin change form", "/admin/auth/user/{user}/change/"),
    ("API docs", "/api/docs/"),
    ("browsable API", "/api/v1/"),
    ("browsable API list", "/api/v1/matches"),
]
ANONYMOUS = [
    ("sign-in", "/accounts/login/"),
    ("sign-up", "/accounts/signup/"),
    ("password reset", "/accounts/password/reset/"),
    ("not found", "/no/such/page/"),
]


def assert_headers(response, *, policy=POLICY):
    assert directives(response["Content-Security-Policy"]) == policy
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    denied = features(response["Permissions-Policy"])
    assert {name for name, allowed in denied.items() if allowed == "()"} >= DENIED
    assert set(denied.values()) == {"()"}  # nothing allowed, to this site or any other


@pytest.mark.parametrize(("name", "path"), PAGES, ids=[name for name, _ in PAGES])
def test_every_page_sends_the_policy_and_nothing_it_refuses(name, path, client, club):
    client.force_login(club_user(club))
    response = client.get(path.format(**club), HTTP_ACCEPT="text/html")

    assert response.status_code == 200, name
    # Swagger UI draws its icons as data: images; that page alone allows them.
    policy = {**POLICY, "img-src": {"'self'", "data:"}} if path == "/api/docs/" else POLICY
    assert_headers(response, policy=policy)
    assert response["Content-Type"].startswith("text/html")
    assert refused(response.content.decode()) == []


@pytest.mark.parametrize(("name", "path"), ANONYMOUS, ids=[name for name, _ in ANONYMOUS])
def test_every_page_for_anyone_too(name, path, client, club):
    response = client.get(path)

    assert response.status_code == (404 if name == "not found" else 200)
    assert_headers(response)
    assert refused(response.content.decode()) == []


def club_user(club):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=club["user"])


def test_the_pages_that_answer_a_form_keep_the_policy(client, club, players, other_user):
    client.force_login(club_user(club))
    seats = {"seat_0": players[0].pk, "seat_1": players[1].pk}
    chances = client.post(
        reverse("match-new-game", args=["tally"]), {"preset": "classic", **seats, "chances": "1"}
    )
    assert chances.status_code == 200 and 'class="bar"' in chances.content.decode()
    client.force_login(other_user)
    not_a_scorer = client.get(f"/matches/{club['started']}/hands/new/")
    assert not_a_scorer.status_code == 403

    for response in (chances, not_a_scorer):
        assert_headers(response)
        assert refused(response.content.decode()) == []


def test_a_locked_out_sign_in_and_a_refused_form_keep_it(settings, club):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        Client().post(reverse("login"), {"login": "ann", "password": "wrong"})
    locked = Client().post(reverse("login"), {"login": "ann", "password": "wrong"})
    assert locked.status_code == 429
    # A form sent without its CSRF token: Django's page, in the site's look (templates/403_csrf.html).
    csrf = Client(enforce_csrf_checks=True).post(reverse("login"), {"login": "ann", "password": "x"})
    assert csrf.status_code == 403 and "out of date" in csrf.content.decode()

    for response in (locked, csrf):
        assert_headers(response)
        assert refused(response.content.decode()) == []


def test_swagger_uis_start_up_script_is_a_file_of_this_site(client):
    page = client.get("/api/docs/").content.decode()
    assert '<script src="/api/docs/?script="></script>' in page

    script = client.get("/api/docs/?script=")

    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in script.content.decode() and '"/api/schema/"' in script.content.decode()


def test_the_pages_scripts_and_styles_are_static_files():
    for name in (
        "scorekeeper/site.js",
        "scorekeeper/site.css",
        "matches/hand_form.js",
        "matches/match_form.js",
        "api/swagger_ui.css",
    ):
        assert finders.find(name), name
