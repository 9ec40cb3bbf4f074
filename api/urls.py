from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.authtoken.views import obtain_auth_token

from . import views

v1 = [
    path("", views.ApiRoot.as_view(), name="root"),
    path("auth/token", obtain_auth_token, name="token"),
    path("players", views.PlayerList.as_view(), name="player-list"),
    path("players/<int:pk>", views.PlayerDetail.as_view(), name="player-detail"),
    path("matches", views.MatchList.as_view(), name="match-list"),
    path("matches/<int:pk>", views.MatchDetail.as_view(), name="match-detail"),
    path("", include("api.urls_exchange")),  # export and import (api/exchange.py)
]

urlpatterns = [
    path("v1/", include((v1, "api"))),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
]
