from django.urls import path

from . import api

urlpatterns = [
    path("leaderboards/", api.LeaderboardsView.as_view(), name="api-leaderboards"),
    path("leaderboards/<str:key>/", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("players/<str:username>/ratings/", api.PlayerRatingsView.as_view(), name="api-player-ratings"),
]
