"""The seasons' pages (issue #28): every season with its cup winners, SM champions and events, and one
season's page. Winners come from the events' cached snapshots, the cup from the seasons' cached cups."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch

from archive.readmodel.players import season_cups
from cup.services import SeasonCup
from registry.models import Season
from tournaments.models import Event
from tournaments.readmodel.snapshot import snapshots
from tournaments.readmodel.values import PairView


@dataclass(frozen=True)
class EventLine:
    event: Event
    winners: tuple[PairView, ...]  # the pairs placed first (a pair event with its final places), else ()


@dataclass(frozen=True)
class SeasonSummary:
    season: Season
    events: tuple[EventLine, ...]  # by date
    cup: SeasonCup | None  # None: no event of the season counts for the cup

    @property
    def event_count(self) -> int:
        return len(self.events)

    @property
    def champions(self) -> list[EventLine]:
        """The SM pair tournament's winners (*Suomen mestarit*)."""
        return [e for e in self.events if e.event.kind == Event.Kind.SM_PAIRS and e.winners]

    def _top(self, rows) -> list:
        return [r for r in rows if r.rank == 1] if self.cup else []

    @property
    def cup_players(self) -> list:
        return self._top(self.cup.players) if self.cup else []

    @property
    def cup_pairs(self) -> list:
        return self._top(self.cup.pairs) if self.cup else []

    @property
    def cup_clubs(self) -> list:
        return self._top(self.cup.clubs) if self.cup else []


def _winners(snap) -> tuple[PairView, ...]:
    if snap.final_places is None or snap.event.finished_at is None:
        return ()
    return tuple(snap.pairs[pair_id] for place, pair_id in snap.final_places if place == 1)


def summaries(seasons: list[Season]) -> list[SeasonSummary]:
    """The seasons (with their events prefetched, by date) with winners and cups."""
    finished = [e for s in seasons for e in s.events.all() if e.finished_at is not None and e.kind != Event.Kind.SM_TEAM]
    snaps = snapshots(finished)
    counted = [s for s in seasons if any(hasattr(e, "cup") for e in s.events.all())]
    cups = season_cups(counted)
    return [
        SeasonSummary(
            season=s,
            events=tuple(EventLine(e, _winners(snaps[e.pk]) if e.pk in snaps else ()) for e in s.events.all()),
            cup=cups.get(s.pk),
        )
        for s in seasons
    ]


def _seasons():
    return Season.objects.order_by("-start").prefetch_related(
        Prefetch("events", queryset=Event.objects.select_related("cup", "organising_club").order_by("starts_on", "name", "pk"))
    )


def every_season() -> list[SeasonSummary]:
    return summaries(list(_seasons()))


def one_season(season_id: int) -> SeasonSummary | None:
    found = list(_seasons().filter(pk=season_id))
    return summaries(found)[0] if found else None
