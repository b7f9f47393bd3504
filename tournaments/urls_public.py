"""Public, read-only pages: no account needed."""

from django.urls import path

from tournaments.views import printouts, public, sunday

urlpatterns = [
    path("", public.home, name="home"),
    path("kisat/<slug:slug>/", public.event, name="event"),
    path("kisat/<slug:slug>/ohjelma/", public.schedule, name="schedule"),
    path("kisat/<slug:slug>/lohkot/<str:name>/", public.group, name="group"),
    path("kisat/<slug:slug>/ottelut/<int:match_id>/", public.match, name="match"),
    path("kisat/<slug:slug>/parit/", public.pair_pick, name="pair_pick"),
    path("kisat/<slug:slug>/parit/<int:number>/", public.pair, name="pair"),
    path("kisat/<slug:slug>/sunnuntai/", sunday.public_sunday, name="sunday"),
    path("kisat/<slug:slug>/lopputulokset/", sunday.public_results, name="final_places"),
    path("kisat/<slug:slug>/arvontakaavio.pdf", printouts.draw_chart, name="draw_chart_pdf"),
    path("kisat/<slug:slug>/lohkotaulukot.pdf", printouts.group_tables, name="group_tables_pdf"),
    path("kisat/<slug:slug>/sunnuntai.pdf", printouts.bracket, name="bracket_pdf"),
    path("kisat/<slug:slug>/tulosluettelo.pdf", printouts.results_list, name="results_pdf"),
]
