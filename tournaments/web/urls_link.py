"""A match's secret link (``/tulos/<token>/``, the QR code on the printed scoresheet): the scoresheet and
its actions for whoever holds the link. Every answer is private: never cached, never indexed."""

from django.urls import path

from lib.http import private_link
from tournaments.web.views import council, scoresheet
from tournaments.web.views.scoresheet import link_sheet

app_name = "link"


def secret(view):
    return private_link(link_sheet(view))


urlpatterns = [
    path("", secret(scoresheet.show), name="sheet"),
    path("rivi/", secret(scoresheet.add_line), name="add"),
    path("rivi/<int:position>/", secret(scoresheet.correct_line), name="correct"),
    path("poista-viimeinen/", secret(scoresheet.delete_last), name="delete_last"),
    path("paperi/", secret(scoresheet.save_paper), name="paper"),
    path("poista-paperi/", secret(scoresheet.clear_paper), name="clear_paper"),
    path("hyvaksy/<str:side>/", secret(scoresheet.accept), name="accept"),
    path("valitus/", secret(council.appeal), name="appeal"),
]
