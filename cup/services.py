"""The season cup from the tournaments' facts (RULES.md §7–8), computed once per change.

The cup stores nothing but its settings (``cup.models``). It reads each counted event's final places and
match wins from the event's snapshot (``tournaments.readmodel.snapshot``, the one place where groups are ranked),
each player's season club and the season's transfers, builds the inputs of the pure cup core
(``scoring.cup``) and calls it. The result is kept in the caches under the season's cup key
(:func:`cup_key`: the season's cup version and its counted events' results versions), so a corrected
result changes the cup the next time a page or workbook is made, and nothing is recomputed until then.

Choices made here beyond RULES.md (the core's own are in ``scoring.cup``):

* **Decision (when an event gives points):** an event counts once its final places are published
  (``Event.finished_at``) and complete. A published event whose places a correction has made
  incomplete again gives no points until they are complete; the pages say so.
* **Decision (match wins):** a pair's match wins are its wins in every finished, non-annulled match of
  the event: Saturday and Sunday groups and placement matches; a forfeit is a win for the opponents.
* **Decision (season club):** a player's season club is ``SeasonClub`` (RULES.md §7, the club of their
  first cup event, fixed when the pair is entered). A transfer confirmed later does not move the
  season's points: they stay with that club. A player without a ``SeasonClub`` row is "unknown" and
  is listed apart, never dropped and never guessed from the pair's club.
* Events are given to the core in date order (start date, name, id), so that among a player's identical
  events best N prefers the earlier one (the core's input-order rule).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, Q, Sum

from cup import reach
from cup.models import ClubFine, CupEvent, SeasonCupSettings, default_weight
from lib import caching
from registry.models import Club, Player, Season, SeasonClub, Transfer
from scoring import cup as cup_core
from tournaments.models import Event
from tournaments.readmodel import snapshot as readmodel


def cup_key(season_id: int) -> str | None:
    """The versions a season's cup is computed from, in one light query (None: no such season).

    The season's ``cup_version`` changes with its settings, counted events, season clubs and transfers;
    the sum of its counted events' results versions changes with any of their results (versions only
    grow, and a change of which events count changes ``cup_version``)."""
    return cup_keys([season_id]).get(season_id)


def cup_keys(season_ids) -> dict[int, str]:
    """:func:`cup_key` of several seasons in one query (the archive's pages read many seasons' cups), each
    with the season's refinement counter of its reach (``cup.reach``: read from the shared cache, 0 when
    it does not answer), so that a refined reach makes a new key."""
    rows = (
        Season.objects.filter(pk__in=list(season_ids))
        .annotate(
            total=Sum("events__results_version", filter=Q(events__cup__isnull=False)),
            counted=Count("events__cup"),
        )
        .values_list("pk", "cup_version", "best_n", "total", "counted")
    )
    rows = list(rows)
    gens = caching.counters([reach.gen_key(row[0]) for row in rows])
    return {
        pk: f"{pk}:{version}:{best_n}:{total or 0}:{counted}:r{gens[reach.gen_key(pk)]}"
        for pk, version, best_n, total, counted in rows
    }


# --------------------------------------------------------------------------------------------------
# Facts and the pure ranking


@dataclass(frozen=True)
class PairResult:
    """One pair's final place and match wins in one event; ``players`` in position order."""

    pair_id: int
    players: tuple[int, ...]
    club_id: int | None
    place: int
    match_wins: int


@dataclass(frozen=True)
class EventFacts:
    """A counted event: its weight and results (None until its final places are published and complete)."""

    event: Event
    weight: Decimal
    results: tuple[PairResult, ...] | None

    @property
    def key(self) -> str:
        return str(self.event.pk)


