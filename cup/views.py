"""Public cup pages: read-only, no login, made for a phone; and the season and event workbooks.

Every page computes the cup afresh from the tournaments' facts (``cup.services``) in a fixed number of
queries, whatever the number of events.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from cup import services, xlsx
from tournaments.models import Event, Player, Season

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def cup_seasons():
    """Seasons with at least one counted event, the latest first."""
    return Season.objects.filter(events__cup__isnull=False).distinct().order_by("-start")


def season_years(season: Season) -> str:
    return f"{season.start.year}-{season.start.year + 1}"


@require_GET
def index(request):
    """The current season's cup, or the latest season that has one."""
    seasons = list(cup_seasons())
    start = Season.start_for(timezone.localdate())
    current = next((s for s in seasons if s.start == start), seasons[0] if seasons else None)
    if current is not None:
        return redirect("cup:players", current.pk)
    return render(request, "cup/index.html", {})


def _context(season: Season, section: str, **extra) -> dict:
    return {
        "season": season,
        "section": section,
        "seasons": list(cup_seasons()),
        "years": season_years(season),
        **extra,
    }


@require_GET
def players(request, season_id: int):
    season = get_object_or_404(Season, pk=season_id)
    return render(request, "cup/players.html", _context(season, "players", cup=services.season_cup(season)))


@require_GET
def pairs(request, season_id: int):
    season = get_object_or_404(Season, pk=season_id)
    return render(request, "cup/pairs.html", _context(season, "pairs", cup=services.season_cup(season)))


@require_GET
def clubs(request, season_id: int):
    season = get_object_or_404(Season, pk=season_id)
    return render(request, "cup/clubs.html", _context(season, "clubs", cup=services.season_cup(season)))


@require_GET
def player(request, season_id: int, player_id: int):
    season = get_object_or_404(Season, pk=season_id)
    person = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    cup = services.season_cup(season)
    row = cup.player_row(person.pk)
    events = []
    if row is not None:
        events = [
            (column, cell) for column, cell in zip(cup.columns, row.cells, strict=True) if cell is not None
        ]
    context = _context(
        season,
        "player",
        cup=cup,
        person=person,
        row=row,
        events=events,
        pair_rows=cup.pair_rows(person.pk),
        transfers=[note for note in cup.transfers if note.transfer.player_id == person.pk],
    )
    return render(request, "cup/player.html", context)


@require_GET
def season_xlsx(request, season_id: int, years: str):
    season = get_object_or_404(Season, pk=season_id)
    if years != season_years(season):
        return redirect("cup:season_xlsx", season.pk, season_years(season))
    content = xlsx.to_bytes(xlsx.season_workbook(services.season_cup(season)))
    return _download(content, f"tuppicup-{season_years(season)}.xlsx")


@require_GET
def event_xlsx(request, slug: str):
    event = get_object_or_404(Event.objects.select_related("season", "organising_club"), slug=slug)
    content = xlsx.to_bytes(xlsx.event_workbook(event))
    return _download(content, f"{event.slug}-tulokset.xlsx")


def _download(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
