"""A player's history across seasons and the head-to-head of two players (issue #28), read from the
events' snapshots (``tournaments.readmodel.snapshot.snapshots``: cached per results version, the missing
ones built together in one batch) and the seasons' cups (``cup.services.season_cup``: cached per cup key,
the keys read in one query). A page so costs the same few queries whatever the number of events.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace

from django.db.models import Count

from archive.readmodel.places import place_labels, place_of
from cup import services as cup
from registry.models import Player, Season
from registry.search import search_players
from teams import results as team_results
from tournaments.models import Event, PairMember
from tournaments.readmodel.snapshot import snapshots
from tournaments.readmodel.values import EventSnapshot, MatchView, PairView, PlayerView

LIST_LIMIT = 50
OPPONENTS = 12  # the most frequent opponents listed on a player's page, each linking to the head-to-head


def find_players(query: str) -> list[Player]:
    """Players by name (diacritics ignored: "kivela" finds Kivelä) or member number (``registry.search``)."""
    return search_players(query, limit=LIST_LIMIT)


def players_with_events():
    """Every registered player with the number of events played, by name (the list without a search)."""
    return Player.objects.select_related("club").annotate(events=Count("pair_memberships")).order_by(
        "last_name", "first_name", "pk"
    )


def memberships(player_ids) -> list[PairMember]:
    """The pairs the players played in, with their events and seasons, in one query."""
    return list(
        PairMember.objects.filter(player_id__in=player_ids)
        .select_related("event__season")
        .order_by("-event__starts_on", "-event__pk")
    )


def _won_lost(snap: EventSnapshot, pair_id: int) -> tuple[int, int]:
    won = lost = 0
    for m in snap.pair_matches(pair_id):
        if m.outcome.finished and m.outcome.winner:
            if m.outcome.winner == pair_id:
                won += 1
            else:
                lost += 1
    return won, lost


@dataclass(frozen=True)
class Played:
    """One event of the player: the pair, the partner, the club played for, the place and cup points."""

    event: Event
    pair: PairView
    partner: PlayerView | None
    place: int | None
    place_label: str
    cup_points: Decimal | None  # None: not counted for the cup (or no points)
    counted: bool  # the points count for the season (best N)
    won: int
    lost: int
    team: str = ""  # the SM team competition: the player's team (its pairs' players only)

    @property
    def title(self) -> str:
        """"pairs" for an SM gold in pairs (*SM-parikisa* won), "teams" for one in the team competition
        (its final won), else ""."""
        if self.event.kind == Event.Kind.SM_PAIRS and self.place == 1 and self.event.finished_at is not None:
            return "pairs"
        return "teams" if self.event.kind == Event.Kind.SM_TEAM and self.place == 1 else ""


@dataclass(frozen=True)
class SeasonLine:
    season: Season
    played: tuple[Played, ...]  # latest first
    cup_rank: str  # "3." or "2.–3."; "" when the player has no cup points that season
    cup_points: Decimal | None
    cup_club: object | None  # the season club (RULES.md §7) as the cup has it


@dataclass(frozen=True)
class History:
    player: Player
    seasons: tuple[SeasonLine, ...]  # latest first
    opponents: tuple[tuple[PlayerView, int], ...] = ()  # the players met most often, and how many matches

    @property
    def titles(self) -> list[Played]:
        return [p for line in self.seasons for p in line.played if p.title]

    @property
    def events(self) -> int:
        return sum(len(line.played) for line in self.seasons)


KEY_FIELDS = ("player_id", "pair_id", "event_id", "event__created_at", "event__results_version", "event__slug",
              "event__name", "event__kind", "event__starts_on", "event__finished_at", "event__season_id")


def key_rows(player_ids) -> list[tuple]:
    """What a page of the players shows of their pairs' events (``KEY_FIELDS``), in one light query."""
    return list(PairMember.objects.filter(player_id__in=player_ids).order_by("pk").values_list(*KEY_FIELDS))


def page_key(people, rows: list[tuple], cup_keys: dict[int, str]) -> str:
    """Names exactly what a player's page or a head-to-head shows: the players (name, home club), each
    of their pairs with its event's identity, fields and results version (:func:`key_rows`), and the
    seasons' cup keys."""
    parts = [f"{p.pk}:{p.first_name}:{p.last_name}:{p.member_number}:{p.club_id}:"
             f"{p.club.name if p.club_id else ''}:{p.club.short_name if p.club_id else ''}" for p in people]
    parts += [":".join(map(str, row)) for row in rows]
    parts += [f"c{pk}={k}" for pk, k in sorted(cup_keys.items())]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def season_cups(seasons) -> dict[int, cup.SeasonCup]:
    """The cups of several seasons from the caches (their keys in one query)."""
    seasons = list({s.pk: s for s in seasons}.values())
    keys = cup.cup_keys([s.pk for s in seasons])
    return {s.pk: cup.season_cup(s, keys[s.pk]) for s in seasons if s.pk in keys}


def _cup_cells(season_cup: cup.SeasonCup, player_id: int) -> dict[int, cup.Cell]:
    row = season_cup.player_row(player_id)
    if row is None:
        return {}
    return {col.event.pk: cell for col, cell in zip(season_cup.columns, row.cells, strict=True) if cell is not None}


def _label(place: int, shared: int) -> str:
    return f"{place}." if shared == 1 else f"{place}.–{place + shared - 1}."


