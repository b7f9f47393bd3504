"""PDF printouts with WeasyPrint (A4): scoresheets, the draw chart, group tables, the Sunday bracket and
the results list. Each printout is one HTML document rendered once, so a round of 64 scoresheets costs
one layout pass, one stylesheet and one set of fonts."""

from __future__ import annotations

import base64

import segno
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from weasyprint import HTML

from scoring.timetable import BREAK_AFTER
from tournaments import extensions
from tournaments.models import Entry, Match, PaperResult, Stage
from tournaments.readmodel import build
from tournaments.readmodel.prefetch import with_pairs
from tournaments.readmodel.results import MARKS, sheet_and_outcome
from tournaments.readmodel.weekend import labelled_places

SPARE_ROWS = 6  # for the rise played to its end and a deciding deal (RULES.md §3)


def render_pdf(template: str, context: dict) -> bytes:
    html = render_to_string(template, context)
    return HTML(string=html, base_url=None).write_pdf()


def qr_png(url: str) -> str:
    """The match's secret link as a PNG data URI (segno), one pixel a module, scaled up crisply by the
    stylesheet (``image-rendering: pixelated``): a PNG costs WeasyPrint far less than an SVG path of
    hundreds of segments."""
    # A fixed mask skips segno's evaluation of all eight (the code reads as well with any of them).
    return segno.make(url, error="m", mask=0, boost_error=False).png_data_uri(scale=1, border=2)


# The scoresheet is drawn as one SVG of grid lines per page with the text laid over it in one
# preformatted block per column: WeasyPrint lays out a few text blocks and a line drawing far faster
# than a 150-cell HTML table or SVG text, and identical blank grids share one image.
COLUMNS = (12, 12, 18, 20, 20, 30, 37, 37)  # mm; 186 mm = A4 minus 12 mm margins
HEADER_H, ROW_H = 7.0, 6.2
FOOTER_ROWS = 2


def grid_svg(body_rows: int, breaks: tuple[int, ...] = ()) -> str:
    """The grid lines of a scoresheet with ``body_rows`` rows, as an SVG data URI (no text); a heavy line
    under each row in ``breaks`` (1-based): the players' 5-minute breaks after deals 6 and 12."""
    xs = [0.0]
    for w in COLUMNS:
        xs.append(xs[-1] + w)
    width = xs[-1]
    body_bottom = HEADER_H + ROW_H * body_rows
    height = body_bottom + ROW_H * FOOTER_ROWS
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}mm" height="{height:.1f}mm" viewBox="0 0 {width} {height:.1f}">',
        f'<rect x="0" y="0" width="{width}" height="{HEADER_H}" fill="#eeeeee"/>',
        '<g stroke="#555" stroke-width="0.15">',
    ]
    for k in range(body_rows + FOOTER_ROWS + 2):
        y = 0 if k == 0 else HEADER_H + ROW_H * (k - 1)
        out.append(f'<line x1="0" y1="{y:.1f}" x2="{width}" y2="{y:.1f}"/>')
    for i, x in enumerate(xs):
        bottom = height if i in (0, 6, 7, 8) else body_bottom
        out.append(f'<line x1="{x:.1f}" y1="0" x2="{x:.1f}" y2="{bottom:.1f}"/>')
    out.append("</g>")
    if breaks:
        out.append('<g stroke="#000" stroke-width="0.8">')
        for row in breaks:
            y = HEADER_H + ROW_H * row
            out.append(f'<line class="break" x1="0" y1="{y:.1f}" x2="{width}" y2="{y:.1f}"/>')
        out.append("</g>")
    out.append("</svg>")
    return "data:image/svg+xml;base64," + base64.b64encode("".join(out).encode()).decode()


def row_deals(lines, body_rows: int, deals_planned: int) -> list[int | None]:
    """The deal number of each scoresheet row: a line's own (None for a penalty or a forfeit), a blank row
    numbered with the next deal number up to the planned deals, and the spare rows after them unnumbered
    (issue #25): they are for a rise played to its end and a deciding deal, which may never be played."""
    out: list[int | None] = []
    next_deal = 1 + max((line.deal or 0 for line in lines), default=0)
    for number in range(1, body_rows + 1):
        if number <= len(lines):
            out.append(lines[number - 1].deal or None)
        elif next_deal <= deals_planned:
            out.append(next_deal)
            next_deal += 1
        else:
            out.append(None)
    return out


def break_rows(lines, body_rows: int, deals_planned: int) -> tuple[int, ...]:
    """The rows after which the players may take their break: deals 6 and 12, where the match goes on
    past them (a 12-deal match has one break)."""
    return tuple(
        row for row, deal in enumerate(row_deals(lines, body_rows, deals_planned), start=1)
        if deal in BREAK_AFTER and deals_planned > deal
    )


def marks(line) -> str:
    """A line's marks besides the penalty's "*" (which the game column carries): robbery, early stop, a
    rise played out, the deciding deal (``tournaments.readmodel.results.MARKS``, explained by the sheet's legend)."""
    return " ".join(MARKS[m][0] for m in line.marks if m != "penalised")


