from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Clubs, players, seasons, events, pairs, the draw, groups and matches."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Kisat")

    def ready(self) -> None:
        from tournaments import sunday, versions  # noqa: F401  (connect the bracket and the caches to changes)
