"""Public pages of the team competition and the team leader's secret link: no account needed."""

from django.urls import path

from teams.views import leader, public
from tuppiliitto.http import private_link

app_name = "teams"

urlpatterns = [
    path("joukkuekisa/<slug:slug>/", public.bracket, name="bracket"),
    path("joukkuekisa/<slug:slug>/joukkueet/", public.teams, name="teams"),
    path("joukkuekisa/<slug:slug>/ottelut/<int:match_id>/", public.match, name="match"),
    path("joukkuekisa/<slug:slug>/lopputulokset/", public.final_places, name="final_places"),
    path("joukkuekisa/<slug:slug>/kaavio.pdf", public.bracket_pdf, name="bracket_pdf"),
    path("joukkue/<str:token>/", private_link(leader.leader), name="leader"),
]
