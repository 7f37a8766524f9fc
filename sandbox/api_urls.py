from django.urls import path

from . import api

urlpatterns = [
    path("tables/<int:pk>/sandboxes/", api.TableSandboxesView.as_view(), name="api-table-sandboxes"),
    path("sandboxes/<int:pk>/", api.SandboxView.as_view(), name="api-sandbox"),
    path("sandboxes/<int:pk>/moves/", api.SandboxMovesView.as_view(), name="api-sandbox-moves"),
    path("sandboxes/<int:pk>/undo/", api.SandboxUndoView.as_view(), name="api-sandbox-undo"),
    path("sandboxes/<int:pk>/goto/", api.SandboxGotoView.as_view(), name="api-sandbox-goto"),
    path("sandboxes/<int:pk>/bot/", api.SandboxBotView.as_view(), name="api-sandbox-bot"),
]