def rank(
    facts: Iterable[EventFacts], best_n: int | None, table: Sequence[int] = cup_core.DEFAULT_POINTS
) -> tuple[tuple[cup_core.Standing, ...], tuple[cup_core.Standing, ...]]:
    """The player and fixed-pair rankings (RULES.md §8) from the events' facts, by the cup core.

    A pair's two players each earn its place; a pair that has not exactly two different players (only
    possible through the admin) places its players one by one and is left out of the pair ranking.
    Player ids are given to the core as strings.
    """
    player_events, pair_events = [], []
    for fact in facts:
        if fact.results is None:
            continue
        player_placings: list = []
        pair_placings: list = []
        for r in fact.results:
            ids = tuple(str(p) for p in r.players)
            if len(ids) == 2 and ids[0] != ids[1]:
                placing = cup_core.PairPlacing(ids, r.place, r.match_wins)
                player_placings.append(placing)
                pair_placings.append(placing)
            else:
                player_placings.extend(cup_core.Placing(p, r.place, r.match_wins) for p in ids)
        player_events.append(cup_core.CupEvent(fact.key, fact.weight, tuple(player_placings)))
        pair_events.append(cup_core.CupEvent(fact.key, fact.weight, tuple(pair_placings)))
    return (
        cup_core.rank_players(player_events, best_n, table),
        cup_core.rank_pairs(pair_events, best_n, table),
    )


def rank_labels(ranks: Sequence[int]) -> list[str]:
    """Ranks as shown: "1.", or "2.–3." for a place two entrants share (RULES.md §8)."""
    sizes = Counter(ranks)
    return [f"{r}." if sizes[r] == 1 else f"{r}.–{r + sizes[r] - 1}." for r in ranks]


# --------------------------------------------------------------------------------------------------
# The season's cup as the pages, workbooks and API show it


@dataclass(frozen=True)
class Column:
    """A counted event, in date order; ``placed``: its final places are known and give points."""

    number: int
    event: Event
    weight: Decimal
    placed: bool
    entries: int = 0  # pairs placed

    @property
    def weight_label(self) -> str:
        return "½" if self.weight == cup_core.SUMMER_WEIGHT else "1"

    @property
    def half(self) -> bool:
        return self.weight == cup_core.SUMMER_WEIGHT


@dataclass(frozen=True)
class Cell:
    """What one player (or pair) earned in one event, and whether it counts (best N)."""

    place: int
    points: Decimal
    counted: bool
    match_wins: int
    club: Club | None  # the club the pair represented in that event
    partner: Player | None  # player rows: the other player of the pair


@dataclass(frozen=True)
class Row:
    """A row of the player or fixed-pair ranking."""

    rank: int
    rank_label: str
    standing: cup_core.Standing
    players: tuple[Player, ...]
    cells: tuple[Cell | None, ...]  # one per column
    club: Club | None = None  # player rows: the season club (RULES.md §7); None = unknown
    clubs: tuple[Club, ...] = ()  # pair rows: the clubs the pair represented
    # What do I need (issue #28.5, ``scoring.cup_reach``): best and worst reachable position while the
    # season has legs left; None when it has none. ``worst_exact`` False: ``worst`` is a safe bound.
    best: int | None = None
    worst: int | None = None
    worst_exact: bool = True

    @property
    def clinched(self) -> bool:
        """*Varmistanut voiton*: legs are left and nobody can pass this leader."""
        return self.worst == 1

    @property
    def points(self) -> Decimal:
        return self.standing.points

    @property
    def player(self) -> Player:
        return self.players[0]

    @property
    def counted(self) -> int:
        return len(self.standing.counted)

    @property
    def events(self) -> int:
        return len(self.standing.events)

    @property
    def places(self) -> dict[int, int]:
        return self.standing.places

    @property
    def match_wins(self) -> int:
        return self.standing.match_wins

    @property
    def name(self) -> str:
        return " / ".join(p.full_name for p in self.players)


@dataclass(frozen=True)
class ClubRow:
    rank: int
    rank_label: str
    standing: cup_core.ClubStanding
    club: Club
    members: tuple[Row, ...]  # the club's players, best first

    @property
    def points(self) -> Decimal:
        return self.standing.points

    @property
    def places(self) -> dict[int, int]:
        return self.standing.places

    @property
    def match_wins(self) -> int:
        return self.standing.match_wins


