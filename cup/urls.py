"""Public cup pages (Finnish URLs) and the season and event workbooks."""

from django.urls import path

from cup import views

app_name = "cup"

urlpatterns = [
    path("cup/", views.index, name="index"),
    path("cup/<int:season_id>/", views.players, name="players"),
    path("cup/<int:season_id>/parit/", views.pairs, name="pairs"),
    path("cup/<int:season_id>/kerhot/", views.clubs, name="clubs"),
    path("cup/<int:season_id>/pelaajat/<int:player_id>/", views.player, name="player"),
    path("cup/<int:season_id>/tuppicup-<str:years>.xlsx", views.season_xlsx, name="season_xlsx"),
    path("kisat/<slug:slug>/tulokset.xlsx", views.event_xlsx, name="event_xlsx"),
]
