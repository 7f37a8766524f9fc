from django.urls import path

from . import views

# The table page's chat panel (decision 17, point 1).
urlpatterns = [
    path("tables/<int:pk>/chat/", views.table_chat, name="table_chat"),
    path("tables/<int:pk>/chat/post/", views.table_chat_post, name="table_chat_post"),
    path("tables/<int:pk>/chat/<int:message_id>/delete/", views.table_chat_delete, name="table_chat_delete"),
    path("tables/<int:pk>/chat/<int:message_id>/report/", views.table_chat_report, name="table_chat_report"),
    path("tables/<int:pk>/chat/mute/", views.table_chat_mute, name="table_chat_mute"),
]
