"""Public pages of the team competition (under ``joukkuekisa/<slug>/``, written once) and the team
leader's secret link (``joukkue/<token>/``): no account needed."""

from django.urls import include, path

from lib.http import private_link
from teams.views import leader, public
from teams.views.leader import leader_link

app_name = "teams"


def secret(view):
    return private_link(leader_link(view))


event_urls = [
    path("", public.bracket, name="bracket"),
    path("joukkueet/", public.teams, name="teams"),
    path("ottelut/<int:match_id>/", public.match, name="match"),
    path("lopputulokset/", public.final_places, name="final_places"),
    path("kaavio.pdf", public.bracket_pdf, name="bracket_pdf"),
]

# The team leader's secret link: the page and one address per action (never cached, never indexed).
leader_urls = [
    path("", secret(leader.show), name="leader"),
    path("jarjestys/", secret(leader.declare), name="leader_declare"),
    path("varamies/", secret(leader.substitute), name="leader_substitute"),
    path("varamies/poista/", secret(leader.clear_substitute), name="leader_clear_substitute"),
]

urlpatterns = [
    path("joukkuekisa/<slug:slug>/", include(event_urls)),
    path("joukkue/<str:token>/", include(leader_urls)),
]
