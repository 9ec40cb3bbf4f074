"""The one URL module of the API: /api/v1/…, the OpenAPI schema and its Swagger UI."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from . import views

v1 = [
    # Recording a hand first: Django tries the patterns in order, and this is the one every
    # hand of every match comes through. No other pattern matches its paths, so the order
    # changes nothing else (each path() matches its whole path).
    path("matches/<int:pk>/hands", views.HandList.as_view(), name="hand-list"),
    path("", views.ApiRoot.as_view(), name="root"),
    path("auth/token", views.TokenCreate.as_view(), name="token"),
    path("auth/logout", views.TokenLogout.as_view(), name="logout"),
    path("games", views.GameList.as_view(), name="game-list"),
    path("games/<str:game>", views.GameDetail.as_view(), name="game-detail"),
    path("rules/<str:game>/score", views.RulesScore.as_view(), name="rules-score"),
    path("players", views.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>", views.PlayerDetail.as_view(), name="player-detail"),
    path("matches", views.MatchList.as_view(), name="match-list"),
    path("matches/<int:pk>", views.MatchDetail.as_view(), name="match-detail"),
    path("matches/<int:pk>/scorers", views.MatchScorers.as_view(), name="match-scorers"),
    path("matches/<int:pk>/void", views.MatchVoid.as_view(), name="match-void"),
    path("matches/<int:pk>/reopen", views.MatchReopen.as_view(), name="match-reopen"),
    path("matches/<int:pk>/hands/<int:number>", views.HandDetail.as_view(), name="hand-detail"),
    path("matches/<int:pk>/hands/<int:number>/history", views.HandHistory.as_view(), name="hand-history"),
    path(
        "matches/<int:pk>/hands/<int:number>/corrections",
        views.HandCorrections.as_view(),
        name="hand-corrections",
    ),
    path("", include("api.urls_exchange")),  # export and import (api/exchange.py)
]

#: The site's URLs under /api/, placed in its root URLconf as they are (scorekeeper/urls.py), not
#: include()d under "api/": each level of include() is a resolver that every request goes through.
urlpatterns = [
    path("api/v1/", include((v1, "api"))),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]
