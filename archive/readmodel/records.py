"""The federation's records (issue #28 point 3, ``/tilastot/``): most titles, most cup wins, most tuppi
wins in a season, the highest rise total in a match and the longest unbeaten run.

Computed from the snapshots of every finished event (``tournaments.readmodel.snapshot.snapshots``, the
missing ones built in one batch) and the seasons' cached cups, once per change of what they read: the key
names every finished event with its results version and every season's cup key (``lib.caching``). A warm
page costs two light queries (the finished events, the cup keys), whatever the number of events.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from types import SimpleNamespace

from archive.readmodel.players import season_cups
from cup import services as cup
from lib import caching
from registry.models import Season
from teams import results as team_results
from tournaments.models import Event
from tournaments.readmodel.snapshot import snapshots
from tournaments.readmodel.values import EventSnapshot, MatchView, PlayerView

TOP = 5  # rows per record: the best values, ties at the last one included…
MAX_ROWS = 20  # …up to this many rows


@dataclass(frozen=True)
class EventRef:
    """The event (or season) a record comes from, enough to link to it."""

    pk: int
    slug: str
    name: str


@dataclass(frozen=True)
class Entry:
    """One row of a record: its value, the player(s) holding it and where it comes from."""

    value: int
    players: tuple[PlayerView, ...]
    events: tuple[EventRef, ...] = ()  # the events it comes from (a run: its first and last)
    match: int | None = None  # the match (in ``events[0]``) it comes from
    seasons: tuple[EventRef, ...] = ()  # the seasons it comes from (slug: "")


@dataclass(frozen=True)
class Records:
    titles: tuple[Entry, ...]
    cup_wins: tuple[Entry, ...]
    season_tuppis: tuple[Entry, ...]
    rise_totals: tuple[Entry, ...]
    unbeaten: tuple[Entry, ...]

    @property
    def empty(self) -> bool:
        return not any((self.titles, self.cup_wins, self.season_tuppis, self.rise_totals, self.unbeaten))


def _finished_events() -> list[Event]:
    return list(Event.objects.filter(finished_at__isnull=False).select_related("season").order_by("starts_on", "pk"))


def _versions() -> list[tuple[int, float, int, int]]:
    """(id, creation time, results version, season id) of every finished event, in one light query."""
    rows = Event.objects.filter(finished_at__isnull=False).order_by("pk").values_list(
        "pk", "created_at", "results_version", "season_id")
    return [(pk, created.timestamp(), version, season) for pk, created, version, season in rows]


def records_key(versions, cup_keys: dict[int, str]) -> str:
    """Names exactly what the records are computed from: every finished event (id, creation time,
    results version) and every season's cup key."""
    parts = [f"{pk}.{created:.6f}.{version}" for pk, created, version, _season in versions]
    parts += [f"c{pk}={k}" for pk, k in sorted(cup_keys.items())]
    return "records:" + hashlib.sha256("|".join(parts).encode()).hexdigest()


def current_key() -> tuple[str, dict[int, str]]:
    """The records' key now, and the seasons' cup keys it names (two light queries)."""
    versions = _versions()
    season_ids = sorted({v[3] for v in versions})
    keys = cup.cup_keys(season_ids) if season_ids else {}
    return records_key(versions, keys), keys


def of_key(key: str, cup_keys: dict[int, str]) -> Records:
    """The records of :func:`current_key`, from the caches or computed once."""
    return caching.versioned(key, lambda: compute(_finished_events(), cup_keys))


def records() -> Records:
    """The records, from the caches or computed once for the current versions."""
    return of_key(*current_key())


# --------------------------------------------------------------------------------------------------
# The computation (cold only)


def _ref(event) -> EventRef:
    return EventRef(event.pk, event.slug, event.name)


def _season_ref(season: Season) -> EventRef:
    return EventRef(season.pk, "", str(season))


def tuppi_win(match: MatchView) -> bool:
    """Won by putting the opponents in the tuppi (a rise of 52, RULES.md §2–3); a tuppi penalty
    (signalling) or a forfeit gives 5–0 too, but is not a tuppi won at the table."""
    o = match.outcome
    return o.finished and o.winner is not None and o.tuppi and not o.penalty and o.forfeit is None


def _top(entries: list[Entry]) -> tuple[Entry, ...]:
    """The best ``TOP`` values (ties at the last one kept), largest first."""
    ordered = sorted(entries, key=lambda e: -e.value)
    if len(ordered) <= TOP:
        return tuple(ordered)
    cut = ordered[TOP - 1].value
    return tuple(e for e in ordered if e.value >= cut)[:MAX_ROWS]


