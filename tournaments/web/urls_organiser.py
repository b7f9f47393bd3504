"""Organiser pages: a login and a permission for the event. Everything of one event lives under
``kisat/<slug>/``, written once; a match's scoresheet and its actions under ``ottelut/<id>/``."""

from django.urls import include, path

from tournaments.web.permissions import pair_event_only
from tournaments.web.views import (
    checkin,
    council,
    imports,
    organiser,
    pairs,
    printouts,
    results,
    scoresheet,
    sunday,
)
from tournaments.web.views.scoresheet import organiser_sheet

app_name = "organiser"

pair_only = pair_event_only  # a step only pair events have: a team competition leads to its own pages

sheet_urls = [
    path("", organiser_sheet(scoresheet.show), name="match"),
    path("rivi/", organiser_sheet(scoresheet.add_line), name="sheet_add"),
    path("rivi/<int:position>/", organiser_sheet(scoresheet.correct_line), name="sheet_correct"),
    path("poista-viimeinen/", organiser_sheet(scoresheet.delete_last), name="sheet_delete_last"),
    path("paperi/", organiser_sheet(scoresheet.save_paper), name="sheet_paper"),
    path("poista-paperi/", organiser_sheet(scoresheet.clear_paper), name="sheet_clear_paper"),
    path("vahvista/", organiser_sheet(scoresheet.confirm), name="sheet_confirm"),
    path("historia/", results.history, name="match_history"),
    path("valitus/", organiser_sheet(council.appeal), name="sheet_appeal"),
    path("poytakirja.pdf", printouts.match_sheet, name="match_sheet"),
]

event_urls = [
    path("", organiser.event_dashboard, name="event"),
    path("muokkaa/", organiser.event_edit, name="event_edit"),
    path("kopioi/", organiser.event_copy, name="event_copy"),
    # entries: pairs, the import of a spreadsheet, the morning check-in
    path("parit/", pairs.pairs, name="pairs"),
    path("parit/vaihda/", pairs.pair_replace, name="pair_replace"),
    path("parit/<int:pair_id>/luovu/", pairs.pair_withdraw, name="pair_withdraw"),
    path("parit/<int:pair_id>/palaa/", pairs.pair_undo_withdraw, name="pair_undo_withdraw"),
    path("tuonti/", pair_only(imports.import_entries), name="import"),
    path("tuonti/hyvaksy/", pair_only(imports.import_accept), name="import_accept"),
    path("tuonti/peru/", pair_only(imports.import_cancel), name="import_cancel"),
    path("ilmoittautuminen/", pair_only(checkin.checkin), name="checkin"),
    path("ilmoittautuminen/paikalla/", pair_only(checkin.checkin_toggle), name="checkin_toggle"),
    path("ilmoittautuminen/poista-poissaolevat/", pair_only(checkin.checkin_withdraw_absent), name="checkin_withdraw_absent"),
    # the draw
    path("arvonta/", pair_only(organiser.draw), name="draw"),
    path("arvonta/vaihda/", pair_only(organiser.swap), name="swap"),
    # results
    path("tulokset/", results.overview, name="results"),
    path("tulokset/vahvista/", results.confirm_many, name="confirm_many"),
    path("ottelut/<int:match_id>/", include(sheet_urls)),
    path("lohkot/<int:group_id>/uusinta/", results.playoff, name="playoff"),
    # Sunday and publication
    path("sunnuntai/", pair_only(sunday.organiser_sunday), name="sunday"),
    path("sunnuntai/eteneminen/", pair_only(sunday.advance), name="advance"),
    path("sunnuntai/sijoitus/", pair_only(sunday.correct), name="seeding"),
    path("sunnuntai/julkaise/", pair_only(sunday.publish), name="publish"),
    # the judges' council (issue #29): appeals and rulings
    path("tuomarineuvosto/", council.council, name="council"),
    path("tuomarineuvosto/paatos/", council.rule, name="council_rule"),
    path("tuomarineuvosto/sulje/", council.exclude, name="council_exclude"),
    path("tuomarineuvosto/ottelu/", council.order, name="council_order"),
    # printouts
    path("tulosteet/", printouts.printouts, name="printouts"),
    path("tulosteet/poytakirjat-<str:stage>-<int:round>.pdf", printouts.round_sheets, name="round_sheets"),
    # the event day (issue #19): late forfeits, entry fees, referees
    path("", include("tournaments.web.urls_day")),
]

urlpatterns = [
    path("", organiser.home, name="home"),
    path("uusi-kisa/", organiser.event_create, name="event_create"),
    path("pelaajat/haku/", pairs.player_search, name="player_search"),
    path("kisat/<slug:slug>/", include(event_urls)),
]
