"""The pages of a club's events (issue 34), phone first: the club's events and a new one, an
event's page (entrants, rounds and tables, the director's actions, the standings), the live
endpoint its page and the projector poll, the projector, and the report (page and CSV).

An event is seen by whoever sees its club (``club_seen``, then ``event_seen``): anyone else
gets the 404 page, as for an event that does not exist. Every write is a POST to a service,
which checks the director role; a visitor not signed in is sent to sign in, and a refusal is
shown on the page as the service words it (never an error page).
"""

from __future__ import annotations

import csv
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.db.models import Count, Q
from django.http import Http404, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.clubs import selectors as clubs
from scorekeeper.clubs.models import Club, Role
from scorekeeper.errors import Conflict, DomainError, NotAllowed
from scorekeeper.matches.models import Match
from scorekeeper.matches.selectors import player_list, running_values
from scorekeeper.matches.terms import game_title
from scorekeeper.rules import RULESETS

from . import forms, selectors, services
from .models import Event, EventTable, Round
from .standings import Standing, event_points

#: A club night's tables form: as many tables as the players free could fill, at most this.
OPEN_TABLES_MAX = 4


# -- access --------------------------------------------------------------------------------
def _club(request, slug: str) -> Club:
    try:
        return clubs.club_seen(slug, request.user)
    except clubs.ClubNotFound:
        raise Http404(_("There is no club at this address.")) from None


def _event(request, slug: str, pk: int) -> Event:
    """The event ``pk`` of the club ``slug`` if the viewer may see it; the 404 page otherwise."""
    club = _club(request, slug)
    event = selectors.event_seen(club, pk)
    if event is None:
        raise Http404(_("There is no event at this address."))
    return event


def _refused(request, club: Club) -> HttpResponse:
    """The 403 page of a write that takes the director's role (the clubs' pages' own)."""
    message = _("Running the events of %(club)s takes the director's role.") % {"club": club.name}
    return render(request, "clubs/refused.html", {"club": club, "message": message}, status=403)


def _viewer(request, club: Club) -> dict[str, Any]:
    membership = clubs.membership_of(club, request.user)
    return {
        "club": club,
        "membership": membership,
        "is_admin": clubs.has_role(club, request.user, Role.ADMIN),
        "is_member": membership is not None or clubs.is_site_wide(request.user),
        "is_director": clubs.has_role(club, request.user, Role.DIRECTOR),
    }


def _write(view):
    """A director's action: POST only, signed in (else to sign in), the event seen; the view
    returns a message or raises the service's refusal, shown on the event's page."""

    @require_POST
    def action(request, slug: str, pk: int, **kwargs: Any):
        event = _event(request, slug, pk)
        if not request.user.is_authenticated:
            return redirect_to_login(event.get_absolute_url())
        if not clubs.has_role(event.club, request.user, Role.DIRECTOR):
            return _refused(request, event.club)
        try:
            done = view(request, event, **kwargs)
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            if done:
                messages.success(request, done)
        return redirect(event)

    action.__name__ = view.__name__
    action.__doc__ = view.__doc__
    return action


# -- showing figures -------------------------------------------------------------------------
def _figure(key: str, value: Any) -> str:
    """A standings value as the pages show it, in the reader's language."""
    if value is None or value == float("-inf"):
        return "—"
    if key == "lots":
        return str(1 - value)  # the place in the draw
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return formats.number_format(value.numerator)
        return formats.number_format(round(float(value), 2))
    return formats.number_format(value)


