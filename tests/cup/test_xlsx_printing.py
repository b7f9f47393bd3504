"""How the workbooks print (issue #18.5): every sheet of the season and event workbooks A4 landscape,
fitted to one page wide, the header row repeated on every printed page (a group sheet: no group split
over two pages, each page starting with a group's title and header), and dates stored as dates shown
without a time. Read back from the saved file with openpyxl; the last test also prints them with
LibreOffice where it is installed."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from io import BytesIO, StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from cup import xlsx
from tests.cup.builders import workbook
from tournaments.models import Event

GROUP_SHEETS = {"Alkulohkot", "Sunnuntain lohkot"}


def season_download(client, season):
    return client.get(reverse("cup:season_xlsx", args=[season.pk, f"{season.start.year}-{season.start.year + 1}"]))


def assert_prints_landscape_one_page_wide(wb):
    for ws in wb.worksheets:
        setup = ws.page_setup
        assert int(setup.paperSize) == 9, ws.title  # A4
        assert setup.orientation == "landscape", ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert (setup.fitToWidth, setup.fitToHeight) == (1, 0), ws.title  # one page wide, any height
        assert "&P" in ws.oddFooter.right.text  # page numbers
        if ws.title in GROUP_SHEETS:
            assert_groups_kept_whole(ws)
        else:
            assert ws.print_title_rows == "$1:$1", ws.title


def assert_groups_kept_whole(ws):
    """Every page starts with a group's title (then its header row) and holds at most ROWS_PER_PAGE rows."""
    breaks = [b.id for b in ws.row_breaks.brk]
    tops = [1] + [b + 1 for b in breaks]
    for top in tops:
        assert str(ws.cell(row=top, column=1).value).startswith("Lohko"), (ws.title, top)
        assert ws.cell(row=top + 1, column=1).value == "Sija"
    for top, following in zip(tops, tops[1:] + [ws.max_row + 1], strict=True):
        assert following - top <= xlsx.ROWS_PER_PAGE + 1, (ws.title, top, following)


def test_season_workbook_prints(client, hand_season):
    wb = workbook(season_download(client, hand_season.season))
    assert_prints_landscape_one_page_wide(wb)


def test_event_workbook_prints(client, hand_season):
    for event in hand_season.events:
        wb = workbook(client.get(reverse("cup:event_xlsx", args=[event.slug])))
        assert_prints_landscape_one_page_wide(wb)


def test_dates_are_dates_without_a_time(client, hand_season):
    wb = workbook(season_download(client, hand_season.season))
    events = wb["Kisat"]
    days = [events.cell(row=r, column=2) for r in range(2, 2 + len(hand_season.events))]
    for cell in days:
        assert cell.is_date and cell.value.time() == dt.time(0, 0)
        assert cell.number_format == "dd.mm.yyyy"  # a date only: no "hh:mm" shown
    assert [c.value.date() for c in days] == [e.starts_on for e in hand_season.events]
    transfers = [c for row in wb["Kerhot"].iter_rows() for c in row if c.is_date]
    assert transfers and all(c.number_format == "dd.mm.yyyy" for c in transfers)


def test_date_cell_takes_a_datetime_as_its_day():
    from openpyxl import Workbook

    ws = Workbook().active
    xlsx.date_cell(ws, 1, 1, dt.datetime(2026, 9, 12, 17, 45))
    out = BytesIO()
    ws.parent.save(out)
    cell = load_workbook(BytesIO(out.getvalue())).active["A1"]
    assert cell.value == dt.datetime(2026, 9, 12) and cell.number_format == "dd.mm.yyyy"


@pytest.mark.slow
def test_a_two_day_event_keeps_its_groups_whole(client, db):
    out = StringIO()
    call_command("simulate_event", "--pairs", "70", "--seed", "5", stdout=out)
    event = Event.objects.get(slug=out.getvalue().split()[-1])
    wb = workbook(client.get(reverse("cup:event_xlsx", args=[event.slug])))
    assert wb.sheetnames == ["Sijat", "Alkulohkot", "Sunnuntain lohkot"]
    assert_prints_landscape_one_page_wide(wb)
    assert len(wb["Alkulohkot"].row_breaks.brk) >= 3  # 8 groups of about 9 pairs: several pages


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_libreoffice_prints_the_season_on_a_few_landscape_pages(client, db, tmp_path):
    """``simulate_season``'s season: about 60 players on 6 events print on a handful of landscape pages
    (without a page set-up the same workbook printed on 38 portrait pages)."""
    out = StringIO()
    call_command("simulate_season", "--pairs", "40", "--seed", "3", stdout=out)
    season_id = int(out.getvalue().split()[-1])
    from registry.models import Season

    season = Season.objects.get(pk=season_id)
    (tmp_path / "season.xlsx").write_bytes(season_download(client, season).content)
    event = Event.objects.filter(season=season, kind=Event.Kind.CUP).order_by("starts_on").first()
    (tmp_path / "event.xlsx").write_bytes(client.get(reverse("cup:event_xlsx", args=[event.slug])).content)
    subprocess.run(
        ["soffice", f"-env:UserInstallation=file://{tmp_path}/lo", "--headless", "--convert-to", "pdf",
         "--outdir", str(tmp_path), str(tmp_path / "season.xlsx"), str(tmp_path / "event.xlsx")],
        check=True, capture_output=True, timeout=180,
    )
    for name, most in (("season", 8), ("event", 8)):
        pages = PdfReader(tmp_path / f"{name}.pdf").pages
        assert 1 <= len(pages) <= most, (name, len(pages))
        for page in pages:
            width, height = float(page.mediabox.width), float(page.mediabox.height)
            assert (round(width), round(height)) == (842, 595)  # A4 landscape, in points
