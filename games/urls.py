from django.urls import path

from . import views
from .views import turns as turn_views

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/new/", views.table_new, name="table_new"),
    path("watch/", views.watch, name="watch"),
    path("turns/", turn_views.turns, name="turns"),  # decision 29: her turn queue
    path("invitations/<int:pk>/accept/", views.invitation_accept_view, name="invitation_accept"),
    path("invitations/<int:pk>/decline/", views.invitation_decline_view, name="invitation_decline"),
    path("tables/<int:pk>/", views.table, name="table"),
    path("tables/<int:pk>/poll/", views.table_poll, name="table_poll"),
    path("tables/<int:pk>/act/", views.table_act, name="table_act"),
    path("tables/<int:pk>/replay/", views.table_replay, name="table_replay"),
    path("rules/", views.rules_index, name="rules_index"),  # How to play (decision 13), games/views/rules.py
    path("rules/rulings/", views.rules_rulings, name="rules_rulings"),
    path("rules/<slug:kind>/", views.rules_game, name="rules_game"),
    path("tables/<int:pk>/log.json", views.table_log_json, name="table_log_json"),
    path("tables/<int:pk>/join/", views.table_join, name="table_join"),
    path("tables/<int:pk>/leave/", views.table_leave, name="table_leave"),
    path("tables/<int:pk>/bots/", views.table_add_bot, name="table_add_bot"),
    path("tables/<int:pk>/invite/", views.table_invite, name="table_invite"),
    path("tables/<int:pk>/start/", views.table_start, name="table_start"),
    path("tables/<int:pk>/abort/", views.table_abort, name="table_abort"),
    path("tables/<int:pk>/abort-agreement/", views.table_abort_agreement, name="table_abort_agreement"),
    path("tables/<int:pk>/resign/", views.table_resign, name="table_resign"),
    path("tables/<int:pk>/rematch/", views.table_rematch, name="table_rematch"),
]
