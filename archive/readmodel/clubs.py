"""The clubs' pages (issue #28): the list, and a club's players this season, its cup ranking in every
season (from the seasons' cached cups) and the events it organised."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q
from django.utils import timezone

from archive.readmodel.players import season_cups
from cup.live import cup_seasons
from registry.models import Club, Player, Season
from registry.search import fold, folded
from tournaments.models import Event


def clubs(query: str = ""):
    """Every club with its home players and events organised, by name; ``query`` matches the name or the
    short name, diacritics ignored."""
    rows = Club.objects.annotate(
        members=Count("players", distinct=True), organised=Count("organised_events", distinct=True)
    ).order_by("name")
    if query:
        plain = fold(query)
        rows = rows.alias(name_folded=folded("name"), short_folded=folded("short_name")).filter(
            Q(name_folded__icontains=plain) | Q(short_folded__icontains=plain)
        )
    return rows


@dataclass(frozen=True)
class CupLine:
    season: Season
    rank_label: str
    points: Decimal
    players: int  # the club's players with cup points that season


@dataclass(frozen=True)
class ClubPage:
    club: Club
    season: Season | None  # the current season (None: nothing recorded for it yet)
    players: tuple[Player, ...]  # this season's players (season clubs), else the home club's players
    season_players: bool  # True: ``players`` are the season's (RULES.md §7); False: the home club's
    cup: tuple[CupLine, ...]  # latest season first
    organised: tuple[Event, ...]  # latest first


def club_page(club: Club) -> ClubPage:
    season = Season.objects.filter(start=Season.start_for(timezone.localdate())).first()
    players = []
    if season is not None:
        players = list(
            Player.objects.filter(season_clubs__season=season, season_clubs__club=club).order_by("last_name", "first_name")
        )
    season_players = bool(players)
    if not players:
        players = list(club.players.order_by("last_name", "first_name"))
    seasons = list(cup_seasons())
    cups = season_cups(seasons)
    lines = []
    for s in seasons:
        row = next((r for r in cups[s.pk].clubs if r.club.pk == club.pk), None) if s.pk in cups else None
        if row is not None:
            lines.append(CupLine(season=s, rank_label=row.rank_label, points=row.points, players=len(row.members)))
    organised = Event.objects.filter(organising_club=club).select_related("season").order_by("-starts_on", "-pk")
    return ClubPage(
        club=club, season=season, players=tuple(players), season_players=season_players, cup=tuple(lines),
        organised=tuple(organised),
    )
