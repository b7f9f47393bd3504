from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    """One federation, many venues: the registry served to the venue laptops, events sent back with a
    token, the organisers' API tokens."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "federation"
    verbose_name = _("Liitto ja kisapaikat")
