from django.urls import path

from . import views

urlpatterns = [
    path("tables/<int:pk>/sandboxes/new/", views.sandbox_new, name="sandbox_new"),
    path("sandboxes/<int:pk>/", views.sandbox_page, name="sandbox"),
    path("sandboxes/<int:pk>/move/", views.sandbox_move, name="sandbox_move"),
    path("sandboxes/<int:pk>/undo/", views.sandbox_undo, name="sandbox_undo"),
    path("sandboxes/<int:pk>/goto/", views.sandbox_goto, name="sandbox_goto"),
    path("sandboxes/<int:pk>/bot/", views.sandbox_bot, name="sandbox_bot"),
    path("sandboxes/<int:pk>/delete/", views.sandbox_delete, name="sandbox_delete"),
]
