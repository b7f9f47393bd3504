"""Organiser pages: a login and a permission for the event."""

from django.urls import path

from tournaments.views import organiser

app_name = "organiser"

urlpatterns = [
    path("", organiser.home, name="home"),
]