@dataclass(frozen=True)
class TransferNote:
    """A confirmed transfer (RULES.md §7) and the club that keeps the season's points."""

    transfer: Transfer
    points_club: Club | None


@dataclass(frozen=True)
class SeasonCup:
    season: Season
    best_n: int | None
    table: tuple[int, ...]
    columns: tuple[Column, ...]
    players: tuple[Row, ...]
    pairs: tuple[Row, ...]
    clubs: tuple[ClubRow, ...]
    unknown_club: tuple[Row, ...]  # players whose season club is unknown: shown apart, never dropped
    transfers: tuple[TransferNote, ...]
    key: str = ""  # the cup key it was computed at (``cup_key``)
    cacheable: bool = field(default=True, compare=False)  # False: the facts changed while it was computed

    @property
    def fingerprint_identity(self) -> str:
        """The cup stands for exactly the facts its key names (``lib.fingerprint``)."""
        return f"cup:{self.key}"

    @property
    def has_reach(self) -> bool:
        """Legs are left: the rows carry their best and worst reachable positions (issue #28.5)."""
        return any(r.best is not None for r in self.players)

    @property
    def pending(self) -> tuple[Column, ...]:
        return tuple(c for c in self.columns if not c.placed)

    def player_row(self, player_id: int) -> Row | None:
        return next((r for r in self.players if r.player.pk == player_id), None)

    def pair_rows(self, player_id: int) -> list[Row]:
        return [r for r in self.pairs if any(p.pk == player_id for p in r.players)]


def cup_settings(season) -> tuple[int, ...]:
    """The season's (a Season or its id) points table: its settings' or RULES.md §8's."""
    row = SeasonCupSettings.objects.filter(season=season).first()
    return tuple(row.points) if row is not None else cup_core.DEFAULT_POINTS


def cup_events(season: Season) -> list[CupEvent]:
    return list(
        CupEvent.objects.filter(event__season=season)
        .select_related("event")
        .order_by("event__starts_on", "event__name", "event_id")
    )


def load_facts(counted: Sequence[CupEvent]) -> list[EventFacts]:
    """Each counted event's weight and results (places and match wins of its pairs), date order kept."""
    snaps = readmodel.snapshots([c.event for c in counted])
    facts = []
    for c in counted:
        snap = snaps[c.event.pk]
        results = None
        if c.event.finished_at is not None and snap.final_places is not None:
            results = tuple(
                PairResult(
                    pair_id=pair_id,
                    players=tuple(p.pk for p in snap.pairs[pair_id].players),
                    club_id=snap.pairs[pair_id].club.pk,
                    place=place,
                    match_wins=snap.match_wins.get(pair_id, 0),
                )
                for place, pair_id in snap.final_places
            )
        facts.append(EventFacts(event=c.event, weight=c.weight, results=results))
    return facts


@dataclass(frozen=True)
class EventCup:
    """What an event counted for the cup gives: its weight ("1" or "½") and each place's points."""

    weight_label: str
    points: dict[int, Decimal]


def event_cup(event) -> EventCup | None:
    """The event's (an Event or the snapshot's ``EventInfo``) weight and place points; None when it is
    not counted for the cup (two queries)."""
    counted = CupEvent.objects.filter(event_id=event.pk).first()
    if counted is None:
        return None
    table = cup_settings(event.season_id)
    points = {
        place: cup_core.place_points(place, counted.weight, table) for place in range(1, len(table) + 1)
    }
    return EventCup(counted.weight_label, points)


def place_points(event) -> dict[int, Decimal] | None:
    """The cup points each player earns for each place of ``event`` (its weight and the season's points
    table), or None when the event is not counted for the cup. The results list and the event workbook
    both take them from here."""
    found = event_cup(event)
    return None if found is None else found.points


