from django.urls import path

from . import views

urlpatterns = [
    path("tables/<int:pk>/notes/", views.note_save, name="note_save"),
    path("tables/<int:pk>/notes/delete/", views.note_delete, name="note_delete"),
]
