from django.urls import path

from . import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<int:pk>/", views.tournament, name="tournament"),
    path("<int:pk>/register/", views.tournament_register, name="tournament_register"),
    path("<int:pk>/withdraw/", views.tournament_withdraw, name="tournament_withdraw"),
]
