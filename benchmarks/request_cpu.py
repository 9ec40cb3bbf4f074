"""CPU per request, in-process: each kind of request the club night makes, through Django's WSGI handler.

    DATABASE_URL=postgres://USER@127.0.0.1:5432/DB REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python benchmarks/request_cpu.py prepare [--members 400] [--history 20000]
    DATABASE_URL=… REDIS_URL=… .venv/bin/python benchmarks/request_cpu.py run \\
        [--parties 6] [--repeat 3] [--root OTHER_CHECKOUT] [--profile KIND] [--callgrind]

Not a test and not run in CI. ``benchmarks/club_night.py`` measures latency against gunicorn;
on a machine that other work loads its wall-clock figures are noise. This measures what a
request costs the web process in CPU (``time.process_time``: this process's user + system
time; PostgreSQL's own work is in its server process and not counted, Redis's likewise),
which the machine's other load barely moves, so that two versions of the code compare:

- ``prepare`` makes the scratch database ``<DB>_requestcpu`` (afresh) with the club night's
  past (``club_night.prepare``: ``--members`` players, ``--history`` finished piquet matches,
  rated) and four scorers, two phones (a signed-in session) and two apps (a token); it writes
  what the runs need (the credentials, the secret key the sessions are signed with, the
  members, the demo's parties) to ``/tmp/request_cpu_<DB>.json``. The database is kept.
- ``run`` loads the site in production mode (DJANGO_DEBUG=0, the site's middleware and
  settings, ``benchmarks/club_settings.py`` as the night's gunicorn has them: the tasks on a
  queue of the run's own, the hashed static files) and plays, in one thread, what the night's
  clients send: ``--parties`` parties as a phone on the pages (the new-match page, its
  "chances", the match's creation and its sheet; each hand's form, live check, save and the
  recorded hand it redirects to; three rating polls and the sheet at the finish) and as many
  as an app on the API (the match's creation; each hand's dry run and save with an
  Idempotency-Key; three rating polls), and after each hand the night's share of reads (20
  readers at 50 reads a second for 40 hands a second: 1.25 a hand, in the readers' mix). Each
  request is a WSGI call (``scorekeeper.wsgi.application``) with the headers the night's
  clients send, its answer read to the end and closed, as gunicorn does. The whole is played
  ``--repeat`` times after one warm-up partie of each; the first is not counted.

It prints per kind the number of requests, the CPU ms per request (median over the repeats
of each repeat's mean, and the lowest), the SQL statements per request, and the night's CPU
per hand recorded by the web process (every request above, divided by the hands).

``--root DIR`` runs another checkout's code (e.g. ``git archive`` of the main branch into a
folder, with this file given by path) on the same database: before and after, alternating,
compare on a noisy machine. ``--profile KIND`` prints cProfile's top functions for that kind
(a substring of its name; "" for all), timed in CPU. ``--calls`` adds each kind's Python function
calls per request and per hand: the same from one run to the next whatever the machine's load
(a second process on the same cores moves CPU time by ±20%), a proxy for the CPU a change saves.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import re
import secrets
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode, urlparse

HERE = Path(__file__).resolve().parent.parent

#: Reads per hand recorded at the night's rates (20 readers, ~50 reads/s; ~40 hands/s).
READS_PER_HAND = 1.25
#: Rating polls per finished match (every 100 ms until the rating shows: ~0.15 s at ×10).
POLLS_PER_FINISH = 3

KINDS = [
    "hand form GET (page)",
    "live check POST (page)",
    "save POST (page)",
    "recorded hand GET (page)",
    "new-match page GET",
    "chances POST (page)",
    "new match POST (page)",
    "score sheet GET (page)",
    "dry run POST (API)",
    "hand POST (API)",
    "new match POST (API)",
    "leaderboards GET (page)",
    "board page GET (page)",
    "board GET (API)",
    "profile GET (page)",
    "ratings GET (API)",
    "rating poll GET (API)",
]


def state_file(url: str) -> Path:
    return Path(tempfile.gettempdir()) / f"request_cpu_{urlparse(url).path.lstrip('/')}.json"


def environment(root: Path, state: dict | None) -> None:
    """The club night's gunicorn environment (production mode), before Django loads."""
    os.chdir(root)
    sys.path.insert(0, str(root))
    os.environ.update(
        DJANGO_SETTINGS_MODULE="benchmarks.club_settings",
        CLUB_NIGHT_QUEUE=f"requestcpu-{secrets.token_hex(4)}",
        DJANGO_DEBUG="0",
        DJANGO_SECURE_SSL_REDIRECT="0",  # plain HTTP, no TLS proxy, as the night's
        DJANGO_LOG_LEVEL="ERROR",
    )
    if state is not None:
        os.environ.update(
            DATABASE_URL=state["database_url"],
            DJANGO_SECRET_KEY=state["secret_key"],
            CLUB_NIGHT_STATIC=state["static"],
        )


