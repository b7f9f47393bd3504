"""Exports hold text, never formulas: a name that a spreadsheet would read as a formula is written as a
string cell in every workbook (read back with openpyxl and checked in the XML: no ``<f>`` element), and
the pair form, the team form and the import preview refuse such names with a Finnish message."""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from cup.views import season_years
from lib import workbooks
from registry.models import Club, Player, Season
from tests.cup.builders import club, one_group_event, player
from tests.support.entries_helpers import HEADER, csv_upload
from tournaments.actions import imports as importer
from tournaments.models import Event, Pair

FORMULAS = ['=HYPERLINK("http://x","Avaa")&"', "=1+2", "+1+1", "-2+3", "@SUM(1+1)"]
MESSAGE = "Nimi ei voi alkaa merkillä =, +, - tai @ (taulukko-ohjelma lukisi sen kaavaksi)."


def formula_free(content: bytes) -> list[str]:
    """Every worksheet of the .xlsx in ``content``, asserting none holds a formula; returns their texts."""
    archive = zipfile.ZipFile(io.BytesIO(content))
    sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/") and n.endswith(".xml")]
    assert sheets
    for name in sheets:
        xml = archive.read(name).decode()
        assert not re.search(r"<(\w+:)?f[ >/]", xml), f"a formula in {name}"
    book = load_workbook(io.BytesIO(content))
    texts = []
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                if isinstance(cell.value, str):
                    texts.append(cell.value)
    return texts


def test_to_bytes_writes_every_formula_start_as_text():
    book = Workbook()
    ws = book.active
    for text in [*FORMULAS, "\tsarkain", "\rpalautus", "tavallinen", "a=b"]:
        ws.append([text, 5])
    second = book.create_sheet("Toinen")
    second["C3"] = "=SUM(A1:A2)"
    texts = formula_free(workbooks.to_bytes(book))
    assert [t for t in texts if t in FORMULAS] == FORMULAS
    assert "=SUM(A1:A2)" in texts and "\tsarkain" in texts and "tavallinen" in texts


@pytest.fixture
def formula_event(db):
    """A played and published cup event whose players and a club carry formula names, put in the
    database directly (as the admin or old data could)."""
    home = club("=1+2", "@K")
    other = club("Kemin Kasa", "KK")
    players = [player(first, last, home) for first, last in zip(FORMULAS, reversed(FORMULAS), strict=True)]
    players.append(player("Tavallinen", "-Pelaaja", other))
    players.append(player("+358", "Numero", other))
    players.append(player("Aino", "Aalto", other))
    order = [(players[0], players[1], home), (players[2], players[3], other), (players[4], players[5], home),
             (players[6], players[7], other)]
    event, _pairs = one_group_event("=Kaavakisa", dt.date(2026, 11, 7), order, weight=Decimal(1))
    return event


def test_event_workbook_holds_the_names_as_text(client, formula_event):
    response = client.get(reverse("cup:event_xlsx", args=[formula_event.slug]))
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].endswith('-tulokset.xlsx"')
    texts = formula_free(response.content)
    joined = "\n".join(texts)
    for name in FORMULAS:
        assert name in joined
    assert "=1+2" in texts  # the club's name, a cell of its own


def test_season_workbook_holds_the_names_as_text(client, formula_event):
    season = formula_event.season
    response = client.get(reverse("cup:season_xlsx", args=[season.pk, season_years(season)]))
    assert response.status_code == 200
    texts = formula_free(response.content)
    joined = "\n".join(texts)
    for name in FORMULAS:
        assert name in joined


# Refused at the door ------------------------------------------------------------------------------


@pytest.fixture
def event(make_event, organiser):
    event = make_event()
    event.organisers.add(organiser)
    return event


@pytest.mark.parametrize("name", FORMULAS)
@pytest.mark.parametrize("field", ["first_name", "last_name"])
def test_pair_form_refuses_a_formula_name(logged_in, event, name, field):
    home = Club.objects.create(name="Sodankylän Tuppikerho")
    data = {
        "p1-first_name": "Aino", "p1-last_name": "Aalto",
        "p2-first_name": "Eino", "p2-last_name": "Eskola",
        "club": home.pk,
    }
    data[f"p2-{field}"] = name
    response = logged_in.post(reverse("organiser:pairs", args=[event.slug]), data)
    assert response.status_code == 200
    assert MESSAGE in response.content.decode()
    assert not Pair.objects.filter(event=event).exists()
    assert not Player.objects.exists()


def test_pair_form_still_takes_a_hyphen_inside_a_name(logged_in, event):
    home = Club.objects.create(name="Sodankylän Tuppikerho")
    data = {
        "p1-first_name": "Anna-Liisa", "p1-last_name": "Aalto-Nieminen",
        "p2-first_name": "Eino", "p2-last_name": "Eskola",
        "club": home.pk,
    }
    response = logged_in.post(reverse("organiser:pairs", args=[event.slug]), data)
    assert response.status_code == 302
    assert Pair.objects.filter(event=event).count() == 1


def _preview(client, event, upload):
    url = reverse("organiser:import", args=[event.slug])
    response = client.post(url, {"file": upload}, follow=True)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("name", FORMULAS)
def test_import_preview_refuses_a_formula_name_from_csv(logged_in, event, name):
    Club.objects.create(name="Sodankylän Tuppikerho", short_name="SoTK")
    text = "\n".join([HEADER, f"{name};Aalto;;Eino;Eskola;;SoTK", "Aino;Berg;;Eino;Niemi;;SoTK"])
    html = _preview(logged_in, event, csv_upload(text))
    assert "Pelaajan 1 nimi ei voi alkaa merkillä =, +, - tai @" in html
    rows = importer.check_rows(event, importer.read_rows(csv_upload(text)))
    assert [r.ok for r in rows] == [False, True]


@pytest.mark.parametrize("name", FORMULAS)
def test_import_preview_refuses_a_formula_name_from_xlsx(logged_in, event, name):
    Club.objects.create(name="Sodankylän Tuppikerho", short_name="SoTK")
    book = Workbook()
    book.active.append(HEADER.split(";"))
    book.active.append(["Aino", "Aalto", None, "Eino", name, None, "SoTK"])  # text, as Excel keeps a name
    upload = SimpleUploadedFile("parit.xlsx", workbooks.to_bytes(book))
    html = _preview(logged_in, event, upload)
    assert "Pelaajan 2 nimi ei voi alkaa merkillä =, +, - tai @" in html


def test_import_preview_refuses_a_formula_club(logged_in, event):
    Club.objects.create(name="=1+2")  # a club the admin let in earlier
    text = "\n".join([HEADER, "Aino;Aalto;;Eino;Eskola;;=1+2"])
    results = importer.check_rows(event, importer.read_rows(csv_upload(text)))
    assert results[0].errors == [
        "Kerhon nimi ei voi alkaa merkillä =, +, - tai @ (taulukko-ohjelma lukisi sen kaavaksi)."
    ]


def test_team_form_refuses_a_formula_team_name(db):
    from teams.forms import TeamForm

    home = Club.objects.create(name="Sodankylän Tuppikerho")
    starts = dt.date(2027, 2, 6)
    team_event = Event.objects.create(
        name="SM-joukkueet", slug="sm-joukkueet", season=Season.for_date(starts), starts_on=starts,
        ends_on=starts, kind=Event.Kind.SM_TEAM,
    )
    form = TeamForm({"name": "=1+2", "club": home.pk, "leader_name": "@Johtaja"}, event=team_event)
    assert not form.is_valid()
    assert form.errors["name"] == [MESSAGE]
    assert form.errors["leader_name"] == [MESSAGE]
