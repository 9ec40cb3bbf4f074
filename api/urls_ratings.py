"""The ratings' URLs, included under /api/v1/ by ``api/urls.py`` (views: api/ratings.py)."""

from django.urls import path

from . import ratings

urlpatterns = [
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
]
