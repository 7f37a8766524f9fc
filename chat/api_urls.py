from django.urls import path

from . import api

# The table chat in the API (decision 17, point 1), under /api/.
urlpatterns = [
    path("tables/<int:pk>/chat/", api.ChatView.as_view(), name="api-table-chat"),
    path("tables/<int:pk>/chat/<int:message_id>/", api.ChatMessageView.as_view(), name="api-table-chat-message"),
    path("tables/<int:pk>/chat/<int:message_id>/report/", api.ChatReportView.as_view(), name="api-table-chat-report"),
    path("me/mutes/", api.MutesView.as_view(), name="api-my-mutes"),
    path("me/mutes/<str:username>/", api.MuteView.as_view(), name="api-my-mute"),
]
