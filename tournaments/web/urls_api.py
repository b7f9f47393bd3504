"""The read-only public JSON API (documented in the README)."""

from django.urls import path

from tournaments.web.views import api

urlpatterns = [
    path("events/", api.events, name="api_events"),
    path("events/<slug:slug>/", api.event, name="api_event"),
]
