"""Organiser pages for entries (pairs, player search, import, check-in); included by urls_organiser."""

from django.urls import path

from tournaments.views import entries

urlpatterns = [
    path("kisat/<slug:slug>/parit/", entries.pairs, name="pairs"),
    path("kisat/<slug:slug>/parit/<int:pair_id>/luovu/", entries.pair_withdraw, name="pair_withdraw"),
    path("pelaajat/haku/", entries.player_search, name="player_search"),
    path("kisat/<slug:slug>/tuonti/", entries.import_entries, name="import"),
    path("kisat/<slug:slug>/ilmoittautuminen/", entries.checkin, name="checkin"),
]
