"""Builders for the entry pages' tests: clubs, players, pairs, a drawn event and uploaded files."""

from __future__ import annotations

import io
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import timezone

from registry.models import Club, Player
from tournaments.actions import entries
from tournaments.models import Event

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def load_registry() -> None:
    """The demo clubs and players: the sample import files name them."""
    call_command("loaddata", str(FIXTURES / "demo_registry.json"), verbosity=0)


def club(name: str = "Sodankylän Tuppikerho", short_name: str = "SoTK") -> Club:
    return Club.objects.get_or_create(name=name, defaults={"short_name": short_name})[0]


def player(first: str, last: str, number: str | None = None, home: Club | None = None) -> Player:
    return Player.objects.create(first_name=first, last_name=last, member_number=number, club=home)


def add_pairs(event: Event, n: int, *, home: Club | None = None) -> list:
    """``n`` pairs of fresh players, entered through the service as the pages do."""
    home = home or club()
    start = Player.objects.count()
    players = Player.objects.bulk_create(
        Player(
            first_name=f"Etu{start + i}",
            last_name=f"Suku{start + i}",
            member_number=f"X{start + i}",
            club=home,
        )
        for i in range(2 * n)
    )
    return [entries.create_pair(event, players[2 * i], players[2 * i + 1], home) for i in range(n)]


def mark_drawn(event: Event) -> None:
    """As if the groups had been drawn (only the draw's record matters to the entry pages)."""
    Event.objects.filter(pk=event.pk).update(drawn_at=timezone.now(), draw_seed=1)
    event.refresh_from_db()


def csv_upload(text: str, name: str = "parit.csv", encoding: str = "utf-8") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(encoding), content_type="text/csv")


def fixture_upload(filename: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(filename, (FIXTURES / filename).read_bytes(), content_type="text/csv")


def xlsx_upload(rows: list[list], name: str = "parit.xlsx") -> SimpleUploadedFile:
    import openpyxl

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return SimpleUploadedFile(
        name, out.getvalue(), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )


HEADER = "pelaaja1_etunimi;pelaaja1_sukunimi;pelaaja1_jasennumero;pelaaja2_etunimi;pelaaja2_sukunimi;pelaaja2_jasennumero;kerho"


def truncated_xlsx_upload() -> SimpleUploadedFile:
    """A workbook whose sheet XML is cut in half: a valid ZIP that is not a readable spreadsheet."""
    import zipfile

    good = xlsx_upload([HEADER.split(";")]).read()
    source, out = zipfile.ZipFile(io.BytesIO(good)), io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            target.writestr(name, data[: len(data) // 2] if name == "xl/worksheets/sheet1.xml" else data)
    return SimpleUploadedFile("rikki.xlsx", out.getvalue())
