"""The source of the cup's pages, workbooks and API (``tournaments.readmodel.live``): a season's cup, read from the
caches under its cup key, with the list of seasons the pages link to."""

from __future__ import annotations

from dataclasses import dataclass

from django.shortcuts import get_object_or_404

from cup import services
from registry.models import Season
from tournaments.readmodel.live import Composite


def cup_seasons():
    """Seasons with at least one counted event, the latest first."""
    return Season.objects.filter(events__cup__isnull=False).distinct().order_by("-start")


def season_years(season: Season) -> str:
    return f"{season.start.year}-{season.start.year + 1}"


@dataclass(frozen=True)
class CupSource(Composite):
    """A season's cup and what else a page shows, standing for the cup by its key (``parts["cup"]``: the
    cup's identity, ``cup:<key>``). The cup itself is read from the caches (or computed) only when asked
    for (``source["cup"]``): a page or answer whose rendering is kept under the digest of what it shows
    is served without unpickling the whole season's cup (hundreds of kilobytes) in a process that has
    no copy of its own (a new worker, or one whose in-process copies gave way to a live event's)."""

    season: Season | None = None
    key: str = ""

    def __getitem__(self, name: str):
        if name == "cup":
            return services.season_cup(self.season, self.key)
        return super().__getitem__(name)


def source(season_id: int, **more) -> CupSource:
    """The season's cup (computed once per change of its cup key, read only when needed) and the seasons
    with a cup, as one source (three light queries); ``more``: what else a page shows (a player)."""
    season = get_object_or_404(Season, pk=season_id)
    key = services.cup_key(season.pk)
    return CupSource({"cup": f"cup:{key}", "seasons": tuple(cup_seasons()), **more}, season=season, key=key)
