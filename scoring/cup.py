"""The season cup (*Tuppicup*): cup points, best N, and the player, fixed-pair and club rankings.

Implements RULES.md §7 (a player's season club), §8 (the cup) and the ``cup`` command of §9.

Choices this module makes beyond RULES.md (each is named again where it applies):

* **Decision (RULES §8, halves):** the summer event (*kesäkisa*, weight 0.5) gives half points, kept
  exactly, never rounded. Points are :class:`~decimal.Decimal` (exact, and what Django's
  ``DecimalField`` and openpyxl take); whole values are normalised to an integral ``Decimal``
  (``Decimal("25")``, not ``Decimal("25.0")``). JSON prints an int when whole, else a float (12.5).
* **Decision (RULES §8, best N):** ``best_n=None`` (the default) counts every event the player took
  part in, including events where the place earned 0 points (place 17 and on): they add no points but
  their match wins and their presence in ``counted`` do count. With ``best_n=k`` the counted events are
  the k with most points; among equal points the better (lower) place, then more match wins, then the
  earlier event in the input order. A player with at most k events has them all counted.
* **Decision (RULES §8, tie-break counts):** place counts and match wins are taken over the counted
  events only. Place counts run over the points-scoring places, 1..len(table) (1..16 by default);
  places beyond the table earn nothing and break no tie.
* Level players who stay level share the rank (1, 2, 2, 4). Within a shared rank the list is ordered
  by player id (pair key, club name), only so that the output never depends on the input order; this
  order means nothing and the rank stays shared.
* ``places`` in the JSON output holds only the places (1..16) that occur in the counted events, as
  ``{"1": n, ...}`` in ascending order; a place that does not occur is simply absent (count 0).
* **Decision (RULES §8, clubs):** a club's cup points are the sum of the counted points of the players
  whose season club (§7) it is. RULES §8 lists clubs among the rankings that the level-points rule
  applies to, so level clubs are separated by the sums of their players' counted place counts
  (first places, then second places, ... through 16), then the sum of their counted match wins; then
  they share the rank. Players with no known season club are reported apart, never dropped.
* Fixed pairs: a pair is the unordered set of its two players; its events are the events where those two
  played together, ranked by exactly the player rules applied to the pair's placings.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring.errors import ScoringError, is_whole

# RULES §8: points for places 1..16, to each player of the pair; place 17 and on earn 0.
DEFAULT_POINTS: tuple[int, ...] = (25, 22, 20, 18, 16, 14, 12, 10, 9, 7, 6, 5, 4, 3, 2, 1)

FULL_WEIGHT = Decimal(1)
# Decision (RULES §8): the summer event (kesäkisa) gives half points; halves kept, no rounding.
SUMMER_WEIGHT = Decimal("0.5")

PairKey = tuple[str, str]


# --------------------------------------------------------------------------------------------------
# Input values


@dataclass(frozen=True)
class Placing:
    """One player's final place and match wins in one cup event."""

    player: str
    place: int
    match_wins: int


@dataclass(frozen=True)
class PairPlacing:
    """One pair's final place and match wins in one cup event; each of its players earns the place."""

    players: tuple[str, str]
    place: int
    match_wins: int


@dataclass(frozen=True)
class CupEvent:
    """A cup event (*osakilpailu*): ``weight`` is 1, or 0.5 for the summer event (RULES §8).

    ``placings`` may be player placings, pair placings, or both; a pair placing stands for both its
    players in :func:`rank_players`. :func:`rank_pairs` needs pair placings only.
    """

    id: str
    weight: Decimal | int | float | Fraction
    placings: tuple[Placing | PairPlacing, ...]


# --------------------------------------------------------------------------------------------------
# Output values


@dataclass(frozen=True)
class EventResult:
    """What one player (or pair) earned in one event, and whether the event counts for them."""

    event_id: str
    weight: Decimal
    place: int
    match_wins: int
    points: Decimal
    counted: bool


