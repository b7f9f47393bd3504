from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TeamsConfig(AppConfig):
    """The SM team competition (*SM-joukkuekisa*, RULES.md §6) stands apart from ``tournaments``.

    Its matches are ordinary ``tournaments.Match`` rows (stage "team") with ordinary scoresheets, but
    everything around them is its own: a knockout bracket drawn once from a recorded seed instead of
    groups, team rosters (three pairs and a substitute) with the reinforcement rule, the leaders'
    secret links for declaring the pairs' order, the substitute rules across days, and the
    eligibility marks it gives clubs for the next season. It stores facts only (teams, orders, which
    pair matches make a team match); winners and places are derived from the pair matches' results
    through ``scoring.knockout``, and the bracket moves on by itself when a result changes.
    """

    default_auto_field = "django.db.models.BigAutoField"
    name = "teams"
    verbose_name = _("SM-joukkuekisa")

    def ready(self) -> None:
        from teams import services  # noqa: F401  (connects the bracket to tournaments' result_changed)
