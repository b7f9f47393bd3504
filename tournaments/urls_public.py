"""Public, read-only pages: no account needed."""

from django.urls import path

from tournaments.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("kisat/<slug:slug>/", public.event, name="event"),
]