@dataclass(frozen=True)
class Standing:
    """One row of the player or fixed-pair ranking (RULES §8).

    ``entrant`` is the player id, or for a fixed pair the sorted tuple of its two player ids.
    ``points``, ``counted``, ``place_counts`` and ``match_wins`` are over the counted events only;
    ``place_counts[i]`` is the number of counted events with place ``i + 1`` (length = the points table).
    ``events`` lists every event the entrant took part in, in input order, counted or not.
    """

    entrant: str | PairKey
    rank: int
    points: Decimal
    counted: tuple[str, ...]
    place_counts: tuple[int, ...]
    match_wins: int
    events: tuple[EventResult, ...]

    @property
    def places(self) -> dict[int, int]:
        """The places that occur in the counted events, ``{place: count}`` in ascending order."""
        return {i + 1: n for i, n in enumerate(self.place_counts) if n}


@dataclass(frozen=True)
class ClubStanding:
    """One row of the club ranking: sums over the club's players' counted events (RULES §8)."""

    club: str
    rank: int
    points: Decimal
    players: tuple[str, ...]
    place_counts: tuple[int, ...]
    match_wins: int

    @property
    def places(self) -> dict[int, int]:
        """The places that occur, ``{place: count}`` in ascending order."""
        return {i + 1: n for i, n in enumerate(self.place_counts) if n}


@dataclass(frozen=True)
class ClubRanking:
    """The club ranking, and the players whose season club is unknown (reported, never dropped)."""

    clubs: tuple[ClubStanding, ...]
    unknown_club: tuple[Standing, ...]


# --------------------------------------------------------------------------------------------------
# Public functions


def place_points(
    place: int, weight: Decimal | int | float | Fraction = 1, table: Sequence[int] = DEFAULT_POINTS
) -> Decimal:
    """Cup points of one place in one event of the given weight (RULES §8)."""
    table = _check_table(table)
    _check_place(place, None, None)
    return _points(place, _check_weight(weight, None), table)


def rank_players(
    events: Iterable[CupEvent], best_n: int | None = None, table: Sequence[int] = DEFAULT_POINTS
) -> tuple[Standing, ...]:
    """The season's player ranking (RULES §8); every player who took part in an event is listed."""
    table = _check_table(table)
    best_n = _check_best_n(best_n)
    return _rank(_collect(events, table, pairs=False), best_n, len(table))


def rank_pairs(
    events: Iterable[CupEvent], best_n: int | None = None, table: Sequence[int] = DEFAULT_POINTS
) -> tuple[Standing, ...]:
    """The season's fixed-pair ranking (RULES §8): the same two players together, by the player rules.

    Every placing must be a :class:`PairPlacing`; the pair key is the sorted tuple of the two players.
    """
    table = _check_table(table)
    best_n = _check_best_n(best_n)
    return _rank(_collect(events, table, pairs=True), best_n, len(table))


