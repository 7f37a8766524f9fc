from django.urls import path

from . import api

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="api-tournaments"),
    path("<int:pk>/", api.TournamentDetailView.as_view(), name="api-tournament"),
    path("<int:pk>/register/", api.RegisterView.as_view(), name="api-tournament-register"),
    path("<int:pk>/withdraw/", api.WithdrawView.as_view(), name="api-tournament-withdraw"),
    path("<int:pk>/cancel/", api.CancelView.as_view(), name="api-tournament-cancel"),
    path("<int:pk>/start/", api.StartNowView.as_view(), name="api-tournament-start"),
]