def season_cup(season: Season, key: str | None = None) -> SeasonCup:
    """The season's cup from the caches, computed once per change of its cup key (``key``: read just now
    by :func:`cup_keys`, else read here). A cup whose key moved while it was computed (a change committed
    meanwhile) is served once and kept nowhere."""
    found = key or cup_key(season.pk)

    def compute() -> SeasonCup:
        cup = replace(compute_season_cup(season), key=found)
        if cup_key(season.pk) != found:
            object.__setattr__(cup, "cacheable", False)
        return cup

    return caching.versioned(f"cup:{found}", compute)


def compute_season_cup(season: Season) -> SeasonCup:
    """The whole season's cup: settings, counted events, the three rankings and the notes."""
    table = cup_settings(season)
    facts = load_facts(cup_events(season))
    player_rows, pair_rows = rank(facts, season.best_n, table)
    players = {p.pk: p for p in Player.objects.filter(pk__in={int(r.entrant) for r in player_rows})}
    season_clubs = {
        sc.player_id: sc.club for sc in SeasonClub.objects.filter(season=season).select_related("club")
    }
    clubs = {c.pk: c for c in season_clubs.values()}
    missing = {r.club_id for f in facts for r in (f.results or ()) if r.club_id is not None} - set(clubs)
    clubs.update((c.pk, c) for c in Club.objects.filter(pk__in=missing))
    transfers = (
        Transfer.objects.filter(season=season)
        .select_related("player", "from_club", "to_club")
        .order_by("confirmed_on", "pk")
    )
    cells = _Cells(facts, clubs, players)
    left = legs_left(facts)
    prows = _with_reach(
        season, _player_rows(player_rows, players, season_clubs, cells), player_rows, left, table, pairs=False
    )
    by_player = {r.player.pk: r for r in prows}
    # Club names are unique (Club.name), so the core can key clubs by name.
    ranking = cup_core.rank_clubs(
        player_rows, {str(pid): club.name for pid, club in season_clubs.items() if pid in by_player}
    )
    return SeasonCup(
        season=season,
        best_n=season.best_n,
        table=tuple(table),
        columns=cells.columns,
        players=tuple(prows),
        pairs=tuple(
            _with_reach(
                season, list(_pair_rows(pair_rows, players, cells)), pair_rows, left, table, pairs=True
            )
        ),
        clubs=_club_rows(ranking, season_clubs, by_player),
        unknown_club=tuple(by_player[int(s.entrant)] for s in ranking.unknown_club),
        transfers=tuple(TransferNote(t, season_clubs.get(t.player_id)) for t in transfers),
    )


def legs_left(facts: Sequence[EventFacts]) -> list[Decimal]:
    """Decision (issue #28.5, legs left): the weights of the counted events not finished yet
    (``Event.finished_at`` unset). A finished event whose places a correction made incomplete again has
    been played: it is not a leg left."""
    return [f.weight for f in facts if f.event.finished_at is None]


def _with_reach(season, rows: list[Row], standings, weights, table, *, pairs: bool) -> list[Row]:
    """The rows with their best and worst reachable positions (``cup.reach``: from the caches, else computed
    here; cached with the cup too)."""
    if not weights:
        return rows
    found = reach.reach(season.pk, standings, weights, season.best_n, table, pairs=pairs)
    return [
        replace(
            row,
            best=found[s.entrant].best,
            worst=found[s.entrant].worst,
            worst_exact=found[s.entrant].worst_exact,
        )
        for row, s in zip(rows, standings, strict=True)
    ]


