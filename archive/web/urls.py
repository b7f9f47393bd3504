"""The archive's public pages (Finnish URLs): players, clubs and seasons across seasons, and the records."""

from django.urls import path

from archive.web.views import clubs, players, records, seasons

app_name = "archive"

urlpatterns = [
    path("pelaajat/", players.index, name="players"),
    path("pelaajat/<int:player_id>/", players.player, name="player"),
    path("pelaajat/<int:player_id>/vs/<int:other_id>/", players.versus, name="versus"),
    path("kerhot/", clubs.index, name="clubs"),
    path("kerhot/<int:club_id>/", clubs.club, name="club"),
    path("kaudet/", seasons.index, name="seasons"),
    path("kaudet/<int:season_id>/", seasons.season, name="season"),
    path("tilastot/", records.index, name="records"),
]