def sheet_columns(lines, body_rows: int, deals_planned: int) -> list[dict]:
    """Each column's left edge, width and its text, one line per scoresheet row."""
    cells: list[list[str]] = [[] for _ in COLUMNS]
    numbers = row_deals(lines, body_rows, deals_planned)
    for number in range(1, body_rows + 1):
        line = lines[number - 1] if number <= len(lines) else None
        if line is None:  # a blank row: the next deal's number, or none on a spare row
            values = (numbers[number - 1] or "", "", "", "", "", "", "", "")
        else:
            row = line.row
            values = (
                line.deal or "–",
                line.label + ("*" if row.penalised else ""),
                line.caller_seat or "",
                "" if row.tricks_a is None else row.tricks_a,
                "" if row.tricks_b is None else row.tricks_b,
                " ".join(filter(None, ("" if line.points is None else f"{line.points} {line.winner}", marks(line)))),
                "" if line.rise_a is None else line.rise_a,
                "" if line.rise_b is None else line.rise_b,
            )
        for i, value in enumerate(values):
            cells[i].append(str(value))
    labels = (_("Jako"), _("R/N"), _("Ramaaja"), _("Kasat A"), _("Kasat B"), _("Jaon pisteet"), _("Nousu A"), _("Nousu B"))
    columns, left = [], 0
    for width, text, label in zip(COLUMNS, cells, labels, strict=True):
        columns.append({"left": left, "width": width, "text": "\n".join(text).rstrip("\n"), "label": label})
        left += width
    return columns


def scoresheet_pages(matches, link_base: str) -> list[dict]:
    """One page's data per match: both pairs, the planned rows (filled where played), totals, QR code."""
    matches = list(with_pairs(Match.objects.filter(pk__in=[m.pk for m in matches])).order_by("stage", "round", "table"))
    rows_by_match: dict[int, list[Entry]] = {m.pk: [] for m in matches}
    for row in Entry.objects.filter(match__in=matches).order_by("match_id", "position"):
        rows_by_match[row.match_id].append(row)
    papers = {p.match_id: p for p in PaperResult.objects.filter(match__in=matches)}
    seated = build.match_pairs(matches)  # a substitute's name in the place of the player he replaces
    labels = extensions.match_labels(matches)  # a team match's pair match: "Loppuottelu · pari 1"
    pages, grids = [], {}
    for match in matches:
        rows = rows_by_match[match.pk]
        paper = papers.get(match.pk)
        lines, _state, result = sheet_and_outcome(match, rows, paper)
        blank = max(match.deals_planned + SPARE_ROWS - len(lines), 0)
        url = link_base.rstrip("/") + reverse("link:sheet", args=[match.token])
        body_rows = len(lines) + blank
        breaks = break_rows(lines, body_rows, match.deals_planned)
        numbers = row_deals(lines, body_rows, match.deals_planned)
        if (body_rows, breaks) not in grids:
            grids[(body_rows, breaks)] = grid_svg(body_rows, breaks)
        pages.append(
            {
                "match": match,
                "pair_a": seated[match.pk][0],
                "pair_b": seated[match.pk][1],
                "label": labels.get(match.pk, ""),
                "outcome": result,
                "grid": grids[(body_rows, breaks)],
                "break_deals": tuple(numbers[row - 1] for row in breaks),
                "columns": sheet_columns(lines, body_rows, match.deals_planned),
                "spare": blank > 0,
                "height": HEADER_H + ROW_H * (body_rows + FOOTER_ROWS),
                "footer_top": HEADER_H + ROW_H * body_rows,
                "qr": qr_png(url),
                "url": url,
            }
        )
    return pages


def scoresheets_pdf(matches, link_base: str, title: str) -> bytes:
    return render_pdf("tournaments/print/scoresheets.html", {"pages": scoresheet_pages(matches, link_base), "title": title})


# The public printouts are made from the event's snapshot (``tournaments.readmodel.snapshot``).


def draw_chart_pdf(snap) -> bytes:
    context = {"event": snap.event, "groups": snap.stage_groups(Stage.SATURDAY), "title": _("Arvontakaavio")}
    return render_pdf("tournaments/print/draw_chart.html", context)


def group_tables_pdf(snap) -> bytes:
    tables = [*snap.stage_tables(Stage.SATURDAY), *snap.stage_tables(Stage.SUNDAY)]
    return render_pdf("tournaments/print/group_tables.html", {"event": snap.event, "tables": tables, "title": _("Lohkotaulukot")})


def bracket_pdf(snap) -> bytes:
    context = {
        "event": snap.event, "tables": snap.stage_tables(Stage.SUNDAY), "tiers": snap.bracket(), "title": _("Sunnuntai"),
    }
    return render_pdf("tournaments/print/bracket.html", context)


def results_pdf(snap, points: dict[int, object] | None) -> bytes:
    """The results list the federation asks for: places, players, clubs and cup points (RULES.md §5, §8).

    ``points`` maps a place to the cup points each player earns for it, as the cup app decides them (the
    event's weight and the season's points table); None when the event gives no cup points."""
    rows = [(label, pair, None if points is None else points.get(place))
            for label, place, pair in labelled_places(snap.ranking())]  # shared places as "5.–8."
    context = {
        "event": snap.event, "rows": rows, "complete": snap.complete, "cup": points is not None,
        "record": snap.published_record, "corrections": snap.corrections, "title": _("Tulosluettelo"),
        "rulings": [(m, r) for m in snap.matches for r in m.rulings],  # the judges' council's (issue #29)
    }
    return render_pdf("tournaments/print/results.html", context)
