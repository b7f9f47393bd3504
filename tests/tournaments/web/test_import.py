"""Importing entries from a spreadsheet: upload → preview (nothing saved) → accept (good rows saved)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from registry.models import Club, Player
from tests.support.entries_helpers import (
    HEADER,
    club,
    csv_upload,
    fixture_upload,
    load_registry,
    mark_drawn,
    player,
    truncated_xlsx_upload,
    xlsx_upload,
)
from tournaments.actions import entries as entry_actions
from tournaments.models import Pair, PairMember


@pytest.fixture
def event(make_event, organiser):
    event = make_event(name="Oulun Talvituppi")
    event.organisers.add(organiser)
    return event


def url(event) -> str:
    return reverse("organiser:import", args=[event.slug])


def accept_url(event) -> str:
    return reverse("organiser:import_accept", args=[event.slug])


def upload(client, event, file):
    """Upload and follow the redirect to the preview."""
    return client.post(url(event), {"file": file}, follow=True)


def accept(client, event, preview_response):
    html = preview_response.content.decode()
    marker = 'name="good_lines" value="'
    start = html.index(marker) + len(marker)
    good_lines = html[start : html.index('"', start)]
    return client.post(accept_url(event), {"good_lines": good_lines}, follow=True)


# Permissions -----------------------------------------------------------------------------------------


def test_page_for_the_events_organiser_only(client, event, organiser, outsider, make_event):
    make_event().organisers.add(outsider)
    client.force_login(organiser)
    response = client.get(url(event))
    assert response.status_code == 200
    assert "pelaaja1_etunimi" in response.content.decode()
    client.force_login(outsider)
    assert client.get(url(event)).status_code == 403
    assert client.post(url(event), {"file": csv_upload(HEADER + "\n")}).status_code == 403
    client.logout()
    response = client.get(url(event))
    assert response.status_code == 302
    assert response.headers["Location"].startswith(reverse("login"))


# The sample files ------------------------------------------------------------------------------------


def test_seventy_pair_sample_previews_then_imports(logged_in, event):
    load_registry()
    players_before = Player.objects.count()
    preview = upload(logged_in, event, fixture_upload("sample_entries_70.csv"))
    html = preview.content.decode()
    assert "70 riviä" in html and "70 kunnossa" in html and "0 virheellistä" in html
    assert html.count('<tr class="good">') == 70
    assert "Tuo 70 paria" in html
    assert "uusi pelaaja" not in html  # every player is in the register
    assert not Pair.objects.filter(event=event).exists()  # nothing saved before accepting

    done = accept(logged_in, event, preview)
    assert done.redirect_chain[-1][0] == reverse("organiser:pairs", args=[event.slug])
    assert "70 paria tuotiin." in done.content.decode()
    assert Pair.objects.filter(event=event).count() == 70
    assert list(Pair.objects.filter(event=event).values_list("number", flat=True).order_by("number")) == list(
        range(1, 71)
    )
    assert PairMember.objects.filter(event=event).count() == 140
    assert Player.objects.count() == players_before
    first = Pair.objects.get(event=event, number=1)
    assert [p.member_number for p in first.players] == ["1005", "1006"]
    assert first.club.name == "Sodankylän Tuppikerho"
    third = Pair.objects.get(event=event, number=3)
    assert third.club.short_name == "KeKa"  # the file names this club by its short name
    assert logged_in.session.get(f"entries-import-{event.pk}") is None


def test_bad_rows_sample_shows_each_reason_and_saves_only_good_rows(logged_in, event):
    load_registry()
    maija, kauko = Player.objects.get(member_number="1005"), Player.objects.get(member_number="1006")
    entry_actions.create_pair(event, maija, kauko, maija.club)  # Maija Kivelä is already entered (row 10)

    preview = upload(logged_in, event, fixture_upload("sample_entries_bad.csv"))
    html = preview.content.decode()
    reasons = {
        4: "Tuntematon kerho: Helsingin Tuppiseura.",
        5: "Pelaajan 1 etunimi puuttuu.",
        6: "Sama pelaaja kahdesti samalla rivillä: Hannu Huttu.",
        7: "Pekka Palo on tiedostossa myös rivillä 8.",
        8: "Pekka Palo on tiedostossa myös rivillä 7.",
        9: "Jäsennumero 1115 kuuluu pelaajalle Esa Varis, ei pelaajalle Paavo Tervo.",
        10: "Maija Kivelä on jo parissa 1 tässä kisassa.",
        11: "Pelaajan 1 sukunimi puuttuu.",
    }
    for line, reason in reasons.items():
        assert f"Rivi {line}: " in html
        assert reason in html, reason
    assert "Kerho puuttuu." in html  # row 11 has no club either
    assert html.count('<tr class="good">') == 2 and html.count('<tr class="bad">') == 8
    assert "uusi pelaaja" in html  # Uuno Uusikylä on row 3
    assert "Tuo 2 paria ja ohita 8 virheellistä riviä" in html
    assert Pair.objects.filter(event=event).count() == 1
    assert not Player.objects.filter(last_name="Uusikylä").exists()

    done = accept(logged_in, event, preview)
    assert "2 paria tuotiin. 8 virheellistä riviä ohitettiin." in done.content.decode()
    assert Pair.objects.filter(event=event).count() == 3
    uuno = Player.objects.get(first_name="Uuno", last_name="Uusikylä")
    assert uuno.member_number is None and uuno.club.short_name == "OTS"
    imported = {
        p.member_number for pair in Pair.objects.filter(event=event, number__gt=1) for p in pair.players
    }
    assert imported == {"1052", "1056", "1058", None}


# Matching players ------------------------------------------------------------------------------------


def rows_csv(*rows: str) -> str:
    return "\n".join([HEADER, *rows]) + "\n"


def test_player_matched_by_name_when_no_member_number(logged_in, event):
    sotk = club()
    maija = player("Maija", "Kivelä", "1005", sotk)
    kauko = player("Kauko", "Tuomela", None, sotk)
    preview = upload(logged_in, event, csv_upload(rows_csv("maija;kivelä;;Kauko;Tuomela;;sotk")))
    assert "Tuo 1 pari" in preview.content.decode()
    accept(logged_in, event, preview)
    assert Pair.objects.get(event=event).players == [maija, kauko]


def test_two_players_with_one_name_need_the_member_number(logged_in, event):
    sotk = club()
    player("Pekka", "Virtanen", "1200", sotk)
    player("Pekka", "Virtanen", "1300", sotk)
    player("Liisa", "Tervo", "1003", sotk)
    html = upload(
        logged_in, event, csv_upload(rows_csv("Pekka;Virtanen;;Liisa;Tervo;1003;SoTK"))
    ).content.decode()
    assert "Rekisterissä on 2 pelaajaa nimellä Pekka Virtanen: anna jäsennumero (1200, 1300)." in html
    html = upload(
        logged_in, event, csv_upload(rows_csv("Pekka;Virtanen;1300;Liisa;Tervo;1003;SoTK"))
    ).content.decode()
    assert "Tuo 1 pari" in html and '<tr class="bad">' not in html


def test_unknown_players_are_new(logged_in, event):
    club()
    html = upload(logged_in, event, csv_upload(rows_csv("Uuno;Uusi;7001;Ulla;Uusi;;SoTK"))).content.decode()
    assert html.count("uusi pelaaja") == 2
    assert "Tuonti luo 2 uutta pelaajaa." in html


def test_xlsx_with_numeric_member_numbers(logged_in, event):
    sotk = club()
    maija = player("Maija", "Kivelä", "1005", sotk)
    kauko = player("Kauko", "Tuomela", "1006", sotk)
    file = xlsx_upload(
        [
            [c.upper() for c in HEADER.split(";")],
            ["Maija", "Kivelä", 1005, "Kauko", "Tuomela", 1006.0, "SoTK"],
        ]
    )
    preview = upload(logged_in, event, file)
    assert "Tuo 1 pari" in preview.content.decode()
    accept(logged_in, event, preview)
    assert Pair.objects.get(event=event).players == [maija, kauko]


def test_csv_with_commas_and_windows_encoding(logged_in, event):
    club("Kemin Tuppikerho", "KeTK")
    text = HEADER.replace(";", ",") + "\nÄlli,Öhman,,Åke,Ärölä,,Kemin Tuppikerho\n"
    preview = upload(logged_in, event, csv_upload(text, encoding="cp1252"))
    html = preview.content.decode()
    assert "Älli Öhman" in html and "Åke Ärölä" in html
    accept(logged_in, event, preview)
    assert Player.objects.filter(last_name="Öhman").exists()


# Refused files ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "message"),
    [
        (csv_upload("nimi;kerho\n", name="parit.txt"), "Tuo Excel-tiedosto (.xlsx) tai CSV-tiedosto (.csv)."),
        (csv_upload(""), "Tiedosto on tyhjä."),
        (csv_upload("Maija;Kivelä;1005;Kauko;Tuomela;1006;SoTK\n"), "puuttuvat sarakkeet"),
        (csv_upload(HEADER + "\n"), "Tiedostossa ei ole yhtään riviä otsikkorivin jälkeen."),
        (csv_upload(HEADER + "\n" + "x;" * 1_100_000), "Tiedosto on liian suuri: enintään 2 Mt."),
        (csv_upload("ei excel", name="parit.xlsx"), "ei ole kelvollinen Excel-tiedosto"),
        (truncated_xlsx_upload(), "ei ole kelvollinen Excel-tiedosto"),
    ],
    ids=["not-a-spreadsheet", "empty", "no-header", "header-only", "too-big", "not-a-zip", "truncated-xlsx"],
)
def test_bad_files_are_refused_with_a_message(logged_in, event, file, message):
    response = upload(logged_in, event, file)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert logged_in.session.get(f"entries-import-{event.pk}") is None
    assert not Pair.objects.exists()


# The preview's life ----------------------------------------------------------------------------------


def test_reupload_replaces_the_preview(logged_in, event):
    sotk = club()
    player("Maija", "Kivelä", "1005", sotk)
    player("Kauko", "Tuomela", "1006", sotk)
    upload(logged_in, event, csv_upload(rows_csv("Maija;Kivelä;1005;Kauko;Tuomela;1006;Tuntematon")))
    html = upload(
        logged_in, event, csv_upload(rows_csv("Maija;Kivelä;1005;Kauko;Tuomela;1006;SoTK"), "uusi.csv")
    )
    html = html.content.decode()
    assert "uusi.csv" in html and "Tuntematon kerho" not in html
    assert len(logged_in.session[f"entries-import-{event.pk}"]["rows"]) == 1


def test_preview_is_kept_per_event(logged_in, event, make_event, organiser):
    other = make_event()
    other.organisers.add(organiser)
    club()
    upload(logged_in, event, csv_upload(rows_csv("Uuno;Uusi;;Ulla;Uusi;;SoTK")))
    assert "Tuo 1 pari" not in logged_in.get(url(other)).content.decode()
    assert "Tuo 1 pari" in logged_in.get(url(event)).content.decode()


def test_cancel_discards_the_preview(logged_in, event):
    club()
    upload(logged_in, event, csv_upload(rows_csv("Uuno;Uusi;;Ulla;Uusi;;SoTK")))
    response = logged_in.post(reverse("organiser:import_cancel", args=[event.slug]), follow=True)
    assert "Esikatselu peruttiin" in response.content.decode()
    assert logged_in.session.get(f"entries-import-{event.pk}") is None
    assert not Player.objects.filter(last_name="Uusi").exists()


def test_changes_after_the_preview_show_a_new_preview_and_save_nothing(logged_in, event):
    sotk = club()
    maija = player("Maija", "Kivelä", "1005", sotk)
    kauko = player("Kauko", "Tuomela", "1006", sotk)
    preview = upload(
        logged_in,
        event,
        csv_upload(rows_csv("Maija;Kivelä;1005;Uuno;Uusi;;SoTK", "Kauko;Tuomela;1006;Ulla;Uusi;;SoTK")),
    )
    assert "Tuo 2 paria" in preview.content.decode()
    entry_actions.create_pair(event, maija, player("Toinen", "Pelaaja", None, sotk), sotk)  # meanwhile, by hand
    response = accept(logged_in, event, preview)
    html = response.content.decode()
    assert "Tilanne muuttui esikatselun jälkeen" in html
    assert "Maija Kivelä on jo parissa 1 tässä kisassa." in html
    assert Pair.objects.filter(event=event).count() == 1
    assert not Player.objects.filter(last_name="Uusi").exists()
    accept(logged_in, event, response)  # the new preview offers the one good row
    assert Pair.objects.get(event=event, number=2).players[0] == kauko


def test_accept_without_a_preview(logged_in, event):
    response = logged_in.post(accept_url(event), {"good_lines": "2"}, follow=True)
    assert "Ei esikatseltua tiedostoa" in response.content.decode()


def test_import_refused_after_the_draw(logged_in, event):
    club()
    upload(logged_in, event, csv_upload(rows_csv("Uuno;Uusi;;Ulla;Uusi;;SoTK")))
    mark_drawn(event)
    html = logged_in.get(url(event)).content.decode()
    assert "pareja ei voi enää tuoda" in html and 'type="file"' not in html
    response = logged_in.post(accept_url(event), {"good_lines": "2"}, follow=True)
    assert "pareja ei voi enää tuoda" in response.content.decode()
    response = upload(logged_in, event, csv_upload(rows_csv("Uuno;Uusi;;Ulla;Uusi;;SoTK")))
    assert not Pair.objects.exists() and not Player.objects.filter(last_name="Uusi").exists()
    assert Club.objects.count() == 1
