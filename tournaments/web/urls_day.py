"""The organiser's event day (issue #19), under an event's organiser URLs (``kisat/<slug>/``) and in
their namespace: the one-step late forfeit, entry fees at check-in and their report, a match's referee."""

from django.urls import path

from tournaments.web.views import day

urlpatterns = [
    path("tulokset/luovutus/", day.late_forfeit, name="late_forfeit"),
    path("ilmoittautuminen/maksu/", day.checkin_fee, name="checkin_fee"),
    path("maksut/", day.fees_report, name="fees"),
    path("maksut/maksamatta.xlsx", day.fees_xlsx, name="fees_xlsx"),
    path("ottelut/<int:match_id>/tuomari/", day.match_referee, name="match_referee"),
]
