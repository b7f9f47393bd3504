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
        from django.urls import reverse

        # actions.bracket: the bracket follows result_changed; signals: changes of teams bump their event's version
        from teams import api, eventfile, printing, results, signals  # noqa: F401
        from teams.actions import bracket, places  # noqa: F401
        from tournaments import extensions
        from tournaments.models import Event, Stage

        extensions.register_event_payload(Event.Kind.SM_TEAM, api.event_extra)
        extensions.register_final_places(Event.Kind.SM_TEAM, places.final_places)
        extensions.register_event_file_part(
            "teams",
            extensions.FilePart(eventfile.export, eventfile.read, eventfile.clubs, players=eventfile.players, first=True),
        )
        extensions.register_places_naming(
            Event.Kind.SM_TEAM,
            extensions.PlacesNaming(eventfile.named_places, eventfile.stored_places, eventfile.record),
        )
        extensions.register_match_labels(Stage.TEAM, results.pair_match_labels)
        extensions.register_printouts(Event.Kind.SM_TEAM, printing.printouts)
        extensions.register_organiser_home(
            Event.Kind.SM_TEAM, lambda slug: reverse("teams_organiser:overview", args=[slug])
        )
        extensions.register_match_back_link(
            Stage.TEAM,
            lambda match: (
                match.event.name,
                reverse("teams_organiser:match", args=[match.event.slug, match.team_link.team_match_id]),
            ),
        )
        extensions.register_event_links(
            Event.Kind.SM_TEAM,
            lambda slug: [
                (_("Joukkuekisan kaavio"), reverse("teams:bracket", args=[slug])),
                (_("Joukkueet"), reverse("teams:teams", args=[slug])),
                (_("Lopputulokset"), reverse("teams:final_places", args=[slug])),
            ],
        )
