"""Public cup pages: read-only, no login, made for a phone; the season and event workbooks; the event's
results list with its cup points.

The season's cup is computed once per change of its cup key (``services.cup_key``: one light query) and
kept in the caches; each page's content is rendered once per key and language. A browser that has the
current version gets ``304 Not Modified``.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.views.decorators.http import require_GET

from cup import live, services, tables, xlsx
from cup.live import cup_seasons, season_years
from registry.models import Player, Season
from tournaments.readmodel.live import Answer, Page, Shown, event_answer, serve_answer, serve_page
from tournaments.readmodel.values import PlayerView

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@require_GET
def index(request):
    """The current season's cup, or the latest season that has one."""
    seasons = list(cup_seasons())
    start = Season.start_for(timezone.localdate())
    current = next((s for s in seasons if s.start == start), seasons[0] if seasons else None)
    if current is not None:
        return redirect("cup:players", current.pk)
    return render(request, "cup/index.html", {})


def _shown(source, section: str, **extra) -> Shown:
    cup = source["cup"]
    shell = {"season": cup.season, "section": section, "seasons": source["seasons"], "years": season_years(cup.season)}
    return Shown(page={**shell, **extra}, live={"season": cup.season, "cup": cup, **extra})


def _player(source) -> Shown:
    cup, person = source["cup"], source["person"]
    row = cup.player_row(person.pk)
    events = []
    if row is not None:
        events = [(column, cell) for column, cell in zip(cup.columns, row.cells, strict=True) if cell is not None]
    return _shown(
        source, "player", person=person, row=row, events=events, pair_rows=cup.pair_rows(person.pk),
        transfers=[note for note in cup.transfers if note.transfer.player_id == person.pk],
    )


PLAYERS = Page("cup_players", "cup/players.html", lambda source: _shown(source, "players"), live="cup/_players.html")
PAIRS = Page("cup_pairs", "cup/pairs.html", lambda source: _shown(source, "pairs"), live="cup/_pairs.html")
CLUBS = Page("cup_clubs", "cup/clubs.html", lambda source: _shown(source, "clubs"), live="cup/_clubs.html")
PLAYER = Page("cup_player", "cup/player.html", _player, live="cup/_player.html")


def _ranking(request, season_id, page: Page):
    """The default view of a ranking is served from the caches (rendered once per change of the cup key);
    a sorted, searched or later page is rendered for this request from the cached season cup."""
    source = live.source(season_id)
    if not any(request.GET.get(name) for name in tables.PARAMS):
        return serve_page(request, source, page, {})
    shown = page.build(source)
    live_html = render_to_string(page.live, {**shown.live, "request": request})
    return render(request, page.template, {**shown.page, "live_html": live_html})


@require_GET
def players(request, season_id):
    return _ranking(request, season_id, PLAYERS)


@require_GET
def pairs(request, season_id):
    return _ranking(request, season_id, PAIRS)


@require_GET
def clubs(request, season_id):
    return _ranking(request, season_id, CLUBS)


@require_GET
def player(request, season_id, player_id: int):
    found = get_object_or_404(Player, pk=player_id)
    person = PlayerView(found.pk, found.first_name, found.last_name)
    return serve_page(request, live.source(season_id, person=person), PLAYER, {})


SEASON_XLSX = Answer(
    "cup_season_xlsx", lambda source: source["cup"],
    lambda cup: xlsx.to_bytes(xlsx.season_workbook(cup)), XLSX_TYPE,
    filename=lambda cup: f"tuppicup-{season_years(cup.season)}.xlsx",
)


@require_GET
def season_xlsx(request, season_id, years: str):
    season = get_object_or_404(Season, pk=int(season_id))
    if years != season_years(season):
        return redirect("cup:season_xlsx", season.pk, season_years(season))
    return serve_answer(request, live.source(season_id), SEASON_XLSX, {})


def _event_values(snap) -> tuple:
    """The event's snapshot and what the cup gives it, read on each request (its digest names them)."""
    return snap, services.event_cup(snap.event)


event_xlsx = require_GET(event_answer(Answer(
    "event_xlsx", _event_values, lambda values: xlsx.to_bytes(xlsx.event_workbook(*values)), XLSX_TYPE,
    filename=lambda values: f"{values[0].event.slug}-tulokset.xlsx", memo=False,
)))
