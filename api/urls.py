"""The API's URLs, included under /api/ (scorekeeper/urls.py): v1, the OpenAPI schema, its UI."""

from csp.decorators import csp_update
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import (
    auth,
    club_boards,
    clubs,
    events,
    exceptions,
    exchange,
    games,
    hands,
    matches,
    people,
    personal,
    players,
    ratings,
    root,
)

v1 = [
    path("", root.ApiRoot.as_view(), name="root"),
    path("auth/token", auth.TokenCreate.as_view(), name="token"),
    path("auth/logout", auth.TokenLogout.as_view(), name="logout"),
    path("games", games.GameList.as_view(), name="game-list"),
    path("games/<str:game>", games.GameDetail.as_view(), name="game-detail"),
    path("rules/<str:game>/score", games.RulesScore.as_view(), name="rules-score"),
    path("players", players.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>", players.PlayerDetail.as_view(), name="player-detail"),
    path("players/claim", players.PlayerClaim.as_view(), name="player-claim"),
    path("matches", matches.MatchList.as_view(), name="match-list"),
    path("matches/<int:pk>", matches.MatchDetail.as_view(), name="match-detail"),
    path("matches/<int:pk>/scorers", matches.MatchScorers.as_view(), name="match-scorers"),
    path("matches/<int:pk>/void", matches.MatchVoid.as_view(), name="match-void"),
    path("matches/<int:pk>/reopen", matches.MatchReopen.as_view(), name="match-reopen"),
    path("matches/<int:pk>/hands", hands.HandList.as_view(), name="hand-list"),
    path("matches/<int:pk>/hands/<int:number>", hands.HandDetail.as_view(), name="hand-detail"),
    path("matches/<int:pk>/hands/<int:number>/history", hands.HandHistory.as_view(), name="hand-history"),
    path(
        "matches/<int:pk>/hands/<int:number>/corrections",
        hands.HandCorrections.as_view(),
        name="hand-corrections",
    ),
    path("matches/<int:pk>/hands/<int:number>/confirm", hands.HandConfirm.as_view(), name="hand-confirm"),
    path("matches/<int:pk>/hands/<int:number>/dispute", hands.HandDispute.as_view(), name="hand-dispute"),
    path(
        "matches/<int:pk>/players/<int:player>/claim-code",
        players.PlayerClaimCodeCreate.as_view(),
        name="player-claim-code",
    ),
    # export and import (api/exchange.py)
    path("matches/import", exchange.MatchImport.as_view(), name="match-import"),
    path("matches/<int:pk>/export", exchange.MatchExport.as_view(), name="match-export"),
    re_path(
        r"^matches/(?P<pk>[0-9]+)/export\.(?P<format>json|csv)$",
        exchange.MatchExport.as_view(),
        name="match-export-as",
    ),
    # leaderboards, ratings, predictions (api/ratings.py)
    path("leaderboards/<str:game>", ratings.Leaderboard.as_view(), name="leaderboard"),
    path("leaderboards/<str:game>/season", ratings.SeasonLeaderboard.as_view(), name="leaderboard-season"),
    path("players/<int:pk>/ratings", ratings.PlayerRatings.as_view(), name="player-ratings"),
    path(
        "players/<int:pk>/ratings/<str:game>/history",
        ratings.PlayerRatingHistory.as_view(),
        name="player-rating-history",
    ),
    path("predict", ratings.Predict.as_view(), name="predict"),
    path("ratings/recompute", ratings.RecomputeList.as_view(), name="rating-recompute-list"),
    path("ratings/recompute/<int:pk>", ratings.RecomputeDetail.as_view(), name="rating-recompute-detail"),
    # the clubs (api/clubs.py)
    path("clubs", clubs.ClubList.as_view(), name="club-list"),
    path("clubs/<slug:slug>", clubs.ClubDetail.as_view(), name="club-detail"),
    path("clubs/<slug:slug>/members", clubs.ClubMembers.as_view(), name="club-members"),
    path("clubs/<slug:slug>/members/<str:username>", clubs.ClubMember.as_view(), name="club-member"),
    path("clubs/<slug:slug>/join", clubs.ClubJoin.as_view(), name="club-join"),
    path("clubs/<slug:slug>/invitations", clubs.ClubInvitations.as_view(), name="club-invitations"),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation>/revoke",
        clubs.InvitationRevoke.as_view(),
        name="club-invitation-revoke",
    ),
    path("clubs/<slug:slug>/requests", clubs.ClubRequests.as_view(), name="club-requests"),
    path(
        "clubs/<slug:slug>/requests/<int:request_id>/decide",
        clubs.RequestDecide.as_view(),
        name="club-request-decide",
    ),
    # a club's board (api/club_boards.py)
    path(
        "clubs/<slug:slug>/leaderboards/<str:game>",
        club_boards.ClubLeaderboard.as_view(),
        name="club-leaderboard",
    ),
    # a club's events (api/events.py)
    path("clubs/<slug:slug>/events", events.ClubEvents.as_view(), name="club-events"),
    path("events/<int:pk>", events.EventDetail.as_view(), name="event-detail"),
    path("events/<int:pk>/entrants", events.EventEntrants.as_view(), name="event-entrants"),
    path(
        "events/<int:pk>/entrants/<int:player>/withdraw",
        events.EntrantWithdraw.as_view(),
        name="event-entrant-withdraw",
    ),
    path("events/<int:pk>/rounds", events.EventRounds.as_view(), name="event-rounds"),
    path("events/<int:pk>/rounds/<int:number>", events.EventRound.as_view(), name="event-round"),
    path("events/<int:pk>/rounds/<int:number>/swap", events.RoundSwap.as_view(), name="event-round-swap"),
    path(
        "events/<int:pk>/rounds/<int:number>/tables/<int:table>/forfeit",
        events.TableForfeit.as_view(),
        name="event-table-forfeit",
    ),
    path("events/<int:pk>/finish", events.EventFinish.as_view(), name="event-finish"),
    path("events/<int:pk>/standings", events.EventStandings.as_view(), name="event-standings"),
    path("events/<int:pk>/report", events.EventReport.as_view(), name="event-report"),
    # head-to-head, player merge (api/people.py)
    path("players/<int:pk>/merge", people.PlayerMerge.as_view(), name="player-merge"),
    path("players/<int:pk>/anonymise", personal.PlayerAnonymise.as_view(), name="player-anonymise"),
    path("me/data", personal.MyData.as_view(), name="my-data"),
    path("players/<int:pk>/opponents", people.Opponents.as_view(), name="player-opponents"),
    path("players/<int:pk>/vs/<int:other>", people.HeadToHead.as_view(), name="player-head-to-head"),
    path(
        "players/<int:pk>/vs/<int:other>/matches",
        people.HeadToHeadMatches.as_view(),
        name="player-head-to-head-matches",
    ),
]

urlpatterns = [
    path("v1/", include((v1, "api"))),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI with its start-up script served from this URL (`?script`) instead of inline, and
    # its style in a file (the template): the page keeps the site's Content-Security-Policy, but
    # for the icons its script draws as data: images, allowed on this page alone.
    path(
        "docs/",
        csp_update({"img-src": ["data:"]})(
            SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/swagger_ui.html")
        ),
        name="docs",
    ),
    # Last: any other URL under /api/ is the API's JSON 404, in debug mode too (where Django
    # would show its HTML page instead of calling handler404).
    re_path(r"", exceptions.api_unknown_url),
]
