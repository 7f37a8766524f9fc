"""The pages of games.views.players, under /accounts/ beside the accounts app's own (config/urls.py includes
both there): the same paths and URL names as when accounts served them."""

from django.urls import path

from .views import players as views

urlpatterns = [
    path("players/<str:username>/", views.player, name="player"),
    path("players/<str:username>/block/", views.player_block, name="player_block"),
    path("vacation/start/", views.vacation_start_view, name="vacation_start"),
    path("vacation/end/", views.vacation_end_view, name="vacation_end"),
    path("bot/", views.bot_account_make, name="bot_account_make"),
]