def team_placings(events) -> dict[int, tuple[str, int, str]]:
    """Pair id → (team name, place, place label) in the SM team competitions among ``events`` (each read
    just now), from the competitions cached by their results versions (``teams.results.load``)."""
    out = {}
    for event in events:
        head = SimpleNamespace(pk=event.pk, created_at=event.created_at, results_version=event.results_version, fresh=True)
        comp = team_results.load(head)
        sizes = Counter(comp.places.values())
        for team in comp.teams.values():
            place = comp.places.get(team.pk)
            for pair in team.pairs:
                out[pair.pk] = (team.name, place, _label(place, sizes[place]) if place else "")
    return out


def history(player: Player, members: list[PairMember] | None = None) -> History:
    """Every event the player played in, season by season, with the season's cup position (``members``:
    the player's :func:`memberships`, when read already)."""
    members = memberships([player.pk]) if members is None else members
    snaps = snapshots([m.event for m in members])
    cups = season_cups(m.event.season for m in members)
    by_season: dict[int, list[Played]] = {}
    seasons = {}
    met: Counter = Counter()
    teams = team_placings(m.event for m in members if m.event.kind == Event.Kind.SM_TEAM)
    cells = {event_id: cell for c in cups.values() for event_id, cell in _cup_cells(c, player.pk).items()}
    for m in members:
        snap = snaps[m.event.pk]
        pair = snap.pairs.get(m.pair_id)
        if pair is None:
            continue
        cell = cells.get(m.event.pk)
        won, lost = _won_lost(snap, pair.pk)
        met.update(p for match in snap.pair_matches(pair.pk) if match.outcome.status != "annulled"
                   for p in match.opponent(pair.pk).players)
        seasons[m.event.season_id] = m.event.season
        team, place, label = teams.get(pair.pk) or ("", place_of(snap, pair.pk), place_labels(snap).get(pair.pk, ""))
        by_season.setdefault(m.event.season_id, []).append(Played(
            event=m.event, pair=pair, partner=next((p for p in pair.players if p.pk != player.pk), None),
            place=place, place_label=label, cup_points=cell.points if cell else None,
            counted=bool(cell and cell.counted), won=won, lost=lost, team=team,
        ))
    lines = []
    for season_id, played in by_season.items():
        row = cups[season_id].player_row(player.pk) if season_id in cups else None
        lines.append(SeasonLine(
            season=seasons[season_id], played=tuple(played), cup_rank=row.rank_label if row else "",
            cup_points=row.points if row else None, cup_club=row.club if row else None,
        ))
    lines.sort(key=lambda line: line.season.start, reverse=True)
    return History(player=player, seasons=tuple(lines), opponents=tuple(met.most_common(OPPONENTS)))


# --------------------------------------------------------------------------------------------------
# Head-to-head


@dataclass(frozen=True)
class Meeting:
    """A match in which the two players sat on opposite sides, from the first player's side."""

    event: Event
    match: MatchView
    mine: PairView
    theirs: PairView

    @property
    def result(self) -> str:
        o = self.match.outcome
        if not (o.finished and o.winner):
            return "open"
        return "won" if o.winner == self.mine.pk else "lost"

    @property
    def mine_first(self) -> bool:
        return self.match.pair_a.pk == self.mine.pk

    @property
    def match_points(self) -> tuple[int, int] | None:
        points = self.match.outcome.match_points
        if points is None:
            return None
        return points if self.mine_first else (points[1], points[0])

    @property
    def rise(self) -> tuple[int, int]:
        totals = self.match.outcome.totals
        return totals if self.mine_first else (totals[1], totals[0])


@dataclass(frozen=True)
class HeadToHead:
    player: Player
    other: Player
    meetings: tuple[Meeting, ...]  # latest event first, in playing order within an event

    def _finished(self):
        return [m for m in self.meetings if m.result != "open"]

    @property
    def won(self) -> int:
        return sum(1 for m in self.meetings if m.result == "won")

    @property
    def lost(self) -> int:
        return sum(1 for m in self.meetings if m.result == "lost")

    @property
    def match_points(self) -> tuple[int, int]:
        pts = [m.match_points for m in self._finished() if m.match_points is not None]
        return sum(p[0] for p in pts), sum(p[1] for p in pts)

    @property
    def rise(self) -> tuple[int, int]:
        done = self._finished()
        return sum(m.rise[0] for m in done), sum(m.rise[1] for m in done)


def head_to_head(player: Player, other: Player, members: list[PairMember] | None = None) -> HeadToHead:
    """Every counted match (annulled ones vanish, RULES.md §4) between a pair of ``player`` and a pair of
    ``other``, from the snapshots of the events both played in (``members``: both players'
    :func:`memberships`, when read already)."""
    members = memberships([player.pk, other.pk]) if members is None else members
    pair_of: dict[tuple[int, int], int] = {(m.player_id, m.event_id): m.pair_id for m in members}
    both = {m.event_id: m.event for m in members if (other.pk, m.event_id) in pair_of and (player.pk, m.event_id) in pair_of}
    shared = [e for e in both.values() if pair_of[(player.pk, e.pk)] != pair_of[(other.pk, e.pk)]]
    snaps = snapshots(shared)
    meetings = []
    for event in sorted(shared, key=lambda e: (e.starts_on, e.pk), reverse=True):
        snap = snaps[event.pk]
        mine, theirs = pair_of[(player.pk, event.pk)], pair_of[(other.pk, event.pk)]
        meetings += [
            Meeting(event=event, match=m, mine=snap.pairs[mine], theirs=snap.pairs[theirs])
            for m in snap.pair_matches(mine)
            if m.pair_b.pk in (mine, theirs) and m.pair_a.pk in (mine, theirs) and m.outcome.status != "annulled"
        ]
    return HeadToHead(player=player, other=other, meetings=tuple(meetings))
