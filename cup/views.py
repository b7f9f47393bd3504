"""Public cup pages: read-only, no login, made for a phone; the season and event workbooks; the event's
results list with its cup points.

The season's cup is computed once per change of its cup key (``services.cup_key``: one light query) and
kept in the caches; each page's content is rendered once per key and language. A browser that has the
current version gets ``304 Not Modified``.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from cup import services, xlsx
from cup.live import season_page
from tournaments import caching
from tournaments.live import conditional, head, live_part, render_live
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


def _page(request, season_id: str, section: str, fragment: str, page: str, extra=None, *, url: str):
    season = get_object_or_404(Season, pk=int(season_id))
    def context():
        return {"season": season, "cup": services.season_cup(season), **(extra() if extra else {})}

    html = live_part(request, fragment, context, url=url, poll=False)
    shell = {"season": season, "section": section, "seasons": list(cup_seasons()), "years": season_years(season)}
    return render_live(request, page, shell, html)


@require_GET
@season_page()
def players(request, season_id):
    url = reverse("cup:players", args=[season_id])
    return _page(request, season_id, "players", "cup/_players.html", "cup/players.html", url=url)


@require_GET
@season_page()
def pairs(request, season_id):
    url = reverse("cup:pairs", args=[season_id])
    return _page(request, season_id, "pairs", "cup/_pairs.html", "cup/pairs.html", url=url)


@require_GET
@season_page()
def clubs(request, season_id):
    url = reverse("cup:clubs", args=[season_id])
    return _page(request, season_id, "clubs", "cup/_clubs.html", "cup/clubs.html", url=url)


@require_GET
@season_page()
def player(request, season_id, player_id: int):
    person = get_object_or_404(Player.objects.select_related("club"), pk=player_id)

    def extra():
        cup = services.season_cup(get_object_or_404(Season, pk=int(season_id)))
        row = cup.player_row(person.pk)
        events = []
        if row is not None:
            events = [(column, cell) for column, cell in zip(cup.columns, row.cells, strict=True) if cell is not None]
        return {
            "person": person, "row": row, "events": events, "pair_rows": cup.pair_rows(person.pk),
            "transfers": [note for note in cup.transfers if note.transfer.player_id == person.pk],
        }

    url = reverse("cup:player", args=[season_id, person.pk])
    return _page(request, season_id, "player", "cup/_player.html", "cup/player.html", extra, url=url)


@require_GET
@season_page(personal=False)
def season_xlsx(request, season_id, years: str):
    season = get_object_or_404(Season, pk=int(season_id))
    if years != season_years(season):
        return redirect("cup:season_xlsx", season.pk, season_years(season))
    key = f"xlsx:{request.live_etag}"
    content = caching.versioned(key, lambda: xlsx.to_bytes(xlsx.season_workbook(services.season_cup(season))))
    return _download(content, f"tuppicup-{season_years(season)}.xlsx")


def _event_and_cup_key(request, kwargs):
    found = head(kwargs.pop("slug"))
    return f"{found.key}~{services.cup_key(found.season_id)}", found


@require_GET
@conditional(_event_and_cup_key, personal=False)
def event_xlsx(request, found):
    event = get_object_or_404(Event.objects.select_related("season", "organising_club"), pk=found.pk)
    key = f"xlsx:{request.live_etag}:{get_language()}"
    content = caching.versioned(key, lambda: xlsx.to_bytes(xlsx.event_workbook(event)))
    return _download(content, f"{event.slug}-tulokset.xlsx")


def _download(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

