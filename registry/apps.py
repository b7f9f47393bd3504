from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistryConfig(AppConfig):
    """Clubs, players, seasons, season clubs and transfers."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "registry"
    verbose_name = _("Rekisteri")
