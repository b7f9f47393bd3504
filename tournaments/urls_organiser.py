"""Organiser pages: a login and a permission for the event."""

from django.urls import include, path

from tournaments.views import organiser, printouts, results, sunday

app_name = "organiser"

urlpatterns = [
    path("", organiser.home, name="home"),
    path("uusi-kisa/", organiser.event_create, name="event_create"),
    path("kisat/<slug:slug>/", organiser.event_dashboard, name="event"),
    path("kisat/<slug:slug>/muokkaa/", organiser.event_edit, name="event_edit"),
    path("kisat/<slug:slug>/arvonta/", organiser.draw, name="draw"),
    path("kisat/<slug:slug>/arvonta/vaihda/", organiser.swap, name="swap"),
    path("kisat/<slug:slug>/tulokset/", results.overview, name="results"),
    path("kisat/<slug:slug>/ottelut/<int:match_id>/", results.organiser_match, name="match"),
    path("kisat/<slug:slug>/ottelut/<int:match_id>/vahvista/", results.confirm, name="confirm"),
    path("kisat/<slug:slug>/ottelut/<int:match_id>/historia/", results.history, name="match_history"),
    path("kisat/<slug:slug>/lohkot/<int:group_id>/uusinta/", results.playoff, name="playoff"),
    path("kisat/<slug:slug>/sunnuntai/", sunday.organiser_sunday, name="sunday"),
    path("kisat/<slug:slug>/sunnuntai/eteneminen/", sunday.advance, name="advance"),
    path("kisat/<slug:slug>/sunnuntai/sijoitus/", sunday.correct, name="seeding"),
    path("kisat/<slug:slug>/sunnuntai/julkaise/", sunday.publish, name="publish"),
    path("kisat/<slug:slug>/tulosteet/", printouts.printouts, name="printouts"),
    path(
        "kisat/<slug:slug>/tulosteet/poytakirjat-<str:stage>-<int:round>.pdf",
        printouts.round_sheets,
        name="round_sheets",
    ),
    path("kisat/<slug:slug>/ottelut/<int:match_id>/poytakirja.pdf", printouts.match_sheet, name="match_sheet"),
    # Entries: adding pairs, the player search, importing a spreadsheet, the morning check-in.
    path("", include("tournaments.urls_entries")),
]
