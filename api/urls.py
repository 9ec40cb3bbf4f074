"""The API's URLs, included under /api/ (scorekeeper/urls.py): v1, the OpenAPI schema, its UI."""

from csp.decorators import csp_update
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import exceptions, views

v1 = [
    path("", views.ApiRoot.as_view(), name="root"),
    path("auth/token", views.TokenCreate.as_view(), name="token"),
    path("auth/logout", views.TokenLogout.as_view(), name="logout"),
    path("games", views.GameList.as_view(), name="game-list"),
    path("games/<str:game>", views.GameDetail.as_view(), name="game-detail"),
    path("rules/<str:game>/score", views.RulesScore.as_view(), name="rules-score"),
    path("players", views.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/claim", views.PlayerClaim.as_view(), name="player-claim"),
    path("matches", views.MatchList.as_view(), name="match-list"),
    path("matches/<int:pk>", views.MatchDetail.as_view(), name="match-detail"),
    path("matches/<int:pk>/scorers", views.MatchScorers.as_view(), name="match-scorers"),
    path("matches/<int:pk>/void", views.MatchVoid.as_view(), name="match-void"),
    path("matches/<int:pk>/reopen", views.MatchReopen.as_view(), name="match-reopen"),
    path("matches/<int:pk>/hands", views.HandList.as_view(), name="hand-list"),
    path("matches/<int:pk>/hands/<int:number>", views.HandDetail.as_view(), name="hand-detail"),
    path("matches/<int:pk>/hands/<int:number>/history", views.HandHistory.as_view(), name="hand-history"),
    path(
        "matches/<int:pk>/hands/<int:number>/corrections",
        views.HandCorrections.as_view(),
        name="hand-corrections",
    ),
    path("matches/<int:pk>/hands/<int:number>/confirm", views.HandConfirm.as_view(), name="hand-confirm"),
    path("matches/<int:pk>/hands/<int:number>/dispute", views.HandDispute.as_view(), name="hand-dispute"),
    path(
        "matches/<int:pk>/players/<int:player>/claim-code",
        views.PlayerClaimCodeCreate.as_view(),
        name="player-claim-code",
    ),
    path("", include("api.urls_exchange")),  # export and import (api/exchange.py)
    path("", include("api.urls_ratings")),  # leaderboards, ratings, predictions (api/ratings.py)
    path("", include("api.urls_people")),  # head-to-head, player merge (api/people.py)
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
