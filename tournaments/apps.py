from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Clubs, players, seasons, events, pairs, the draw, groups and matches."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Kisat")

    def ready(self) -> None:
        # sunday: the bracket follows results; dependents: every change of a shown fact bumps the versions
        from lib import hooks
        from tournaments import extensions
        from tournaments.actions import dependents, sunday  # noqa: F401
        from tournaments.models import Stage
        from tournaments.readmodel import following, weekend

        # the read side follows the write side's announcements (the write side does not import it)
        hooks.events_changed.connect(following.follow, dispatch_uid="tournaments.readmodel.following")

        # a placement match is called by its name ("Välierä, sijat 1.–4."), not "kierros 1" (issue #25)
        extensions.register_match_labels(Stage.PLACEMENT, weekend.placement_labels)
