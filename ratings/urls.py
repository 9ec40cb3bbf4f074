from django.urls import path

from . import views

urlpatterns = [
    path("players/<int:pk>/", views.player_detail, name="player-detail"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("leaderboards/<slug:game>/season/", views.season, name="season"),
]