def _titles(events, snaps: dict[int, EventSnapshot]) -> tuple[Entry, ...]:
    """SM golds: the SM pair tournament won (place 1), the SM team competition won (its place 1)."""
    won: dict[int, list[EventRef]] = defaultdict(list)
    people: dict[int, PlayerView] = {}
    for event in events:
        winners = []
        if event.kind == Event.Kind.SM_PAIRS and snaps[event.pk].final_places is not None:
            snap = snaps[event.pk]
            winners = [snap.pairs[p] for place, p in snap.final_places if place == 1]
        elif event.kind == Event.Kind.SM_TEAM:
            head = SimpleNamespace(pk=event.pk, created_at=event.created_at, results_version=event.results_version,
                                   fresh=True)
            comp = team_results.load(head)
            winners = [pair for team in comp.teams.values() if comp.places.get(team.pk) == 1 for pair in team.pairs]
        for pair in winners:
            for p in pair.players:
                people[p.pk] = p
                won[p.pk].append(_ref(event))
    return _top([Entry(len(refs), (people[pk],), events=tuple(refs)) for pk, refs in won.items()])


def _cup_wins(cups: dict[int, cup.SeasonCup]) -> tuple[Entry, ...]:
    """Season cups won (rank 1 in the players' ranking) of the seasons whose counted events are all placed."""
    won: dict[int, list[EventRef]] = defaultdict(list)
    people: dict[int, PlayerView] = {}
    for season_cup in sorted(cups.values(), key=lambda c: c.season.start):
        if season_cup.pending or not season_cup.columns:
            continue
        for row in season_cup.players:
            if row.rank == 1:
                p = row.player
                people[p.pk] = PlayerView(p.pk, p.first_name, p.last_name)
                won[p.pk].append(_season_ref(season_cup.season))
    return _top([Entry(len(refs), (people[pk],), seasons=tuple(refs)) for pk, refs in won.items()])


def _season_tuppis(events, snaps) -> tuple[Entry, ...]:
    """Tuppi wins of a player in one season."""
    count: Counter = Counter()
    people: dict[int, PlayerView] = {}
    seasons = {}
    for event in events:
        seasons[event.season_id] = event.season
        for m in snaps[event.pk].matches:
            if tuppi_win(m):
                for p in (m.pair_a if m.outcome.winner == m.pair_a.pk else m.pair_b).players:
                    people[p.pk] = p
                    count[(p.pk, event.season_id)] += 1
    return _top([Entry(n, (people[pk],), seasons=(_season_ref(seasons[sid]),)) for (pk, sid), n in count.items()])


def _rise_totals(events, snaps) -> tuple[Entry, ...]:
    """The highest rise total one pair reached in one counted, finished match."""
    entries = []
    for event in events:
        for m in snaps[event.pk].matches:
            if not m.outcome.finished:
                continue
            for pair, total in zip((m.pair_a, m.pair_b), m.outcome.totals, strict=True):
                entries.append(Entry(total, pair.players, events=(_ref(event),), match=m.pk))
    return _top(entries)


def _unbeaten(events, snaps) -> tuple[Entry, ...]:
    """The longest run of a player's finished matches without a loss, in date order across events
    (annulled and unfinished matches neither count nor break a run)."""
    best: dict[int, Entry] = {}
    run: dict[int, list] = {}  # player id → [length, first event]
    for event in events:
        for m in snaps[event.pk].matches:
            if not (m.outcome.finished and m.outcome.winner):
                continue
            for pair in (m.pair_a, m.pair_b):
                for p in pair.players:
                    if m.outcome.winner != pair.pk:
                        run.pop(p.pk, None)
                        continue
                    current = run.setdefault(p.pk, [0, _ref(event)])
                    current[0] += 1
                    if p.pk not in best or current[0] > best[p.pk].value:
                        best[p.pk] = Entry(current[0], (p,), events=(current[1], _ref(event)))
    return _top(list(best.values()))


def compute(events: list[Event], cup_keys: dict[int, str]) -> Records:
    snaps = snapshots(events)
    seasons = {e.season_id: e.season for e in events}
    cups = season_cups(s for pk, s in seasons.items() if pk in cup_keys)
    return Records(
        titles=_titles(events, snaps),
        cup_wins=_cup_wins(cups),
        season_tuppis=_season_tuppis(events, snaps),
        rise_totals=_rise_totals(events, snaps),
        unbeaten=_unbeaten(events, snaps),
    )