def rank_clubs(player_rows: Iterable[Standing], player_club: Mapping[str, str | None]) -> ClubRanking:
    """The season's club ranking (RULES §7–8) from the rows of :func:`rank_players`.

    ``player_club`` maps a player id to their season club (§7: the club of their first cup event).
    A player missing from it, or mapped to ``None`` or ``""``, goes to ``unknown_club``.
    Decision (RULES §8, clubs): points = sum of the players' counted points; level clubs by the summed
    place counts (first places first), then summed match wins, then the rank is shared.
    """
    members: dict[str, list[Standing]] = {}
    unknown: list[Standing] = []
    seen: set[str] = set()
    width = 0
    for row in player_rows:
        if not isinstance(row, Standing) or not isinstance(row.entrant, str):
            raise ScoringError("club_rows_invalid", "The club ranking needs the rows of the player ranking.")
        if row.entrant in seen:
            raise ScoringError(
                "player_duplicate",
                f"Player {row.entrant!r} appears twice in the player rows.",
                player=row.entrant,
            )
        seen.add(row.entrant)
        width = max(width, len(row.place_counts))
        club = player_club.get(row.entrant)
        if club is None or club == "":
            unknown.append(row)
        elif not isinstance(club, str):
            raise ScoringError(
                "club_invalid",
                f"The club of player {row.entrant!r} is not a club name: {club!r}.",
                player=row.entrant,
                club=club,
            )
        else:
            members.setdefault(club, []).append(row)

    totals = []
    for club, rows in members.items():
        counts = [0] * width
        for row in rows:
            for i, n in enumerate(row.place_counts):
                counts[i] += n
        totals.append(
            (
                club,
                _clean(sum((row.points for row in rows), Decimal(0))),
                tuple(row.entrant for row in sorted(rows, key=lambda r: (r.rank, r.entrant))),
                tuple(counts),
                sum(row.match_wins for row in rows),
            )
        )
    totals.sort(key=lambda t: (_order_key(t[1], t[3], t[4]), t[0]))
    ranks = _competition_ranks([_order_key(t[1], t[3], t[4]) for t in totals])
    clubs = tuple(
        ClubStanding(club=c, rank=r, points=p, players=pl, place_counts=pc, match_wins=mw)
        for (c, p, pl, pc, mw), r in zip(totals, ranks, strict=True)
    )
    unknown.sort(key=lambda r: (r.rank, r.entrant))
    return ClubRanking(clubs=clubs, unknown_club=tuple(unknown))


def standing_to_json(row: Standing) -> dict:
    """One player row as ``python -m scoring cup`` prints it (RULES §9)."""
    return {
        "player": row.entrant,
        "rank": row.rank,
        "points": points_to_json(row.points),
        "counted": list(row.counted),
        "places": {str(place): n for place, n in row.places.items()},
        "match_wins": row.match_wins,
    }


def points_to_json(points: Decimal) -> int | float:
    """Decision (RULES §8, halves): an int when the points are whole, else a float such as 12.5."""
    return int(points) if points == points.to_integral_value() else float(points)


def run_cli(data: object) -> list[dict]:
    """``python -m scoring cup FILE`` (RULES §9): parse the season, rank its players.

    ``best_n`` may be left out (Decision RULES §8: default all); every other key is required and
    unknown keys are refused, so that a misspelt ``best_n`` cannot silently count all events.
    """
    season = _expect_object(data, "the season", required=("events",), optional=("best_n",))
    raw_events = season["events"]
    if not isinstance(raw_events, list):
        raise ScoringError("cup_input_invalid", "'events' must be a list of events.")
    events = []
    for number, raw in enumerate(raw_events, start=1):
        ev = _expect_object(raw, f"event {number}", required=("id", "weight", "placings"))
        if not isinstance(ev["placings"], list):
            raise ScoringError(
                "cup_input_invalid", f"'placings' of event {number} must be a list.", event=number
            )
        placings = []
        for pnum, rawp in enumerate(ev["placings"], start=1):
            p = _expect_object(
                rawp, f"placing {pnum} of event {number}", required=("player", "place", "match_wins")
            )
            placings.append(Placing(player=p["player"], place=p["place"], match_wins=p["match_wins"]))
        events.append(CupEvent(id=ev["id"], weight=ev["weight"], placings=tuple(placings)))
    return [standing_to_json(row) for row in rank_players(events, best_n=season.get("best_n"))]


# --------------------------------------------------------------------------------------------------
# Internals


