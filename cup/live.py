"""The source of the cup's pages, workbooks and API (``tournaments.readmodel.live``): a season's cup, read from the
caches under its cup key, with the list of seasons the pages link to."""

from __future__ import annotations

from django.shortcuts import get_object_or_404

from cup import services
from registry.models import Season
from tournaments.readmodel.live import Composite


def cup_seasons():
    """Seasons with at least one counted event, the latest first."""
    return Season.objects.filter(events__cup__isnull=False).distinct().order_by("-start")


def season_years(season: Season) -> str:
    return f"{season.start.year}-{season.start.year + 1}"


def source(season_id: int, **more) -> Composite:
    """The season's cup (computed once per change of its cup key) and the seasons with a cup, as one
    source (three light queries); ``more``: what else a page shows (a player)."""
    season = get_object_or_404(Season, pk=season_id)
    return Composite({"cup": services.season_cup(season), "seasons": tuple(cup_seasons()), **more})
