"""Organiser pages of the team competition, under /jarjestaja/joukkuekisa/<slug>/: a login and a
permission for the event."""

from django.urls import path

from teams.views import organiser

app_name = "teams_organiser"

urlpatterns = [
    path("<slug:slug>/", organiser.overview, name="overview"),
    path("<slug:slug>/arvonta/", organiser.draw, name="draw"),
    path("<slug:slug>/joukkueet/uusi/", organiser.team_new, name="team_new"),
    path("<slug:slug>/joukkueet/haku/", organiser.player_search, name="player_search"),
    path("<slug:slug>/joukkueet/<int:team_id>/", organiser.team, name="team"),
    path("<slug:slug>/joukkueet/<int:team_id>/muokkaa/", organiser.team_edit, name="team_edit"),
    path("<slug:slug>/joukkueet/<int:team_id>/varamies/", organiser.substitute, name="substitute"),
    path("<slug:slug>/joukkueet/<int:team_id>/poista/", organiser.team_delete, name="team_delete"),
    path("<slug:slug>/kierrokset/", organiser.rounds, name="rounds"),
    path("<slug:slug>/kierrokset/<int:number>/paiva/", organiser.round_day, name="round_day"),
    path("<slug:slug>/kierrokset/<int:number>/aloita/", organiser.start_round, name="start_round"),
    path("<slug:slug>/ottelut/<int:match_id>/", organiser.match, name="match"),
    path("<slug:slug>/ottelut/<int:match_id>/aloita/", organiser.start_match, name="start_match"),
    path("<slug:slug>/ottelut/<int:match_id>/peru-aloitus/", organiser.cancel_start, name="cancel_start"),
    path("<slug:slug>/ottelut/<int:match_id>/avaa-jarjestykset/", organiser.reopen_orders, name="reopen_orders"),
    path("<slug:slug>/ottelut/<int:match_id>/poytakirjat.pdf", organiser.match_sheets, name="match_sheets"),
    path("<slug:slug>/joukkueenjohtajat.pdf", organiser.leader_links, name="leader_links"),
    path("<slug:slug>/julkaise/", organiser.publish, name="publish"),
]
