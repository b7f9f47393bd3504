from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CupConfig(AppConfig):
    """The season cup (*Tuppicup*, RULES.md §8) stands apart from ``tournaments``.

    An event is one weekend; the cup spans every counted event of a season and compares seasons. It has
    settings of its own (which events count and with what weight, the points table; best N lives on the
    season), exports of its own (the season and event workbooks the federation's secretary keeps) and
    pages of its own. It only reads the tournaments' facts (final places, match results, season clubs,
    transfers) and stores nothing computed: a corrected result changes the cup the next time it is read.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "cup"
    verbose_name = _("Tuppicup")

    def ready(self) -> None:
        # signals: settings changes bump the cup version; fines: a forfeit in a cup event fines its club
        from cup import eventfile, fines, services, signals  # noqa: F401
        from tournaments import extensions

        extensions.register_place_points(services.place_points)
        extensions.register_forfeit_fine(fines.forfeit_fine)
        extensions.register_event_file_part(
            "cup", extensions.FilePart(eventfile.export, eventfile.read, eventfile.clubs)
        )