def _rank(
    entries: dict[str | PairKey, list[EventResult]], best_n: int | None, width: int
) -> tuple[Standing, ...]:
    rows = []
    for entrant, results in entries.items():
        if best_n is None:
            # Decision (RULES §8, best N): default all; every event taken part in counts, 0 points or not.
            chosen = set(range(len(results)))
        else:
            # Decision (RULES §8, best N): the N with most points; among equal points the better place,
            # then more match wins, then the earlier event in the input.
            order = sorted(
                range(len(results)),
                key=lambda i: (-results[i].points, results[i].place, -results[i].match_wins, i),
            )
            chosen = set(order[:best_n])
        marked = tuple(
            EventResult(r.event_id, r.weight, r.place, r.match_wins, r.points, counted=i in chosen)
            for i, r in enumerate(results)
        )
        counted = [r for r in marked if r.counted]
        counts = [0] * width
        for r in counted:
            if r.place <= width:
                counts[r.place - 1] += 1
        rows.append(
            (
                entrant,
                _clean(sum((r.points for r in counted), Decimal(0))),
                tuple(r.event_id for r in counted),
                tuple(counts),
                sum(r.match_wins for r in counted),
                marked,
            )
        )
    # Decision (RULES §8, tie-break counts): the counts are over the counted events only.
    rows.sort(key=lambda t: (_order_key(t[1], t[3], t[4]), t[0]))
    ranks = _competition_ranks([_order_key(t[1], t[3], t[4]) for t in rows])
    return tuple(
        Standing(entrant=e, rank=rank, points=p, counted=c, place_counts=pc, match_wins=mw, events=ev)
        for (e, p, c, pc, mw, ev), rank in zip(rows, ranks, strict=True)
    )


def _order_key(points: Decimal, counts: tuple[int, ...], match_wins: int) -> tuple:
    """RULES §8: more points; level: more first places, more second places, ... ; then more match wins."""
    return (-points, tuple(-n for n in counts), -match_wins)


def _competition_ranks(keys: list[tuple]) -> list[int]:
    """Shared ranks for equal keys, the next rank skipping (1, 2, 2, 4); ``keys`` already sorted."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def _collect(
    events: Iterable[CupEvent], table: tuple[int, ...], *, pairs: bool
) -> dict[str | PairKey, list[EventResult]]:
    """Validate the events; each entrant's results in input order (entrants in order of appearance)."""
    entries: dict[str | PairKey, list[EventResult]] = {}
    seen_ids: set[str] = set()
    for event in events:
        if not isinstance(event, CupEvent):
            raise ScoringError("cup_input_invalid", f"Not a cup event: {event!r}.")
        eid = event.id
        if not isinstance(eid, str) or not eid:
            raise ScoringError(
                "event_id_invalid", f"An event id must be a non-empty string, not {eid!r}.", event=eid
            )
        if eid in seen_ids:
            raise ScoringError("event_id_duplicate", f"Event {eid!r} appears twice in the season.", event=eid)
        seen_ids.add(eid)
        weight = _check_weight(event.weight, eid)
        players_here: set[str] = set()
        for placing in event.placings:
            if isinstance(placing, PairPlacing):
                members = _check_pair(placing.players, eid)
                keys: list[str | PairKey] = [members] if pairs else list(members)
            elif isinstance(placing, Placing):
                if pairs:
                    raise ScoringError(
                        "pair_placing_required",
                        f"The fixed-pair ranking needs pair placings; event {eid!r} has a single player's.",
                        event=eid,
                        player=placing.player,
                    )
                members = (_check_player(placing.player, eid),)
                keys = [members[0]]
            else:
                raise ScoringError(
                    "cup_input_invalid", f"Not a placing in event {eid!r}: {placing!r}.", event=eid
                )
            _check_place(placing.place, eid, members)
            _check_match_wins(placing.match_wins, eid, members)
            for player in members:
                if player in players_here:
                    raise ScoringError(
                        "player_duplicate",
                        f"Player {player!r} is placed twice in event {eid!r}.",
                        event=eid,
                        player=player,
                    )
                players_here.add(player)
            points = _points(placing.place, weight, table)
            for key in keys:
                entries.setdefault(key, []).append(
                    EventResult(eid, weight, placing.place, placing.match_wins, points, counted=False)
                )
    return entries


def _points(place: int, weight: Decimal, table: tuple[int, ...]) -> Decimal:
    """RULES §8: the table's points for places 1..len(table), 0 beyond; times the event's weight."""
    return _clean(weight * table[place - 1]) if place <= len(table) else Decimal(0)


