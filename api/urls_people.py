"""People's URLs, included under /api/v1/ by ``api/urls.py`` (views: api/people.py)."""

from django.urls import path

from . import people

urlpatterns = [
    path("players/<int:pk>/merge", people.PlayerMerge.as_view(), name="player-merge"),
    path("players/<int:pk>/opponents", people.Opponents.as_view(), name="player-opponents"),
    path("players/<int:pk>/vs/<int:other>", people.HeadToHead.as_view(), name="player-head-to-head"),
    path(
        "players/<int:pk>/vs/<int:other>/matches",
        people.HeadToHeadMatches.as_view(),
        name="player-head-to-head-matches",
    ),
]