# -- prepare -------------------------------------------------------------------------------
def prepare(args) -> None:
    url = os.environ.get("DATABASE_URL", "")
    if not url or not os.environ.get("REDIS_URL"):
        sys.exit("error: set DATABASE_URL (PostgreSQL) and REDIS_URL (a Redis database of its own)")
    environment(HERE, None)
    from benchmarks.club_night import prepare as club_prepare
    from benchmarks.scratch_db import scratch_database

    scratch, _drop = scratch_database(url, "requestcpu", keep=True)
    static = tempfile.mkdtemp(prefix="request-cpu-static-")
    secret = secrets.token_urlsafe(50)
    os.environ.update(DATABASE_URL=scratch, DJANGO_SECRET_KEY=secret, CLUB_NIGHT_STATIC=static)
    club = club_prepare(tables=4, phones=2, members=args.members, history=args.history, seed=23)
    credentials = club["credentials"]  # [phone, phone, app, app, the warm-up phone, app]
    state = {
        "database_url": scratch,
        "secret_key": secret,
        "static": static,
        "sessions": [credentials[0], credentials[1]],
        "tokens": [credentials[2], credentials[3]],
        "member_ids": club["member_ids"],
        "parties": club["parties"],
    }
    state_file(url).write_text(json.dumps(state))
    print(f"prepared {scratch}; state in {state_file(url)}")


# -- the WSGI client -----------------------------------------------------------------------
class Answer:
    def __init__(self, status: int, headers: list[tuple[str, str]], body: bytes):
        self.status, self.headers, self.body = status, headers, body

    def header(self, name: str) -> str:
        return next((v for k, v in self.headers if k.lower() == name.lower()), "")

    def json(self):
        return json.loads(self.body)


