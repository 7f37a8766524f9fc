from django.apps import AppConfig


class BoardsConfig(AppConfig):
    """The boards' shared part: the generic board's templates and the template tags that read the registry."""

    name = "boards"
    label = "boards"
    default_auto_field = "django.db.models.BigAutoField"