class _Cells:
    """A ranked entrant's cells, one per counted event (its column): place, points, club, partner."""

    def __init__(self, facts, clubs: dict, players: dict):
        self.columns = tuple(
            Column(
                number=i,
                event=f.event,
                weight=f.weight,
                placed=f.results is not None,
                entries=len(f.results or ()),
            )
            for i, f in enumerate(facts, start=1)
        )
        self.column_of = {f.key: i for i, f in enumerate(facts)}
        self.result_of: dict[tuple[str, int], PairResult] = {}  # (event key, player id) -> the pair's result
        for f in facts:
            for r in f.results or ():
                for p in r.players:
                    self.result_of[(f.key, p)] = r
        self.clubs, self.players = clubs, players

    def __call__(
        self, standing: cup_core.Standing, player_id: int, *, partner: bool
    ) -> tuple[Cell | None, ...]:
        out: list[Cell | None] = [None] * len(self.columns)
        for e in standing.events:
            r = self.result_of[(e.event_id, player_id)]
            others = [p for p in r.players if p != player_id]
            out[self.column_of[e.event_id]] = Cell(
                place=e.place,
                points=e.points,
                counted=e.counted,
                match_wins=e.match_wins,
                club=self.clubs.get(r.club_id),
                partner=self.players.get(others[0]) if partner and others else None,
            )
        return tuple(out)


def _player_rows(player_rows, players: dict, season_clubs: dict, cells: _Cells) -> list[Row]:
    return [
        Row(
            rank=s.rank,
            rank_label=label,
            standing=s,
            players=(players[int(s.entrant)],),
            cells=cells(s, int(s.entrant), partner=True),
            club=season_clubs.get(int(s.entrant)),
        )
        for s, label in zip(player_rows, rank_labels([s.rank for s in player_rows]), strict=True)
    ]


def _pair_rows(pair_rows, players: dict, cells: _Cells) -> tuple[Row, ...]:
    out = []
    for s, label in zip(pair_rows, rank_labels([s.rank for s in pair_rows]), strict=True):
        members = sorted(
            (players[int(p)] for p in s.entrant), key=lambda p: (p.last_name, p.first_name, p.pk)
        )
        row_cells = cells(s, int(s.entrant[0]), partner=False)
        represented = {c.club.pk: c.club for c in row_cells if c is not None and c.club is not None}
        out.append(
            Row(
                rank=s.rank,
                rank_label=label,
                standing=s,
                players=tuple(members),
                cells=row_cells,
                clubs=tuple(represented.values()),
            )
        )
    return tuple(out)


def _club_rows(ranking, season_clubs: dict, by_player: dict) -> tuple[ClubRow, ...]:
    by_name = {c.name: c for c in season_clubs.values()}
    return tuple(
        ClubRow(
            rank=c.rank,
            rank_label=label,
            standing=c,
            club=by_name[c.club],
            members=tuple(by_player[int(p)] for p in c.players),
        )
        for c, label in zip(ranking.clubs, rank_labels([c.rank for c in ranking.clubs]), strict=True)
    )


# --------------------------------------------------------------------------------------------------
# Settings helpers


@transaction.atomic
def add_season_events(season: Season) -> list[CupEvent]:
    """Count every cup event, SM pair tournament and summer event of the season that is not counted yet,
    with the weight its kind gives (RULES.md §8). Other events are left for the staff to decide."""
    added = []
    for event in Event.objects.filter(season=season, cup__isnull=True).order_by("starts_on", "name"):
        weight = default_weight(event.kind)
        if weight is not None:
            added.append(CupEvent.objects.create(event=event, weight=weight))
    return added


# --------------------------------------------------------------------------------------------------
# Club fines (``cup.fines``): the season's per club, for the admin and the season workbook


def season_fines(season: Season) -> list:
    """The season's club fines, by club and date, with the event, match and pair they came from."""
    return list(
        ClubFine.objects.filter(season=season)
        .select_related("club", "event", "match", "pair")
        .prefetch_related("pair__members__player")
        .order_by("club__name", "forfeited_on", "pk")
    )


def fines_by_club(season: Season) -> list[dict]:
    """Per club: its name, how many fines and their total, the largest total first."""
    totals: dict[str, dict] = {}
    for fine in season_fines(season):
        row = totals.setdefault(
            fine.club.name, {"club": fine.club.name, "count": 0, "total": Decimal(0), "unpaid": Decimal(0)}
        )
        row["count"] += 1
        row["total"] += fine.amount
        if fine.paid_on is None:
            row["unpaid"] += fine.amount
    return sorted(totals.values(), key=lambda r: (-r["total"], r["club"]))
