from django.urls import path

from . import views, views_people

urlpatterns = [
    path("players/<int:pk>/", views_people.follows_merge(views.player_detail), name="player-detail"),
    path(
        "players/<int:pk>/vs/<int:other>/",
        views_people.follows_merge(views_people.head_to_head_page),
        name="player-head-to-head",
    ),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/<slug:game>/", views.leaderboard, name="leaderboard"),
    path("leaderboards/<slug:game>/season/", views.season, name="season"),
    path("clubs/<slug:slug>/board/<slug:game>/", views.club_board, name="club-board"),
]
