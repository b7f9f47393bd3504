"""The federation's API for the venue laptops (documented in the README)."""

from django.urls import path

from federation.web import api

urlpatterns = [
    path("registry/", api.registry, name="api_registry"),
    path("events/import/", api.import_event, name="api_event_import"),
    path("events/<slug:slug>/file/", api.event_file, name="api_event_file"),
]
