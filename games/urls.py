from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("tables/new/", views.table_new, name="table_new"),
    path("watch/", views.watch, name="watch"),
    path("invitations/<int:pk>/accept/", views.invitation_accept_view, name="invitation_accept"),
    path("invitations/<int:pk>/decline/", views.invitation_decline_view, name="invitation_decline"),
    path("tables/<int:pk>/", views.table, name="table"),
    path("tables/<int:pk>/poll/", views.table_poll, name="table_poll"),
    path("tables/<int:pk>/act/", views.table_act, name="table_act"),
    path("tables/<int:pk>/replay/", views.table_replay, name="table_replay"),
    path("rules/", views.rules_index, name="rules_index"),  # How to play (issue 13), games/views/rules.py
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

# Chat at every table (issue 17, point 1): the table page's chat panel, games/views/chat.py.
from .views import chat as chat_views  # noqa: E402

urlpatterns += [
    path("tables/<int:pk>/chat/", chat_views.table_chat, name="table_chat"),
    path("tables/<int:pk>/chat/post/", chat_views.table_chat_post, name="table_chat_post"),
    path("tables/<int:pk>/chat/<int:message_id>/delete/", chat_views.table_chat_delete, name="table_chat_delete"),
    path("tables/<int:pk>/chat/<int:message_id>/report/", chat_views.table_chat_report, name="table_chat_report"),
    path("tables/<int:pk>/chat/mute/", chat_views.table_chat_mute, name="table_chat_mute"),
]