class Device:
    """A phone (its cookies) or an app (its token) calling the WSGI application directly."""

    def __init__(self, app, meter, *, session: str = "", token: str = ""):
        self.app, self.meter, self.token = app, meter, token
        self.cookies = {"sessionid": session} if session else {}

    def call(self, kind, method, path, *, json_body=None, form=None, headers=None, expect=(200,)):
        path, _, query = path.partition("?")
        body = b""
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": path,
            "QUERY_STRING": query,
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "8000",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "SCRIPT_NAME": "",
            "wsgi.version": (1, 0),
            "wsgi.url_scheme": "http",
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": False,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            "HTTP_HOST": "127.0.0.1:8000",
            "HTTP_ACCEPT_LANGUAGE": "en",
            "HTTP_CONNECTION": "keep-alive",
        }
        if json_body is not None:
            body = json.dumps(json_body).encode()
            environ["CONTENT_TYPE"] = "application/json"
        elif form is not None:
            body = urlencode(form, doseq=True).encode()
            environ["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
        environ["CONTENT_LENGTH"] = str(len(body))
        environ["wsgi.input"] = io.BytesIO(body)
        if self.token:
            environ["HTTP_AUTHORIZATION"] = f"Token {self.token}"
        if self.cookies:
            environ["HTTP_COOKIE"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for name, value in (headers or {}).items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        got: list = []

        def start_response(status, response_headers, exc_info=None):
            got[:] = [int(status.split()[0]), response_headers]

        with self.meter.measure(kind):
            result = self.app(environ, start_response)
            try:
                data = b"".join(result)
            finally:
                if hasattr(result, "close"):
                    result.close()
        status, response_headers = got
        for name, value in response_headers:
            if name.lower() == "set-cookie":
                cookie, _, _ = value.partition(";")
                key, _, val = cookie.partition("=")
                if val and "max-age=0" not in value.lower():
                    self.cookies[key.strip()] = val.strip('"')
                else:
                    self.cookies.pop(key.strip(), None)
        if status not in expect:
            sys.exit(f"error: {kind}: {method} {path} answered {status}: {data[:300]!r}")
        return Answer(status, response_headers, data)


class Meter:
    """CPU seconds and SQL statements per kind, for the counted repeats; an optional profile."""

    def __init__(self, profile: str | None, calls: bool = False):
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.queries: dict[str, list[int]] = defaultdict(list)
        self.calls: dict[str, list[int]] = defaultdict(list)
        self.count_calls = calls
        self.counting = False
        self.profile_kind = profile
        self.sql: str | None = None
        self.sql_shown: set[str] = set()
        self.profiler = cProfile.Profile(time.process_time) if profile is not None else None
        self.profiled_calls = 0  # the profile's calls so far: a profiled request's are the difference

    def measure(self, kind: str):
        meter = self

        class _Measure:
            def __enter__(self):
                from django.db import connection

                self.profiling = meter.counting and meter.profiler is not None and meter.profile_kind in kind
                show = meter.counting and meter.sql is not None and meter.sql in kind
                self.queries = QueryCounter(kind if show and kind not in meter.sql_shown else None)
                if show:
                    meter.sql_shown.add(kind)
                self.wrapper = connection.execute_wrapper(self.queries)
                self.wrapper.__enter__()
                # One profiler at a time: a profiled request's calls are counted by the profile.
                counting_calls = meter.counting and meter.count_calls and not self.profiling
                self.counter = cProfile.Profile() if counting_calls else None
                if self.profiling:
                    meter.profiler.enable()
                elif self.counter is not None:
                    self.counter.enable()
                self.started = time.process_time()

            def __exit__(self, *exc):
                used = time.process_time() - self.started
                if self.profiling:
                    meter.profiler.disable()
                    if meter.count_calls:
                        total = pstats.Stats(meter.profiler).total_calls
                        meter.calls[kind].append(total - meter.profiled_calls)
                        meter.profiled_calls = total
                elif self.counter is not None:
                    self.counter.disable()
                self.wrapper.__exit__(*exc)
                if meter.counting:
                    meter.cpu[kind].append(used)
                    meter.queries[kind].append(self.queries.count)
                    if self.counter is not None:
                        meter.calls[kind].append(pstats.Stats(self.counter).total_calls)

        return _Measure()


class QueryCounter:
    """Counts a request's statements; prints them for the first request of a kind ``--sql`` names."""

    def __init__(self, kind: str | None = None):
        self.count = 0
        self.kind = kind

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        if self.kind is not None:
            print(f"  SQL {self.kind}: {sql[:400]}")
        return execute(sql, params, many, context)


def html_value(page: bytes, name: str) -> str:
    found = re.search(rb'name="' + re.escape(name.encode()) + rb'" value="([^"]*)"', page)
    return found.group(1).decode() if found else ""


# -- the night's requests ------------------------------------------------------------------
class Night:
    def __init__(self, app, meter, state, rng):
        self.app, self.meter, self.state, self.rng = app, meter, state, rng
        self.members = state["member_ids"]
        self.board_pages = max(1, -(-len(self.members) // 50))
        self.reader = Device(app, meter)
        self.reads_owed = 0.0
        self.hands = 0

    def hand_recorded(self) -> None:
        self.hands += 1
        self.reads_owed += READS_PER_HAND
        while self.reads_owed >= 1:
            self.reads_owed -= 1
            self.read()

    def read(self) -> None:
        member = self.rng.choice(self.members)
        page = self.rng.randint(1, self.board_pages)
        choice = self.rng.randrange(5)
        call = self.reader.call
        if choice == 0:
            call("leaderboards GET (page)", "GET", "/leaderboards/")
        elif choice == 1:
            call("board page GET (page)", "GET", f"/leaderboards/piquet/?page={page}")
        elif choice == 2:
            call("board GET (API)", "GET", f"/api/v1/leaderboards/piquet?page={page}")
        elif choice == 3:
            call("profile GET (page)", "GET", f"/players/{member}/")
        else:
            call("ratings GET (API)", "GET", f"/api/v1/players/{member}/ratings")

    def polls(self, device: Device, player: int) -> None:
        for _ in range(POLLS_PER_FINISH):
            device.call(
                "rating poll GET (API)", "GET", f"/api/v1/players/{player}/ratings/piquet/history?page_size=1"
            )

    def phone_partie(self, device: Device, partie: dict, players: list[int]) -> None:
        new = "/matches/new/piquet/"
        got = device.call("new-match page GET", "GET", new)
        form = {
            "csrfmiddlewaretoken": html_value(got.body, "csrfmiddlewaretoken"),
            "title": "",
            "preset": "classic",
            "seat_0": players[0],
            "seat_1": players[1],
            "new_0": "",
            "new_1": "",
        }
        # The page's script asks for the chances once both seats are chosen (match_form.js).
        device.call("chances POST (page)", "POST", new, form={**form, "chances": "1", "fragment": "chances"})
        got = device.call("new match POST (page)", "POST", new, form=form, expect=(302,))
        sheet = got.header("Location")
        found = re.search(r"/matches/(\d+)/", sheet)
        assert found, f"a new match redirects to its score sheet, not {sheet!r}"
        match_id = int(found.group(1))
        device.call("score sheet GET (page)", "GET", sheet)
        for n, fields in enumerate(partie["forms"], 1):
            got = device.call("hand form GET (page)", "GET", f"/matches/{match_id}/hands/new/")
            data = {
                **fields,
                "csrfmiddlewaretoken": html_value(got.body, "csrfmiddlewaretoken"),
                "version": html_value(got.body, "version"),
            }
            got = device.call(
                "live check POST (page)",
                "POST",
                f"/matches/{match_id}/hands/check/",
                form=data,
                headers={"X-CSRFToken": data["csrfmiddlewaretoken"], "Accept": "application/json"},
            )
            if not got.json().get("savable"):
                sys.exit(f"error: the live check of match {match_id} hand {n}: {got.body[:300]!r}")
            got = device.call(
                "save POST (page)", "POST", f"/matches/{match_id}/hands/new/", form=data, expect=(302,)
            )
            device.call("recorded hand GET (page)", "GET", got.header("Location"))
            self.hand_recorded()
            if n == partie["finish"]:
                self.polls(device, players[0])
                device.call("score sheet GET (page)", "GET", sheet)

    def app_partie(self, device: Device, partie: dict, players: list[int]) -> None:
        got = device.call(
            "new match POST (API)",
            "POST",
            "/api/v1/matches",
            json_body={"game": "piquet", "players": players},
            expect=(201,),
        )
        match = got.json()
        match_id, version, state = match["id"], match["version"], None
        for n, record in enumerate(partie["records"], 1):
            dry_run = {
                "preset": match["preset"],
                "options": match["options"],
                "seats": len(players),
                "state": state,
                "hand": record,
            }
            got = device.call("dry run POST (API)", "POST", "/api/v1/rules/piquet/score", json_body=dry_run)
            if not got.json().get("valid"):
                sys.exit(f"error: the dry run of match {match_id} hand {n}: {got.body[:300]!r}")
            got = device.call(
                "hand POST (API)",
                "POST",
                f"/api/v1/matches/{match_id}/hands",
                json_body={"record": record, "version": version},
                headers={"Idempotency-Key": str(uuid.uuid4())},
                expect=(201,),
            )
            written = got.json()
            version, state = written["version"], written["match"]["state"]
            self.hand_recorded()
            if n == partie["finish"]:
                self.polls(device, players[0])

    def play(self, parties: int, offset: int) -> None:
        sessions, tokens, members = self.state["sessions"], self.state["tokens"], self.members
        all_parties = self.state["parties"]
        for i in range(parties):
            partie = all_parties[(offset + i) % len(all_parties)]
            seats = members[0:2] if i % 2 == 0 else members[1::-1]
            self.phone_partie(Device(self.app, self.meter, session=sessions[i % 2]), partie, seats)
            seats = members[2:4] if i % 2 == 0 else members[3:1:-1]
            self.app_partie(Device(self.app, self.meter, token=tokens[i % 2]), partie, seats)


def run(args) -> None:
    url = os.environ.get("DATABASE_URL", "")
    path = state_file(url)
    if not path.exists():
        sys.exit(f"error: no {path}: run `request_cpu.py prepare` first with this DATABASE_URL")
    state = json.loads(path.read_text())
    root = Path(args.root).resolve() if args.root else HERE
    environment(root, state)
    import random

    from scorekeeper.wsgi import application  # django.setup(), as gunicorn's worker

    meter = Meter(args.profile, calls=args.calls)
    meter.sql = args.sql
    night = Night(application, meter, state, random.Random(23))
    night.play(2, offset=0)  # warm-up: every path imported, connected, cached
    per_repeat: dict[str, list[float]] = defaultdict(list)
    per_hand = []
    total_hands = 0
    for repeat in range(args.repeat):
        meter.cpu.clear()
        meter.counting = True
        night.hands = 0
        night.play(args.parties, offset=2 + repeat * args.parties)
        meter.counting = False
        for kind, values in meter.cpu.items():
            per_repeat[kind].append(statistics.fmean(values))
        per_hand.append(sum(sum(v) for v in meter.cpu.values()) / night.hands)
        total_hands += night.hands
    print(
        f"code: {root} ({commit_of(root)}); {args.repeat} repeats of {args.parties} parties per "
        f"device kind; load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}"
    )
    calls = " Python calls |" if args.calls else ""
    print(f"\n| request | count | CPU ms (median of repeats) | lowest | SQL |{calls}")
    print("|---|---|---|---|---|" + ("---|" if args.calls else ""))
    for kind in KINDS:
        if kind in per_repeat:
            means = per_repeat[kind]
            queries = statistics.fmean(meter.queries[kind])
            row = (
                f"| {kind} | {len(meter.cpu[kind])} | {statistics.median(means) * 1000:.2f} | "
                f"{min(means) * 1000:.2f} | {queries:.1f} |"
            )
            if args.calls:
                row += f" {statistics.fmean(meter.calls[kind]):,.0f} |"
            print(row)
    print(
        f"\nthe web process's CPU per hand recorded (every request above, reads and polls included): "
        f"median {statistics.median(per_hand) * 1000:.1f} ms, lowest {min(per_hand) * 1000:.1f} ms"
    )
    if args.calls:
        every = sum(sum(values) for values in meter.calls.values())
        print(f"Python function calls per hand recorded (the same requests): {every / total_hands:,.0f}")
    forget_queue(os.environ["CLUB_NIGHT_QUEUE"])
    if meter.profiler is not None:
        out = io.StringIO()
        stats = pstats.Stats(meter.profiler, stream=out).sort_stats(args.sort)
        stats.print_stats(args.top)
        if args.dump:
            stats.dump_stats(args.dump)
        print(out.getvalue())


def forget_queue(queue: str) -> None:
    """Drop this run's task queue from Redis: no worker takes it (the ratings are not the point)."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    for key in client.scan_iter(match=f"*{queue}*"):
        client.delete(key)


def commit_of(root: Path) -> str:
    head = root / "COMMIT"  # a `git archive` has no .git: its folder may name its commit here
    if head.exists():
        return head.read_text().strip()
    try:
        import subprocess

        return subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare", help="the scratch database with the club's past")
    p.add_argument("--members", type=int, default=400)
    p.add_argument("--history", type=int, default=20000)
    r = sub.add_parser("run", help="measure")
    r.add_argument("--parties", type=int, default=4, help="parties per device kind per repeat")
    r.add_argument("--repeat", type=int, default=3)
    r.add_argument("--root", help="another checkout whose code to run (the same database)")
    r.add_argument("--profile", help="cProfile the kinds whose name holds this")
    r.add_argument("--sort", default="cumulative")
    r.add_argument("--top", type=int, default=60)
    r.add_argument("--sql", help="print the SQL of the first request of the kinds whose name holds this")
    r.add_argument("--dump", help="write the profile to this file (pstats)")
    r.add_argument(
        "--calls",
        action="store_true",
        help="count each request's Python function calls (cProfile: deterministic where CPU time is "
        "noise on a loaded machine; the CPU column then includes the counting's overhead)",
    )
    args = parser.parse_args()
    prepare(args) if args.command == "prepare" else run(args)


if __name__ == "__main__":
    main()
