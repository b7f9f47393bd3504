"""The federation's workbooks (openpyxl): the season's cup and one event's results.

Number formats. Points are stored as numbers (12.5, never the text "12,5"): a spreadsheet can add
them up. The format code's "." is the decimal separator of whoever opens the file, so Excel or
LibreOffice in Finnish shows 12,5. Each cell gets the format its value needs: ``0`` for whole points
(25, not 25,0) and ``0.0`` for halves (12,5). A single ``0.0`` would print every whole value with a
trailing ",0", and ``General`` cannot be combined with brackets reliably across spreadsheet programs.

Counted and uncounted points differ by more than colour (RULES.md §8, best N): counted points are
bold (``0`` / ``0.0``), uncounted ones italic, grey and in brackets (``(0)`` / ``(0.0)``), so that a
black-and-white print still tells them apart. A legend under each ranking says so.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.pagebreak import Break
from openpyxl.worksheet.worksheet import Worksheet

from cup import services
from lib import workbooks
from tournaments.models import Stage
from tournaments.readmodel import values
from tournaments.readmodel.results import decided_by_label

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", fgColor="DDE3EA")
HEADER_ALIGN = Alignment(wrap_text=True, vertical="top")
TITLE_FONT = Font(bold=True, size=12)
COUNTED_FONT = Font(bold=True)
UNCOUNTED_FONT = Font(italic=True, color="6B7785")
NOTE_FONT = Font(italic=True)
EVENT_COLUMN_WIDTH = 15
DATE_FORMAT = "dd.mm.yyyy"  # a date cell (a real date, shown 12.09.2026, with no time of day)
# Rows of default height that surely fit on one A4 landscape page with the margins below (about 33 do).
ROWS_PER_PAGE = 30


def to_bytes(workbook: Workbook) -> bytes:
    """The .xlsx file, every text cell stored as text, never as a formula (``lib.workbooks``)."""
    return workbooks.to_bytes(workbook)


def print_setup(ws: Worksheet, *, title_rows: str | None = "1:1") -> None:
    """How a sheet prints: A4 landscape, fitted to one page wide (as many pages tall as it takes), the
    header row (``title_rows``) repeated at the top of every page, page numbers in the footer."""
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = ws.ORIENTATION_LANDSCAPE
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0  # no limit: one page wide, as many pages tall as the rows need
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins = PageMargins(left=0.5, right=0.5, top=0.6, bottom=0.6, header=0.3, footer=0.3)
    if title_rows:
        ws.print_title_rows = title_rows
    ws.oddFooter.left.text = "&A"
    ws.oddFooter.right.text = "&P / &N"


def date_cell(ws: Worksheet, row: int, col: int, day: dt.date | dt.datetime | None):
    """A date as a spreadsheet date (a number the program can sort and count with) shown as a date only."""
    if isinstance(day, dt.datetime):
        day = day.date()
    cell = ws.cell(row=row, column=col, value=day)
    cell.number_format = DATE_FORMAT
    return cell


def number(points: Decimal) -> int | float:
    """Points as a spreadsheet number: an int when whole, else a float (halves are exact in binary)."""
    return int(points) if points == points.to_integral_value() else float(points)


def points_format(points: Decimal, *, counted: bool = True) -> str:
    """``0`` for whole points, ``0.0`` for halves; uncounted points in brackets (see the module text)."""
    code = "0" if points == points.to_integral_value() else "0.0"
    return code if counted else f"({code})"


def places_text(places: dict[int, int]) -> str:
    """The counted places that break ties (RULES.md §8), e.g. "1.×2, 3.×1"."""
    return ", ".join(f"{place}.×{n}" for place, n in places.items())


# --------------------------------------------------------------------------------------------------
# The season


def season_workbook(cup: services.SeasonCup) -> Workbook:
    workbook = Workbook()
    workbook.properties.title = _("Tuppicup %(season)s") % {"season": cup.season}
    workbook.properties.creator = _("Suomen Tuppiliitto")
    players = workbook.active
    players.title = _("Pelaajat")
    _ranking_sheet(players, cup, cup.players, pairs=False)
    _ranking_sheet(workbook.create_sheet(_("Parit")), cup, cup.pairs, pairs=True)
    _clubs_sheet(workbook.create_sheet(_("Kerhot")), cup)
    _events_sheet(workbook.create_sheet(_("Kisat")), cup)
    _fines_sheet(workbook.create_sheet(_("Sakot")), cup)
    return workbook


def _event_header(column: services.Column) -> str:
    lines = [f"{column.number}. {column.event.name}", f"{column.event.starts_on:%d.%m.%Y}"]
    if column.half:
        lines.append(_("paino ½"))
    if not column.placed:
        lines.append(_("ei tuloksia"))
    return "\n".join(lines)


def _header(ws: Worksheet, titles: list[str], row: int = 1) -> None:
    for col, title in enumerate(titles, start=1):
        cell = ws.cell(row=row, column=col, value=title)
        cell.font, cell.fill, cell.alignment = HEADER_FONT, HEADER_FILL, HEADER_ALIGN


def _points_cell(
    ws: Worksheet, row: int, col: int, points: Decimal, *, counted: bool = True, total: bool = False
):
    cell = ws.cell(row=row, column=col, value=number(points))
    cell.number_format = points_format(points, counted=counted)
    cell.font = COUNTED_FONT if counted or total else UNCOUNTED_FONT
    return cell


def _ranking_sheet(ws: Worksheet, cup: services.SeasonCup, rows, *, pairs: bool) -> None:
    fixed = [
        _("Sija"),
        _("Pari") if pairs else _("Pelaaja"),
        _("Kerhot") if pairs else _("Kerho"),
        _("Pisteet"),
    ]
    tail = [_("Lasketut kisat"), _("Sijat (lasketut)"), _("Otteluvoitot (lasketut)")]
    _header(ws, fixed + [_event_header(c) for c in cup.columns] + tail)
    print_setup(ws)
    first_event = len(fixed) + 1
    after = first_event + len(cup.columns)
    for r, row in enumerate(rows, start=2):
        ws.cell(row=r, column=1, value=row.rank_label)
        ws.cell(row=r, column=2, value=row.name)
        if pairs:
            ws.cell(row=r, column=3, value=", ".join(c.name for c in row.clubs))
        else:
            ws.cell(row=r, column=3, value=row.club.name if row.club is not None else _("tuntematon"))
        _points_cell(ws, r, 4, row.points, total=True)
        for i, cell in enumerate(row.cells):
            if cell is not None:
                _points_cell(ws, r, first_event + i, cell.points, counted=cell.counted)
        ws.cell(row=r, column=after, value=row.counted)
        ws.cell(row=r, column=after + 1, value=places_text(row.places))
        ws.cell(row=r, column=after + 2, value=row.match_wins)
    legend = len(rows) + 3
    best = _("kaikki") if cup.best_n is None else str(cup.best_n)
    notes = [
        _("Lihavoitu: lasketaan cupiin (parhaat N kisaa: %(best)s).") % {"best": best},
        _("Kursiivi suluissa: ei lasketa."),
        _(
            "Tasapisteissä ratkaisevat lasketut 1. sijat, 2. sijat … 16. sijat, sitten otteluvoitot; "
            "muuten sija jaetaan (esim. 2.–3.)."
        ),
    ]
    for i, text in enumerate(notes):
        ws.cell(row=legend + i, column=2, value=text).font = NOTE_FONT
    ws.freeze_panes = ws.cell(row=2, column=first_event)
    ws.row_dimensions[1].height = 48
    _fit(ws, {1: 8, 2: 34 if pairs else 24, 3: 24, 4: 9, after: 10, after + 1: 18, after + 2: 12})
    for i in range(len(cup.columns)):
        ws.column_dimensions[get_column_letter(first_event + i)].width = EVENT_COLUMN_WIDTH


def _clubs_sheet(ws: Worksheet, cup: services.SeasonCup) -> None:
    _header(
        ws,
        [
            _("Sija"),
            _("Kerho"),
            _("Pisteet"),
            _("Pelaajia"),
            _("Sijat (lasketut)"),
            _("Otteluvoitot (lasketut)"),
            _("Pelaajat ja lasketut pisteet"),
        ],
    )
    print_setup(ws)
    for r, club in enumerate(cup.clubs, start=2):
        ws.cell(row=r, column=1, value=club.rank_label)
        ws.cell(row=r, column=2, value=club.club.name)
        _points_cell(ws, r, 3, club.points, total=True)
        ws.cell(row=r, column=4, value=len(club.members))
        ws.cell(row=r, column=5, value=places_text(club.places))
        ws.cell(row=r, column=6, value=club.match_wins)
        ws.cell(
            row=r,
            column=7,
            value=", ".join(f"{m.player.full_name} {_fi_points(m.points)}" for m in club.members),
        )
    r = len(cup.clubs) + 3
    ws.cell(
        row=r, column=1, value=_("Kauden kerho tuntematon: pisteet eivät mene millekään kerholle")
    ).font = TITLE_FONT
    r += 1
    if cup.unknown_club:
        _header(ws, [_("Sija"), _("Pelaaja"), _("Pisteet")], row=r)
        for member in cup.unknown_club:
            r += 1
            ws.cell(row=r, column=1, value=member.rank_label)
            ws.cell(row=r, column=2, value=member.player.full_name)
            _points_cell(ws, r, 3, member.points, total=True)
    else:
        ws.cell(row=r, column=2, value=_("Ei ketään.")).font = NOTE_FONT
    r += 2
    ws.cell(
        row=r, column=1, value=_("Seurasiirrot: kauden pisteet jäävät ensimmäiselle kerholle")
    ).font = TITLE_FONT
    r += 1
    if cup.transfers:
        _header(
            ws, [_("Vahvistettu"), _("Pelaaja"), _("Kerhosta"), _("Kerhoon"), _("Pisteet kerholle")], row=r
        )
        for note in cup.transfers:
            r += 1
            t = note.transfer
            date_cell(ws, r, 1, t.confirmed_on)
            ws.cell(row=r, column=2, value=t.player.full_name)
            ws.cell(row=r, column=3, value=t.from_club.name)
            ws.cell(row=r, column=4, value=t.to_club.name)
            ws.cell(row=r, column=5, value=note.points_club.name if note.points_club else _("tuntematon"))
    else:
        ws.cell(row=r, column=2, value=_("Ei seurasiirtoja.")).font = NOTE_FONT
    ws.freeze_panes = "C2"
    _fit(ws, {1: 12, 2: 26, 3: 9, 4: 9, 5: 18, 6: 12, 7: 60})


def _events_sheet(ws: Worksheet, cup: services.SeasonCup) -> None:
    _header(
        ws,
        [_("Nro"), _("Päivä"), _("Kisa"), _("Laji"), _("Paino"), _("Tulokset"), _("Pareja"), _("Voittajat")],
    )
    print_setup(ws)
    winners: dict[int, list[str]] = {}
    for row in cup.pairs:
        for i, cell in enumerate(row.cells):
            if cell is not None and cell.place == 1:
                winners.setdefault(i, []).append(row.name)
    for r, column in enumerate(cup.columns, start=2):
        event = column.event
        ws.cell(row=r, column=1, value=column.number)
        date_cell(ws, r, 2, event.starts_on)
        ws.cell(row=r, column=3, value=event.name)
        ws.cell(row=r, column=4, value=event.get_kind_display())
        weight = ws.cell(row=r, column=5, value=number(column.weight))
        weight.number_format = points_format(column.weight)
        ws.cell(row=r, column=6, value=_("julkaistu") if column.placed else _("ei vielä valmiit"))
        ws.cell(row=r, column=7, value=column.entries if column.placed else None)
        ws.cell(row=r, column=8, value=" · ".join(winners.get(column.number - 1, [])))
    r = len(cup.columns) + 3
    best = _("kaikki") if cup.best_n is None else str(cup.best_n)
    ws.cell(row=r, column=3, value=_("Laskettavat kisat pelaajaa kohden: %(best)s") % {"best": best})
    ws.cell(
        row=r + 1,
        column=3,
        value=_("Pistetaulukko (sijat 1, 2, …): %(points)s")
        % {"points": ", ".join(str(p) for p in cup.table)},
    )
    ws.freeze_panes = "A2"
    _fit(ws, {1: 5, 2: 11, 3: 36, 4: 20, 5: 7, 6: 16, 7: 8, 8: 40})


def _fines_sheet(ws: Worksheet, cup: services.SeasonCup) -> None:
    """The season's club fines for forfeits in cup events (``cup.fines``, issue #19): per club its count
    and total, then every fine with its event, match, pair, date and reason."""
    _header(ws, [_("Kerho"), _("Sakkoja"), _("Yhteensä (€)"), _("Maksamatta (€)")])
    totals = services.fines_by_club(cup.season)
    for r, row in enumerate(totals, start=2):
        ws.cell(row=r, column=1, value=row["club"])
        ws.cell(row=r, column=2, value=row["count"])
        ws.cell(row=r, column=3, value=float(row["total"])).number_format = "0.00"
        ws.cell(row=r, column=4, value=float(row["unpaid"])).number_format = "0.00"
    if not totals:
        ws.cell(row=2, column=1, value=_("Ei sakkoja tällä kaudella.")).font = NOTE_FONT
    r = max(len(totals), 1) + 3
    ws.cell(row=r, column=1, value=_("Sakot luovutuksista cupin kisoissa")).font = TITLE_FONT
    r += 1
    _header(
        ws,
        [_("Kerho"), _("Päivä"), _("Kisa"), _("Ottelu"), _("Luovuttanut pari"), _("Syy"), _("Summa (€)"), _("Maksettu")],
        row=r,
    )
    for fine in services.season_fines(cup.season):
        r += 1
        match = fine.match
        ws.cell(row=r, column=1, value=fine.club.name)
        ws.cell(row=r, column=2, value=fine.forfeited_on).number_format = "dd.mm.yyyy"
        ws.cell(row=r, column=3, value=fine.event.name)
        ws.cell(row=r, column=4, value=f"{match.get_stage_display()} {match.round}/{match.table}")
        ws.cell(row=r, column=5, value=f"{fine.pair.number}: {fine.pair.full_name}")
        ws.cell(row=r, column=6, value=fine.reason or _("luovutus"))
        ws.cell(row=r, column=7, value=float(fine.amount)).number_format = "0.00"
        if fine.paid_on is not None:
            ws.cell(row=r, column=8, value=fine.paid_on).number_format = "dd.mm.yyyy"
    ws.freeze_panes = "A2"
    print_setup(ws)
    _fit(ws, {1: 26, 2: 11, 3: 30, 4: 18, 5: 34, 6: 16, 7: 10, 8: 11})


def _fi_points(points: Decimal) -> str:
    text = str(number(points))
    return text.replace(".", ",")


def _fit(ws: Worksheet, widths: dict[int, int]) -> None:
    """Column widths from the longest value, at least the given width and at most 60 characters."""
    longest: dict[int, int] = {}
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            if cell.value is not None and not isinstance(cell.value, (int, float)):
                longest[cell.column] = max(longest.get(cell.column, 0), len(str(cell.value)))
    for col, width in widths.items():
        ws.column_dimensions[get_column_letter(col)].width = min(max(width, longest.get(col, 0) + 2), 60)


# --------------------------------------------------------------------------------------------------
# One event




def event_workbook(snap: values.EventSnapshot, cup: services.EventCup | None) -> Workbook:
    """Final places with pairs, clubs, match wins and cup points; then every group's table. ``cup``: the
    event's weight and each place's points (``services.event_cup``), None when it is not counted."""
    workbook = Workbook()
    workbook.properties.title = snap.event.name
    workbook.properties.creator = _("Suomen Tuppiliitto")
    ws = workbook.active
    ws.title = _("Sijat")
    _places_sheet(ws, snap, cup)
    for stage, title in ((Stage.SATURDAY, _("Alkulohkot")), (Stage.SUNDAY, _("Sunnuntain lohkot"))):
        tables = snap.stage_tables(stage)
        if tables:
            _groups_sheet(workbook.create_sheet(title), tables)
    return workbook


def _places_sheet(ws: Worksheet, snap: values.EventSnapshot, cup: services.EventCup | None) -> None:
    places = snap.final_places
    event = snap.event
    points = cup.points if cup is not None else None
    _header(
        ws,
        [
            _("Sija"),
            _("Nro"),
            _("Pari"),
            _("Pelaaja 1"),
            _("Pelaaja 2"),
            _("Kerho"),
            _("Otteluvoitot"),
            _("Cup-pisteet pelaajaa kohden"),
        ],
    )
    print_setup(ws)
    ws.freeze_panes = "A2"
    if places is None:
        ws.cell(row=2, column=3, value=_("Sijat eivät ole vielä ratkenneet.")).font = NOTE_FONT
        return
    labels = services.rank_labels([place for place, _pair in places])
    for r, ((place, pair_id), label) in enumerate(zip(places, labels, strict=True), start=2):
        pair = snap.pairs[pair_id]
        players = pair.players
        ws.cell(row=r, column=1, value=label)
        ws.cell(row=r, column=2, value=pair.number)
        ws.cell(row=r, column=3, value=pair.name)
        ws.cell(row=r, column=4, value=players[0].full_name if players else None)
        ws.cell(row=r, column=5, value=players[1].full_name if len(players) > 1 else None)
        ws.cell(row=r, column=6, value=pair.club.name)
        ws.cell(row=r, column=7, value=snap.match_wins.get(pair_id, 0))
        if points is not None and event.finished_at is not None and place in points:
            _points_cell(ws, r, 8, points[place])
    note_row = len(places) + 3
    if cup is None:
        note = _("Kisa ei ole Tuppicupin osakilpailu: cup-pisteitä ei jaeta.")
    elif event.finished_at is None:
        note = _("Tuloksia ei ole vielä julkaistu: cup-pisteet näkyvät julkaisun jälkeen.")
    else:
        note = _("Cup-pisteet: paino %(weight)s, sijat 1–%(n)s saavat pisteitä (molemmat pelaajat).") % {
            "weight": cup.weight_label,
            "n": len(points or ()),
        }
    ws.cell(row=note_row, column=3, value=note).font = NOTE_FONT
    _fit(ws, {1: 8, 2: 5, 3: 26, 4: 22, 5: 22, 6: 24, 7: 12, 8: 14})


def _groups_sheet(ws: Worksheet, tables) -> None:
    # Printing: every group starts with its title and header row, and a group is never split over two
    # pages (a page break goes before a group that would not fit), so every printed page begins with a
    # group's header row; a repeated first header would name no group.
    print_setup(ws, title_rows=None)
    r = 1
    page_top = 1
    for t in tables:
        height = 2 + len(t.rows) + len(t.withdrawn)
        if r > page_top and r + height - page_top > ROWS_PER_PAGE:
            ws.row_breaks.append(Break(id=r - 1))
            page_top = r
        ws.cell(row=r, column=1, value=str(t.group)).font = TITLE_FONT
        r += 1
        _header(
            ws, [_("Sija"), _("Nro"), _("Pari"), _("Kerho"), _("OP"), _("V"), _("NP"), _("Ratkaisi")], row=r
        )
        for row in t.rows:
            r += 1
            s = row.standing
            ws.cell(row=r, column=1, value=f"{s.rank}.")
            ws.cell(row=r, column=2, value=row.pair.number)
            ws.cell(row=r, column=3, value=row.pair.full_name)
            ws.cell(row=r, column=4, value=row.pair.club.name)
            ws.cell(row=r, column=5, value=s.match_points)
            ws.cell(row=r, column=6, value=s.wins)
            ws.cell(row=r, column=7, value=s.totals)
            ws.cell(row=r, column=8, value=decided_by_label(s) or None)
        for pair in t.withdrawn:
            r += 1
            ws.cell(row=r, column=2, value=pair.number)
            ws.cell(row=r, column=3, value=pair.full_name)
            ws.cell(row=r, column=4, value=pair.club.name)
            ws.cell(row=r, column=8, value=_("luopunut, ottelut mitätöity")).font = NOTE_FONT
        r += 2
    _fit(ws, {1: 8, 2: 5, 3: 36, 4: 24, 5: 6, 6: 5, 7: 6, 8: 20})
