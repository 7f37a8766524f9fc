from django.urls import path

from . import views

urlpatterns = [
    path("", views.leaderboards, name="leaderboards"),
    path("<str:key>/", views.leaderboard, name="leaderboard"),
]