def _plain(key: str, value: Any) -> str:
    """The same value for a CSV file: a dot for the decimals, nothing for none."""
    if value is None or value == float("-inf"):
        return ""
    if key == "lots":
        return str(1 - value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return str(value)


def _columns(event: Event) -> list[tuple[str, str]]:
    return [(key, str(forms.TIEBREAK_LABELS.get(key, key))) for key in event.tiebreaks or ["points"]]


def _standing_rows(event: Event, table: list[Standing], names: dict[int, str]) -> list[dict[str, Any]]:
    keys = [key for key, _label in _columns(event)]
    return [
        {
            "player": row.player,
            "rank": row.rank,
            "name": names.get(row.player, "?"),
            "cells": [_figure(key, row.values.get(key)) for key in keys],
        }
        for row in table
    ]


def _score(table: EventTable) -> list[str] | None:
    """The running score of a table's match, seat by seat (its state's totals)."""
    values = running_values(table.match.state) if table.match is not None else None
    if not isinstance(values, list):
        return None
    return [formats.number_format(v) if isinstance(v, int | float) else str(v) for v in values]


def _table_status(table: EventTable) -> tuple[str, str]:
    if table.bye_id is not None:
        return "bye", _("bye")
    if table.forfeit is not None:
        return "forfeit", _("forfeit")
    assert table.match is not None
    return table.match.status, str(Match.Status(table.match.status).label)


def _tables(tables: list[EventTable], names: dict[int, str]) -> list[dict[str, Any]]:
    """Each table as the pages show it: its players by seat, running score, status, match."""
    seats = selectors.seats_of(tables)
    out = []
    for table in tables:
        score = _score(table)
        status, label = _table_status(table)
        players = [
            {
                "id": player,
                "name": names.get(player, "?"),
                "seat": i + 1,
                "score": score[i] if score and i < len(score) else "",
                "place": table.forfeit[i] if table.forfeit and i < len(table.forfeit) else None,
            }
            for i, player in enumerate(seats.get(table.pk, []))
        ]
        out.append(
            {
                "table": table,
                "id": table.pk,
                "round": table.round.number,
                "number": table.number,
                "title": _("Table %(number)s") % {"number": table.number},
                "players": players,
                "score": " – ".join(score) if score else "",
                "status": status,
                "status_label": label,
                "match": table.match,
                "playing": status == Match.Status.IN_PROGRESS,
                "fresh": status == Match.Status.IN_PROGRESS and table.match is not None
                and table.match.hand_count == 0,
            }
        )  # fmt: skip
    return out


def _live(event: Event, tag: str) -> dict[str, Any]:
    """What the live pages show: the standings and the current tables' running scores."""
    names = selectors.player_names(event)
    tables = _tables(selectors.live_tables(event), names)
    last = event.round_set.order_by("-number").first()
    return {
        "tag": tag,
        "event": event.name,
        "finished": event.finished_at is not None,
        "round": last.number if last else None,
        "round_title": _("Round %(number)s") % {"number": last.number} if last else "",
        "standings_title": _("Standings"),
        "columns": [_("Rank"), _("Player"), *(label for _key, label in _columns(event))],
        "standings": [
            {"player": row["player"], "cells": [str(row["rank"]), row["name"], *row["cells"]]}
            for row in _standing_rows(event, selectors.standings(event), names)
        ],
        "tables": [
            {
                "id": t["id"],
                "round": t["round"],
                "title": t["title"],
                "players": [
                    {"seat": p["seat"], "name": p["name"], "score": p["score"]} for p in t["players"]
                ],
                "score": t["score"],
                "status": t["status"],
                "status_label": t["status_label"],
            }
            for t in tables
        ],
    }


def _etag(event: Event) -> str:
    # The payload's words are in the reader's language: the tag names it too.
    return f'"{selectors.live_tag(event)}-{get_language() or ""}"'


# -- the club's events -------------------------------------------------------------------------
def event_list(request, slug: str):
    """``/clubs/<slug>/events/``: the club's events, newest first; a director makes a new one."""
    club = _club(request, slug)
    viewer = _viewer(request, club)
    form = forms.EventForm() if viewer["is_director"] else None
    status = 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not viewer["is_director"]:
            return _refused(request, club)
        form = forms.EventForm(request.POST)
        status = 400
        if form.is_valid():
            try:
                event = services.event_create(club=club, by=request.user, **form.service_fields())
            except DomainError as exc:
                forms.add_domain_error(form, exc)
                status = 403 if isinstance(exc, NotAllowed) else 409 if isinstance(exc, Conflict) else 400
            else:
                messages.success(request, _("The event %(name)s is made.") % {"name": event.name})
                return redirect(event)
    events = selectors.events_of(club).annotate(
        entrant_count=Count("entrants", filter=Q(entrants__withdrawn_at__isnull=True), distinct=True),
        round_count=Count("round_set", distinct=True),
    )
    rows = [{"event": event, "game": game_title(event.game)} for event in events]
    context = {**viewer, "events": rows, "form": form}
    return render(request, "events/event_list.html", context, status=status)


# -- an event ----------------------------------------------------------------------------------
def event_detail(request, slug: str, pk: int):
    event = _event(request, slug, pk)
    viewer = _viewer(request, event.club)
    names = selectors.player_names(event)
    entrants = list(selectors.entrants(event))
    active = [e for e in entrants if e.withdrawn_at is None]
    rounds: list[dict[str, Any]] = []
    for round_ in reversed(list(selectors.rounds(event))):
        tables = _tables([_with_round(t, round_) for t in selectors.round_tables(round_)], names)
        rounds.append({"round": round_, "tables": tables})
    last: dict[str, Any] | None = rounds[0] if rounds else None
    finder: list[dict[str, Any]] = []  # who sits where in the last round, by name
    if last is not None:
        finder = sorted(
            (
                {"name": p["name"], "table": t["number"], "seat": p["seat"], "bye": t["status"] == "bye",
                 "mine": _mine(request, p["id"])}
                for t in last["tables"]
                for p in t["players"]
            ),
            key=lambda row: str(row["name"]).casefold(),
        )  # fmt: skip
    table = selectors.standings(event)
    context = {
        **viewer,
        "event": event,
        "game": game_title(event.game),
        "entrants": entrants,
        "active_count": len(active),
        "rounds": rounds,
        "finder": finder,
        "mine": [row for row in finder if row["mine"]],
        "columns": _columns(event),
        "standings": _standing_rows(event, table, names),
        "etag": _etag(event),
        "open_round": selectors.open_round(event),
        "points": ", ".join(event.points),
    }
    if viewer["is_director"] and event.finished_at is None:
        context.update(_director_forms(request, event, active, last))
    return render(request, "events/event_detail.html", context)


def _with_round(table: EventTable, round_: Round) -> EventTable:
    table.round = round_  # read once for the round's every table
    return table


def _mine(request, player: int) -> bool:
    user = request.user
    return bool(user.is_authenticated and getattr(getattr(user, "player", None), "pk", None) == player)


def _director_forms(request, event: Event, active, last: dict[str, Any] | None) -> dict[str, Any]:
    entered = {e.player_id for e in active}
    club_players = player_list(viewer=request.user, club=event.club)
    choices = [(p.pk, p.name) for p in club_players if p.pk not in entered]
    out: dict[str, Any] = {"entrant_form": forms.EntrantForm(players=choices)}
    names = [(e.player_id, e.player.name) for e in active]
    if event.format == Event.Format.OPEN:
        busy = set(selectors.playing_now(event))
        free = [(pk, name) for pk, name in names if pk not in busy]
        seats = max(RULESETS[event.game].seat_counts) if event.game in RULESETS else event.table_size
        least = min(RULESETS[event.game].seat_counts) if event.game in RULESETS else 2
        count = max(1, min(OPEN_TABLES_MAX, len(free) // max(least, 1)))
        out["open_form"] = forms.OpenTablesForm(players=free, tables=count, seats=seats)
    if last is not None:
        fresh = [t for t in last["tables"] if t["fresh"] or t["status"] == "bye"]
        if len(fresh) >= 2 and any(t["fresh"] for t in fresh):
            seated = [(p["id"], f"{p['name']} · {t['title']}") for t in fresh for p in t["players"]]
            out["swap_form"] = forms.SwapForm(players=seated)
    for round_ in [last] if last else []:
        for t in round_["tables"]:
            if t["playing"]:
                t["forfeit_form"] = forms.ForfeitForm(seats=len(t["players"]), prefix=f"f{t['id']}")
    return out


# -- the director's actions ---------------------------------------------------------------------
@_write
def event_entrant_add(request, event: Event):
    entered = set(selectors.active_players(event))
    choices = [
        (p.pk, p.name) for p in player_list(viewer=request.user, club=event.club) if p.pk not in entered
    ]
    form = forms.EntrantForm(request.POST, players=choices)
    if not form.is_valid():
        raise services.EventInvalid(_("Choose a player of the club."), field="player")
    entrant = services.entrant_add(event=event, player=form.cleaned_data["player"], by=request.user)
    return _("%(name)s is entered.") % {"name": entrant.player.name}


@_write
def event_entrant_withdraw(request, event: Event, player: int):
    entrant = services.entrant_withdraw(event=event, player=player, by=request.user)
    return _("%(name)s is withdrawn.") % {"name": entrant.player.name}


@_write
def event_pair(request, event: Event):
    tables = None
    if event.format == Event.Format.OPEN:
        names = [(e.player_id, e.player.name) for e in selectors.entrants(event) if e.withdrawn_at is None]
        size = max(RULESETS[event.game].seat_counts) if event.game in RULESETS else event.table_size
        count = sum(1 for key in request.POST if key.startswith("t") and key.endswith("s1"))
        form = forms.OpenTablesForm(
            request.POST, players=names, tables=max(1, min(OPEN_TABLES_MAX, count)), seats=size
        )
        if not form.is_valid():
            raise services.EventInvalid(_("Choose the players of each table from the entrants."))
        tables = form.tables()
    round_ = services.round_pair(event=event, by=request.user, tables=tables)
    return _("Round %(number)s is paired.") % {"number": round_.number}


@_write
def event_swap(request, event: Event, number: int):
    round_ = event.round_set.filter(number=number).first()
    if round_ is None:
        raise Http404(_("There is no such round."))
    seated = [
        (p, str(p))
        for players in selectors.seats_of(selectors.round_tables(round_)).values()
        for p in players
    ]
    form = forms.SwapForm(request.POST, players=seated)
    if not form.is_valid():
        raise services.EventInvalid(_("Choose two players seated in this round."))
    done = services.round_swap(
        round=round_, first=form.cleaned_data["first"], second=form.cleaned_data["second"], by=request.user
    )
    for warning in done["warnings"]:
        names = selectors.player_names(event)
        who = ", ".join(names.get(p, "?") for p in warning.get("players", []))
        messages.warning(request, f"{warning['message']}: {who}")
    return _("The two players are swapped.")


@_write
def event_forfeit(request, event: Event, table: int):
    found = (
        EventTable.objects.filter(pk=table, round__event=event, replaced_at__isnull=True)
        .select_related("match")
        .first()
    )
    if found is None or found.match is None:
        raise Http404(_("There is no such table."))
    form = forms.ForfeitForm(request.POST, seats=found.match.seat_count, prefix=f"f{found.pk}")
    if not form.is_valid():
        raise services.EventInvalid(
            _("Give each seat a place from 1 to %(seats)s, and the reason.")
            % {"seats": found.match.seat_count}
        )
    services.table_forfeit(
        table=found, places=form.places(), by=request.user, reason=form.cleaned_data["reason"]
    )
    return _("Table %(number)s has its result.") % {"number": found.number}


@_write
def event_finish(request, event: Event):
    services.event_finish(event=event, by=request.user)
    return _("The event is finished: its standings are final.")


# -- live ---------------------------------------------------------------------------------------
@require_GET
def event_live(request, slug: str, pk: int):
    """The standings and the current tables' running scores as JSON, tagged: a poll that sends
    the tag back in ``If-None-Match`` gets 304 until something changes."""
    event = _event(request, slug, pk)
    etag, live = _live_answer(event)
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = JsonResponse(live)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Cookie", "Accept-Language"])
    return response


#: How long one reading of an event's live answer serves every screen that asks (seconds). A
#: room's screens poll every 3 s: at most 4 s after a hand it shows (the issue asks 5). While
#: tables play, the tag changes with every hand, and 50 screens would each rank the standings
#: again (club_night.py --event: the projectors' full answers took a core's fifth).
LIVE_SHARED_SECONDS = 1


def _live_answer(event: Event) -> tuple[str, dict[str, Any]]:
    """The live answer and its tag, read at most once a second for every screen of the event
    (one reading per language: its words are the reader's)."""
    key = f"events:live:{event.pk}:{get_language() or ''}"
    shared = cache.get(key)
    if shared is None:
        etag = _etag(event)
        shared = (etag, _live(event, etag.strip('"')))
        cache.set(key, shared, timeout=LIVE_SHARED_SECONDS)
    return shared


def event_projector(request, slug: str, pk: int):
    """The tables of the current round and the standings in large type, one screen at a time."""
    event = _event(request, slug, pk)
    etag, live = _live_answer(event)
    context = {
        "etag": etag,
        "club": event.club,
        "event": event,
        "live": live,
        "live_url": reverse("event-live", args=[event.club.slug, event.pk]),
    }
    return render(request, "events/event_projector.html", context)


# -- the report ---------------------------------------------------------------------------------
def _report(event: Event) -> dict[str, Any]:
    done = selectors.report(event)
    names = selectors.player_names(event)
    by_place = [Fraction(p) for p in event.points]
    matches = []
    for number, table_number, players, places, game_points, match_id in done.played.rows:
        earned = event_points(places, by_place) if places else {}
        bye = match_id is None
        matches.append(
            {
                "round": number,
                "table": table_number,
                "match": match_id,
                "bye": bye,
                "decided": bye or places is not None,
                "seats": [
                    {
                        "player": p,
                        "name": names.get(p, "?"),
                        "place": places.get(p) if places else None,
                        "points": Fraction(event.bye_points) if bye else earned.get(p),
                        "game_points": (game_points or {}).get(p),
                    }
                    for p in players
                ],
            }
        )
    return {"report": done, "names": names, "matches": matches}


def event_report(request, slug: str, pk: int):
    event = _event(request, slug, pk)
    found = _report(event)
    rows = _standing_rows(event, found["report"].standings, found["names"])
    for row in rows:
        change = found["report"].changes.get(row["player"])
        row["change"] = f"{change:+d}" if change is not None else "—"
    for match in found["matches"]:
        for seat in match["seats"]:
            seat["points_shown"] = _figure("points", seat["points"])
            seat["game_points_shown"] = _figure("game_points", seat["game_points"])
    context = {
        **_viewer(request, event.club),
        "event": event,
        "game": game_title(event.game),
        "columns": _columns(event),
        "standings": rows,
        "matches": found["matches"],
    }
    return render(request, "events/event_report.html", context)


def event_report_csv(request, slug: str, pk: int):
    """The standings (every tie-break column and the rating change), a blank line, then every
    table's seats with their places and points."""
    event = _event(request, slug, pk)
    found = _report(event)
    keys = [key for key, _label in _columns(event)]
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}.csv"'
    writer = csv.writer(response, lineterminator="\r\n")
    writer.writerow(["rank", "player", *keys, "rating_change"])
    for row in found["report"].standings:
        change = found["report"].changes.get(row.player)
        writer.writerow(
            [
                row.rank,
                found["names"].get(row.player, ""),
                *(_plain(key, row.values.get(key)) for key in keys),
                "" if change is None else f"{change:+d}",
            ]
        )
    writer.writerow([])
    writer.writerow(["round", "table", "seat", "player", "place", "points", "game_points", "match"])
    for match in found["matches"]:
        for seat_number, seat in enumerate(match["seats"], start=1):
            writer.writerow(
                [
                    match["round"],
                    match["table"],
                    seat_number,
                    seat["name"],
                    "bye" if match["bye"] else (seat["place"] if seat["place"] is not None else ""),
                    _plain("points", seat["points"]),
                    _plain("game_points", seat["game_points"]),
                    match["match"] or "",
                ]
            )
    return response