def _clean(value: Decimal) -> Decimal:
    """Whole values as integral Decimals (``25``, not ``25.0``); halves left as they are (12.5)."""
    return value.quantize(Decimal(1)) if value == value.to_integral_value() else value


def _check_table(table: Sequence[int]) -> tuple[int, ...]:
    values = tuple(table)
    if not values or not all(is_whole(v) and v >= 0 for v in values):
        raise ScoringError(
            "points_table_invalid",
            f"The points table must list non-negative whole points, not {values!r}.",
            table=values,
        )
    return values


def _check_best_n(best_n: object) -> int | None:
    if best_n is None:
        return None
    if not is_whole(best_n) or best_n < 1:
        raise ScoringError(
            "best_n_invalid",
            f"best_n must be a whole number of events, at least 1, or null; not {best_n!r}.",
            best_n=best_n,
        )
    return best_n


def _check_weight(weight: object, eid: str | None) -> Decimal:
    if not isinstance(weight, bool) and isinstance(weight, (int, float, Decimal, Fraction)):
        if weight == 1:
            return FULL_WEIGHT
        if weight == 0.5:
            return SUMMER_WEIGHT
    raise ScoringError(
        "event_weight_invalid",
        f"The weight of event {eid!r} must be 1, or 0.5 for the summer event; not {weight!r}.",
        event=eid,
        weight=weight,
    )


def _check_place(place: object, eid: str | None, members: tuple[str, ...] | None) -> None:
    if not is_whole(place) or place < 1:
        raise ScoringError(
            "place_invalid",
            f"A place must be a whole number from 1 up; {_who(members, eid)} has {place!r}.",
            event=eid,
            players=members,
            place=place,
        )


def _check_match_wins(wins: object, eid: str, members: tuple[str, ...]) -> None:
    if not is_whole(wins) or wins < 0:
        raise ScoringError(
            "match_wins_invalid",
            f"Match wins must be a whole number from 0 up; {_who(members, eid)} has {wins!r}.",
            event=eid,
            players=members,
            match_wins=wins,
        )


def _check_player(player: object, eid: str) -> str:
    if not isinstance(player, str) or not player:
        raise ScoringError(
            "player_invalid",
            f"A player id in event {eid!r} must be a non-empty string, not {player!r}.",
            event=eid,
            player=player,
        )
    return player


def _check_pair(players: object, eid: str) -> PairKey:
    if not isinstance(players, (tuple, list)) or len(players) != 2:
        raise ScoringError(
            "pair_invalid",
            f"A pair in event {eid!r} must be two players, not {players!r}.",
            event=eid,
            players=players,
        )
    a, b = (_check_player(p, eid) for p in players)
    if a == b:
        raise ScoringError(
            "pair_invalid", f"A pair in event {eid!r} has player {a!r} twice.", event=eid, players=(a, b)
        )
    return (a, b) if a < b else (b, a)


def _who(members: tuple[str, ...] | None, eid: str | None) -> str:
    if members is None:
        return "the place"
    return f"{' and '.join(repr(m) for m in members)} in event {eid!r}"


def _expect_object(
    value: object, what: str, *, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict:
    """The CLI input's shape: an object with exactly the required keys and maybe the optional ones."""
    if not isinstance(value, dict):
        raise ScoringError("cup_input_invalid", f"{what.capitalize()} must be a JSON object.")
    missing = [k for k in required if k not in value]
    if missing:
        raise ScoringError(
            "cup_input_invalid", f"{what.capitalize()} lacks {', '.join(missing)}.", missing=missing
        )
    unknown = sorted(k for k in value if k not in required and k not in optional)
    if unknown:
        raise ScoringError(
            "cup_input_invalid",
            f"{what.capitalize()} has unknown keys: {', '.join(map(str, unknown))}.",
            unknown=unknown,
        )
    return value
