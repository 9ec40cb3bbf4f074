"""The ratings' pages (issue 13): the leaderboards and a player's profile with his ratings.
Read-only, for anyone; read through the reads (``ratings.reads``) and the matches' selectors, each page in
a number of queries that does not grow with what it lists.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page, Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, ngettext

from scorekeeper.clubs.selectors import club_seen, is_site_wide
from scorekeeper.errors import DomainError
from scorekeeper.matches import selectors as match_selectors
from scorekeeper.matches.models import Player, Seat
from scorekeeper.matches.views.club import MATCHES_PER_PAGE
from scorekeeper.rules import RULESETS

from . import display
from .charts import line_chart
from .raters import rater
from .reads import boards, player_history, seasons, visibility

PLAYERS_PER_PAGE = 50
#: What the profile's match list shows of a match (its title, status, game and day, its seats'
#: running totals from the state, the places from the result): the other columns are not read.
LISTED_MATCH_FIELDS = ("id", "game", "title", "status", "created_at", "state", "result")


def leaderboards(request):
    """``/leaderboards/``: every rated game, its best players."""
    # The federation's boards for anyone but staff: no private-only player (issue 33).
    overview = boards.leaderboards_overview(top=5, federation=not is_site_wide(request.user))
    rated = {board["game"] for board in overview}
    context = {
        "boards": overview,
        "unrated": [key for key in sorted(RULESETS) if key not in rated],
    }
    return render(request, "ratings/leaderboards.html", context)


def leaderboard(request, game: str):
    """``/leaderboards/<game>/``: the game's established players by displayed rating, paged,
    then its provisional players (fewer rated matches than the board needs), paged apart."""
    if game not in RULESETS:
        raise Http404(f"unknown game {game!r}")
    board = boards.board_filter_for(request.user, game)  # the federation's, but for staff
    pages = {}
    for provisional, parameter in ((False, "page"), (True, "newcomers")):
        # Paged as ids, read from the boards' index; then the page's rows (boards.leaderboard_page).
        ids = boards.leaderboard(game=game, board=board, provisional=provisional).values_list("pk", flat=True)
        # A page of ids, then of their rows.
        page: Page[Any] = Paginator(ids, PLAYERS_PER_PAGE).get_page(request.GET.get(parameter))
        page.object_list = boards.leaderboard_page(
            page.object_list, game=game, board=board, provisional=provisional, offset=page.start_index() - 1
        )
        boards.mark(page.object_list, board)
        pages[parameter] = page
    context = {"game": game, "page": pages["page"], "newcomers": pages["newcomers"], "board": board}
    return render(request, "ratings/leaderboard.html", context)


def player_detail(request, pk: int):
    """``/players/<id>/``: per game his rating, place, chart, matches, wins and places; the
    overall cul rating; his matches with their results (paged as the match list is)."""
    # Issue 33: a player of private clubs only is a 404 to outsiders; of one who plays in
    # public and private clubs they see what the clubs they see hold (his rating is the one).
    player = visibility.player_seen(pk, request.user)
    clubs = visibility.clubs_for_player(player, visibility.clubs_of_viewer(request.user))
    federation = not is_site_wide(request.user)
    histories = player_history.player_histories(player=player, clubs=clubs)
    games = []
    for rating in player_history.player_ratings(player=player, clubs=clubs, federation=federation):
        game = rating.pool.game
        history = histories.get(game, [])
        boards.mark([rating])  # (the provisional mark from the counts the viewer sees)
        games.append({
            "game": game,
            "rating": rating,
            "places": player_history.places_count(history),
            "chart": _rating_chart(history),
            "chart_desc": _chart_desc(history),
        })  # fmt: skip
    # His matches with their seats only (the list shows no scorers, no creator), counted from
    # his seats (an index-only count, where the matches' count joined each of his matches).
    matches = match_selectors.match_with_seats().filter(seats__player=player).only(*LISTED_MATCH_FIELDS)
    if clubs is None:
        paginator = Paginator(matches, MATCHES_PER_PAGE)
        paginator.count = Seat.objects.filter(player=player).count()  # one seat a match (a constraint)
        page = paginator.get_page(request.GET.get("page"))
    else:
        page = _matches_in_clubs(request, player, clubs)
    changes = player_history.rating_changes(
        histories, player=player, match_ids=[match.pk for match in page.object_list]
    )
    rows = []
    for match in page.object_list:
        rows.append({"match": match, "place": _place_of(match, player), "change": changes.get(match.pk)})
    context: dict[str, Any] = {
        "player": player, "games": games, "page": page, "rows": rows,
        "player_clubs": clubs,  # for his rivals ({% rivals_of %}): one probe of his clubs a page
    }  # fmt: skip
    return render(request, "ratings/player_detail.html", context)


def _matches_in_clubs(request, player: Player, clubs) -> Page:
    """Issue 33: the page of his matches in ``clubs`` (he plays in clubs the viewer does not
    see), paged through his seats in those clubs, newest first, then the page's matches read
    by id: the guarded match list (its club filter and his seats) walked every match of the
    site by its date."""
    seats = visibility.in_clubs(Seat.objects.filter(player=player), clubs)
    # His seats' matches and their dates read whole (hundreds of rows, through his seats'
    # index) and sorted here: ordered in the statement, the planner walked the matches' date
    # index through every match of the site looking for his.
    dated = seats.order_by().values_list("match__created_at", "match_id")
    ids = [pk for _at, pk in sorted(dated, reverse=True)]
    page: Page[Any] = Paginator(ids, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    shown = match_selectors.match_with_seats().only(*LISTED_MATCH_FIELDS).in_bulk(list(page.object_list))
    page.object_list = [shown[pk] for pk in page.object_list if pk in shown]
    return page


def _place_of(match, player: Player) -> int | None:
    result = match.result if isinstance(match.result, dict) else {}
    places = result.get("placements")
    for seat in match.seats.all():
        if seat.player_id == player.pk and isinstance(places, list) and seat.position < len(places):
            return places[seat.position]
    return None


def _rating_chart(history):
    """His displayed rating before his first rated match, then after each one."""
    if not history:
        return None
    first = history[0]
    model = rater()
    values = [display.displayed(first.mu_before, first.sigma_before, model=model).rating]
    labels = [""]
    # ``display.displayed(mu, sigma).rating`` of every row, its scale taken once (a point per
    # rated match: hundreds), and a day's label formatted once (a club plays several matches
    # an evening).
    k, start = display.points_per_mu(model), model.mu
    days: dict = {}
    for row in history:
        values.append(round(display.NEWCOMER + k * (row.mu_after - start)))
        label = days.get(row.day)
        if label is None:
            label = days[row.day] = date_format(row.day, "SHORT_DATE_FORMAT")
        labels.append(label)
    return line_chart(values, labels)


def _chart_desc(history) -> str:
    if not history:
        return ""
    first, last = history[0], history[-1]
    return ngettext(
        "%(count)s rated match on %(first)s; the rating went from %(start)s to %(end)s.",
        "%(count)s rated matches from %(first)s to %(last)s; the rating went from %(start)s to %(end)s.",
        len(history),
    ) % {
        "count": len(history),
        "first": date_format(first.day, "SHORT_DATE_FORMAT"),
        "last": date_format(last.day, "SHORT_DATE_FORMAT"),
        "start": number_format(display.rating(first.mu_before, first.sigma_before)),
        "end": number_format(display.rating(last.mu_after, last.sigma_after)),
    }


def season(request, game: str):
    """``/leaderboards/<game>/season/?from=&to=``: the board of a period (ISO days in the page's
    time zone; by default this month): each player's rating at its end, his matches and wins in
    it and the change over it. A bad or inverted range is named on the page (a 400)."""
    if game not in RULESETS:
        raise Http404(f"unknown game {game!r}")
    zone = timezone.get_current_timezone()
    today = seasons.today_in(zone)
    form = seasons.PeriodForm(request.GET or None, today=today)
    context: dict[str, Any] = {
        "game": game,
        "form": form,
        "shortcuts": [
            (gettext("This month"), seasons.this_month(today)),
            (gettext("Last month"), seasons.last_month(today)),
            (gettext("This year"), seasons.this_year(today)),
        ],
    }
    if request.GET and not form.is_valid():
        return render(request, "ratings/season.html", context, status=400)
    period = form.cleaned_data["period"] if request.GET else seasons.this_month(today)
    start, end = period.bounds(zone)
    clubs = visibility.clubs_of_viewer(request.user)  # the players and matches the viewer sees
    rows = seasons.season_board(game=game, start=start, end=end, clubs=clubs)
    page = Paginator(rows, PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    context.update({"period": period, "page": page})
    return render(request, "ratings/season.html", context)


def club_board(request, slug: str, game: str):
    """``/clubs/<slug>/board/<game>/``: the club's board, the players who played rated matches
    of the game in the club by their federation ratings, with their matches in the club and
    the change this season; its provisional players apart (a private club: a 404 to outsiders)."""
    if game not in RULESETS:
        raise Http404(f"unknown game {game!r}")
    try:
        club = club_seen(slug, request.user)
    except DomainError as exc:
        raise Http404(str(exc)) from None
    board = boards.BoardFilter.default()
    pages = {}
    for provisional, parameter in ((False, "page"), (True, "newcomers")):
        rows = boards.club_board(club, game, board=board, provisional=provisional)
        page: Page[Any] = Paginator(rows, PLAYERS_PER_PAGE).get_page(request.GET.get(parameter))
        entries = list(page.object_list)
        # The board's template reads rating rows: each one with its club's rank and figures.
        for entry in entries:
            entry.rating.rank = entry.rank
            entry.rating.club_matches = entry.club_matches
            entry.rating.season_change = entry.season_change
        page.object_list = [entry.rating for entry in entries]
        pages[parameter] = page
        if not provisional:
            shown = entries
    context = {"game": game, "page": pages["page"], "newcomers": pages["newcomers"], "board": board,
               "club": club, "club_rows": shown}  # fmt: skip
    return render(request, "ratings/leaderboard.html", context)
