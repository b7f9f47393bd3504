from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchiveConfig(AppConfig):
    """The federation's archive (issue #28): a player's history across seasons, head-to-head, the clubs'
    and the seasons' pages. It only reads: the events' snapshots (``tournaments.readmodel.snapshot``) and
    the seasons' cups (``cup.services``), both cached by the versions they come from. It has no models and
    no write side: ``readmodel/`` (what the pages show) and ``web/`` (the views)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "archive"
    verbose_name = _("Arkisto")
