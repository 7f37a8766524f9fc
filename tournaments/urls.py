from django.urls import path

from . import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<int:pk>/", views.tournament, name="tournament"),
    path("<int:pk>/register/", views.tournament_register, name="tournament_register"),
    path("<int:pk>/withdraw/", views.tournament_withdraw, name="tournament_withdraw"),
    path("<int:pk>/cancel/", views.tournament_cancel, name="tournament_cancel"),
    path("<int:pk>/start/", views.tournament_start_now, name="tournament_start_now"),
]
