"""The season workbook ``/cup/<season>/tuppicup-<years>.xlsx`` opened with openpyxl: sheets, headers, one
column per event in date order, totals, counted points bold and uncounted italic in brackets (a format,
not only a colour), halves stored as 12.5 with the format ``0.0`` (Excel shows 12,5 in Finnish), frozen
headers and widths. Expected values are the hand-worked season of conftest.py."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from tests.cup.builders import sheet_rows, workbook


def download(client, season):
    return client.get(reverse("cup:season_xlsx", args=[season.pk, "2025-2026"]))


def by_name(ws):
    return {row[1].value: row for row in sheet_rows(ws)}


def test_sheets_headers_and_layout(client, hand_season):
    response = download(client, hand_season.season)
    assert response["Content-Disposition"] == 'attachment; filename="tuppicup-2025-2026.xlsx"'
    wb = workbook(response)
    assert wb.sheetnames == ["Pelaajat", "Parit", "Kerhot", "Kisat", "Sakot"]  # Sakot: issue #19's club fines
    ws = wb["Pelaajat"]
    assert [c.value for c in ws[1]] == [
        "Sija",
        "Pelaaja",
        "Kerho",
        "Pisteet",
        "1. Kemin osakilpailu\n13.09.2025",
        "2. Oulun osakilpailu\n08.11.2025",
        "3. Kesäkisa\n13.06.2026\npaino ½",
        "Lasketut kisat",
        "Sijat (lasketut)",
        "Otteluvoitot (lasketut)",
    ]
    assert all(c.font.b for c in ws[1])
    assert ws.freeze_panes == "E2"  # header row and rank, name, club and total stay in view
    assert ws.column_dimensions["B"].width >= 24 and ws.column_dimensions["E"].width == 15
    assert (
        wb["Parit"].freeze_panes == "E2"
        and wb["Kerhot"].freeze_panes == "C2"
        and wb["Kisat"].freeze_panes == "A2"
    )


def test_player_sheet_points_counted_and_halves(client, hand_season):
    ws = workbook(download(client, hand_season.season))["Pelaajat"]
    rows = by_name(ws)
    assert len(rows) == 10
    aho = rows["Anna Aho"]
    assert [c.value for c in aho] == ["1.–2.", "Anna Aho", "Kemin Kasa", 47, 25, 22, 10, 2, "1.×1, 2.×1", 5]
    # counted: bold, plain number format; not counted (best 2): italic and in brackets
    assert [(c.font.b, c.font.i, c.number_format) for c in aho[4:7]] == [
        (True, False, "0"),
        (True, False, "0"),
        (False, True, "(0)"),
    ]
    assert (aho[3].font.b, aho[3].number_format) == (True, "0")  # the total
    ilola = rows["Iida Ilola"]
    assert ilola[6].value == 12.5 and ilola[6].number_format == "0.0" and ilola[6].font.b  # shown 12,5
    assert ilola[3].value == 12.5 and ilola[3].number_format == "0.0"
    assert ilola[4].value is None and ilola[5].value is None  # events not played are empty
    assert rows["Jussi Jussila"][2].value == "tuntematon"
    assert [(r[0].value, r[3].value) for r in sheet_rows(ws)] == [
        ("1.–2.", 47),
        ("1.–2.", 47),
        ("3.–4.", 43),
        ("3.–4.", 43),
        ("5.–6.", 40),
        ("5.–6.", 40),
        ("7.–8.", 40),
        ("7.–8.", 40),
        ("9.–10.", 12.5),
        ("9.–10.", 12.5),
    ]
    # every total is the sum of its bold event cells
    for row in sheet_rows(ws):
        assert row[3].value == sum(c.value for c in row[4:7] if c.value is not None and c.font.b)
    legend = [ws.cell(row=r, column=2).value for r in range(13, 16)]
    assert legend[0] == "Lihavoitu: lasketaan cupiin (parhaat N kisaa: 2)."
    assert legend[1] == "Kursiivi suluissa: ei lasketa."


def test_pair_sheet(client, hand_season):
    ws = workbook(download(client, hand_season.season))["Parit"]
    rows = sheet_rows(ws)
    assert [(r[0].value, r[3].value) for r in rows] == [
        ("1.", 47),
        ("2.", 43),
        ("3.", 40),
        ("4.", 40),
        ("5.", 12.5),
    ]
    assert rows[2][1].value == "Greta Grön / Heikki Heino"
    assert rows[2][2].value == "Oulun Tuppiseura, Kemin Kasa"
    assert [(c.value, c.number_format) for c in rows[1][4:7]] == [(18, "0"), (25, "0"), (11, "(0)")]


def test_club_sheet_with_notes(client, hand_season):
    ws = workbook(download(client, hand_season.season))["Kerhot"]
    rows = sheet_rows(ws)
    assert [(r[0].value, r[1].value, r[2].value, r[2].number_format, r[3].value) for r in rows] == [
        ("1.", "Oulun Tuppiseura", 166, "0", 4),
        ("2.", "Kemin Kasa", 94, "0", 2),
        ("3.", "Rovaniemen Rami", 92.5, "0.0", 3),
    ]
    assert rows[2][6].value == "Eero Eskola 40, Frans Forsman 40, Iida Ilola 12,5"
    values = [[c.value for c in row] for row in ws.iter_rows(min_row=5)]
    unknown = values.index(
        next(v for v in values if v[0] and str(v[0]).startswith("Kauden kerho tuntematon"))
    )
    assert values[unknown + 2][:3] == ["9.–10.", "Jussi Jussila", 12.5]
    transfer = next(v for v in values if v[1] == "Heikki Heino")
    assert transfer[:5] == [
        dt.datetime(2025, 10, 1),
        "Heikki Heino",
        "Oulun Tuppiseura",
        "Kemin Kasa",
        "Oulun Tuppiseura",
    ]


def test_events_sheet(client, hand_season):
    ws = workbook(download(client, hand_season.season))["Kisat"]
    rows = [[c.value for c in r] for r in sheet_rows(ws)]
    assert rows == [
        [
            1,
            dt.datetime(2025, 9, 13),
            "Kemin osakilpailu",
            "cupin osakilpailu",
            1,
            "julkaistu",
            4,
            "Anna Aho / Bertta Blom",
        ],
        [
            2,
            dt.datetime(2025, 11, 8),
            "Oulun osakilpailu",
            "cupin osakilpailu",
            1,
            "julkaistu",
            4,
            "Cecilia Cajander / Daniel Dahl",
        ],
        [
            3,
            dt.datetime(2026, 6, 13),
            "Kesäkisa",
            "kesäkisa",
            0.5,
            "julkaistu",
            4,
            "Iida Ilola / Jussi Jussila",
        ],
    ]
    assert ws.cell(row=4, column=5).number_format == "0.0"


def test_wrong_years_redirect_and_unknown_season(client, hand_season):
    response = client.get(reverse("cup:season_xlsx", args=[hand_season.season.pk, "1999-2000"]))
    assert response.status_code == 302 and response["Location"].endswith("/tuppicup-2025-2026.xlsx")
    assert client.get(reverse("cup:season_xlsx", args=[999, "2025-2026"])).status_code == 404
