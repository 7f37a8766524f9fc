from django.urls import path

from . import api

urlpatterns = [
    path("tables/<int:pk>/notes/", api.NotesView.as_view(), name="api-table-notes"),
    path("tables/<int:pk>/notes/table/", api.TableNoteView.as_view(), name="api-table-note"),
    path("tables/<int:pk>/notes/<int:ply>/", api.MoveNoteView.as_view(), name="api-move-note"),
]
