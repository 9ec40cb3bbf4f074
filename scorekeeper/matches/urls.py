from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("matches/<int:pk>/", views.match_detail, name="match-detail"),
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
]
