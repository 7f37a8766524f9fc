from django.apps import AppConfig


class NotesConfig(AppConfig):
    """Decision 29, point 4: private notes on a table and on its moves, seen by their writer alone."""

    name = "notes"
    verbose_name = "Private notes"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Ruling S8: her notes are a section of her data export.
        from . import account_data  # noqa: F401
