"""The cup in the read-only public JSON API (documented in the README)."""

from django.urls import path

from cup import api

urlpatterns = [
    path("seasons/", api.seasons, name="api_seasons"),
    path("seasons/<int:season_id>/cup/", api.season_cup, name="api_season_cup"),
]
