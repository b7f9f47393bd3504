"""One event's workbook ``/kisat/<slug>/tulokset.xlsx``: final places with pairs, clubs, match wins and cup
points, then every group's table (values from the hand-worked season of conftest.py)."""

from __future__ import annotations

import datetime as dt
from io import StringIO

from django.core.management import call_command
from django.urls import reverse

from tests.cup.builders import club, one_group_event, player, sheet_rows, workbook
from tournaments.models import Event, PaperResult
from tournaments.readmodel import build


def test_summer_event_workbook(client, hand_season):
    summer = hand_season.events[2]
    response = client.get(reverse("cup:event_xlsx", args=[summer.slug]))
    assert response["Content-Disposition"] == f'attachment; filename="{summer.slug}-tulokset.xlsx"'
    wb = workbook(response)
    assert wb.sheetnames == ["Sijat", "Alkulohkot"]  # a one-stage event has no Sunday groups
    ws = wb["Sijat"]
    assert [c.value for c in ws[1]] == [
        "Sija",
        "Nro",
        "Pari",
        "Pelaaja 1",
        "Pelaaja 2",
        "Kerho",
        "Otteluvoitot",
        "Cup-pisteet pelaajaa kohden",
    ]
    assert ws.freeze_panes == "A2"
    rows = [[c.value for c in r] for r in sheet_rows(ws)]
    # The summer event counts half: 25, 22, 20, 18 become 12,5, 11, 10, 9; pair k beat the pairs below it.
    assert [(r[0], r[2], r[5], r[6], r[7]) for r in rows] == [
        ("1.", "Ilola / Jussila", "Rovaniemen Rami", 3, 12.5),
        ("2.", "Cajander / Dahl", "Oulun Tuppiseura", 2, 11),
        ("3.", "Aho / Blom", "Kemin Kasa", 1, 10),
        ("4.", "Eskola / Forsman", "Rovaniemen Rami", 0, 9),
    ]
    assert rows[0][3:5] == ["Iida Ilola", "Jussi Jussila"]
    assert sheet_rows(ws)[0][7].number_format == "0.0"
    assert (
        ws.cell(row=7, column=3).value
        == "Cup-pisteet: paino ½, sijat 1–16 saavat pisteitä (molemmat pelaajat)."
    )
    groups = [[c.value for c in r] for r in wb["Alkulohkot"].iter_rows()]
    assert groups[0][0] == "Lohko A"
    assert groups[1] == ["Sija", "Nro", "Pari", "Kerho", "OP", "V", "NP", "Ratkaisi"]
    # 3–2 match points a win; 40 rise points a win, 20 a loss
    assert [(g[0], g[2], g[4], g[5], g[6]) for g in groups[2:6]] == [
        ("1.", "Iida Ilola / Jussi Jussila", 9, 3, 120),
        ("2.", "Cecilia Cajander / Daniel Dahl", 8, 2, 100),
        ("3.", "Anna Aho / Bertta Blom", 7, 1, 80),
        ("4.", "Eero Eskola / Frans Forsman", 6, 0, 60),
    ]


def test_event_outside_the_cup_and_unfinished_event(client, db):
    k = club("Kemin Kasa")
    a, b, c, d = (player("X", f"Pelaaja{i}", k) for i in range(4))
    friendly, _pairs = one_group_event("Ystävyysottelu", dt.date(2025, 10, 4), [(a, b, k), (c, d, k)])
    ws = workbook(client.get(reverse("cup:event_xlsx", args=[friendly.slug])))["Sijat"]
    rows = [[c.value for c in r] for r in sheet_rows(ws)]
    assert [(r[0], r[7]) for r in rows] == [("1.", None), ("2.", None)]
    assert ws.cell(row=5, column=3).value == "Kisa ei ole Tuppicupin osakilpailu: cup-pisteitä ei jaeta."

    e, f, g, h = (player("Y", f"Pelaaja{i}", k) for i in range(4))
    live, _pairs = one_group_event("Kesken", dt.date(2025, 10, 11), [(e, f, k), (g, h, k)], publish=False)
    live.matches.update(status="scheduled")
    PaperResult.objects.filter(match__event=live).delete()
    ws = workbook(client.get(reverse("cup:event_xlsx", args=[live.slug])))["Sijat"]
    assert ws.cell(row=2, column=3).value == "Sijat eivät ole vielä ratkenneet."


def test_simulated_two_day_event_has_sunday_groups(client, db):
    out = StringIO()
    call_command("simulate_event", "--pairs", "20", "--seed", "21", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    wb = workbook(client.get(reverse("cup:event_xlsx", args=[event.slug])))
    assert wb.sheetnames == ["Sijat", "Alkulohkot", "Sunnuntain lohkot"]
    places = build.build(event.pk).final_places
    rows = sheet_rows(wb["Sijat"])
    assert [r[1].value for r in rows] == [event.pairs.get(pk=pair).number for _place, pair in places]
    assert rows[0][0].value == "1." and len(rows) == 20
    assert rows[0][7].value is None  # not counted for the cup (no CupEvent)
    sunday_titles = [
        r[0].value for r in wb["Sunnuntain lohkot"].iter_rows() if str(r[0].value).startswith("Lohko")
    ]
    assert sunday_titles == ["Lohko 1", "Lohko 2", "Lohko 3", "Lohko 4"]


def test_unknown_event_is_404(client, db):
    assert client.get(reverse("cup:event_xlsx", args=["ei-ole"])).status_code == 404
