"""Public, read-only pages: no account needed. An event's pages live under ``kisat/<slug>/``, written once."""

from django.urls import include, path

from tournaments.web.views import calendar, printouts, public, sunday

event_urls = [
    path("", public.event, name="event"),
    path("ohjelma/", public.schedule, name="schedule"),
    path("lohkot/<str:name>/", public.group, name="group"),
    path("ottelut/<int:match_id>/", public.match, name="match"),
    path("parit/", public.pair_pick, name="pair_pick"),
    path("parit/<int:number>/", public.pair, name="pair"),
    path("parit/<int:number>/kalenteri.ics", calendar.pair_calendar, name="pair_calendar"),
    path("sunnuntai/", sunday.public_sunday, name="sunday"),
    path("lopputulokset/", sunday.public_results, name="final_places"),
    path("halli/", public.hall_screen, name="hall"),
    path("arvontakaavio.pdf", printouts.draw_chart, name="draw_chart_pdf"),
    path("lohkotaulukot.pdf", printouts.group_tables, name="group_tables_pdf"),
    path("sunnuntai.pdf", printouts.bracket, name="bracket_pdf"),
    path("tulosluettelo.pdf", printouts.results_list, name="results_pdf"),
    path("tapahtuma.json", printouts.event_file, name="event_file"),
]

urlpatterns = [
    path("", public.home, name="home"),
    path("kalenteri.ics", calendar.events_calendar, name="events_calendar"),
    path("kisat/<slug:slug>/", include(event_urls)),
]
