"""The event's read model: one snapshot of everything derived from an event's facts.

:func:`build` loads an event's facts in a fixed number of queries (twelve, whatever the event's size) and
derives, once each, every match's outcome, the Saturday tables, the Sunday tables, the placement bracket
and the final places (RULES.md §3–5). :func:`snapshot` serves it from the caches keyed by the event's
results version (``tournaments.versions``), so it is computed once per change of the facts and shared by
every worker process (``tournaments.caching``). Every public page, the JSON API, the PDFs, the
workbooks, the cup and the team competition read from it.

The snapshot holds plain values, no model instances: it pickles small, it carries no secret (no match
token, no user row), and nothing in it depends on the language a page is shown in (labels are
translated when a template shows them).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field, fields, replace
from functools import cached_property

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring import sunday as sunday_core
from scoring.draw import group_name_key
from scoring.errors import ScoringError
from tournaments import caching
from tournaments import timetable as day_clock
from tournaments.models import (
    STATUS_LABELS,
    DrawSwap,
    Entry,
    Event,
    Group,
    GroupEntry,
    Match,
    MatchSubstitute,
    Pair,
    PairMember,
    PaperResult,
    Playoff,
    Publication,
    Stage,
    event_status,
)
from tournaments.results import (
    LINE_FIELDS,
    PAPER_FIELDS,
    GroupTable,
    Outcome,
    engine_entry,
    fold_outcome,
    group_table,
)

# --- the values a snapshot holds ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClubView:
    pk: int
    name: str
    short_name: str

    def __str__(self) -> str:
        return self.name

    @property
    def id(self) -> int:
        return self.pk


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player as the pages show one. ``substitute``: a substitute (*varamies*) at the table of one match,
    in the place of ``replaces`` (a match's pairs only: ``MatchView.pair_a``/``pair_b``); every name the
    pages, the scoresheets and the PDFs print carries the mark."""

    pk: int
    first_name: str
    last_name: str
    substitute: bool = False
    replaces: str = ""  # the replaced player's name

    @property
    def full_name(self) -> str:
        name = f"{self.first_name} {self.last_name}"
        return _("%(name)s (varamies)") % {"name": name} if self.substitute else name

    @property
    def surname(self) -> str:
        return _("%(name)s (varamies)") % {"name": self.last_name} if self.substitute else self.last_name

    def __str__(self) -> str:
        return self.full_name


@dataclass(frozen=True, eq=False)
class PairView:
    """A pair as every page shows it: number, club, players in position order."""

    pk: int
    number: int
    club: ClubView
    players: tuple[PlayerView, ...]
    withdrawn_at: dt.datetime | None

    @property
    def id(self) -> int:
        return self.pk

    @property
    def club_id(self) -> int:
        return self.club.pk

    @property
    def name(self) -> str:
        names = [p.surname for p in self.players]
        return " / ".join(names) if names else f"#{self.number}"

    def with_substitutes(self, substitutes: dict[int, PlayerView]) -> PairView:
        """This pair as it sat at one match's table: ``substitutes`` maps a replaced player's id to the
        substitute who played in their place (``MatchSubstitute``)."""
        players = tuple(
            replace(substitutes[p.pk], replaces=f"{p.first_name} {p.last_name}") if p.pk in substitutes else p
            for p in self.players
        )
        return replace(self, players=players)

    @property
    def full_name(self) -> str:
        return " / ".join(p.full_name for p in self.players)

    @property
    def active(self) -> bool:
        return self.withdrawn_at is None

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, eq=False)
class GroupView:
    pk: int
    stage: str
    name: str
    deals_planned: int
    pairs: tuple[PairView, ...]  # in slot order

    @property
    def id(self) -> int:
        return self.pk

    def __str__(self) -> str:
        return str(_("Lohko %(name)s") % {"name": self.name})


@dataclass(frozen=True, eq=False)
class MatchView:
    pk: int
    stage: str
    group: GroupView | None
    round: int
    table: int
    pair_a: PairView
    pair_b: PairView
    deals_planned: int
    status: str  # the stored workflow status (the outcome's status is what the pages show)
    tier: int | None
    placement_round: str
    slot: int | None
    version: int
    confirmed_at: dt.datetime | None
    outcome: Outcome
    accepted: tuple[bool, bool] = (False, False)  # pair A, pair B accepted the result at the table
    link_closed: bool = False
    corrected_at: dt.datetime | None = None
    finished_at: dt.datetime | None = None  # when the result came in (the timetable)
    referee: str = ""  # the named referee; "": the player in seat 4 keeps the scoresheet

    @property
    def sides(self) -> tuple[tuple[str, PairView], tuple[str, PairView]]:
        return (("A", self.pair_a), ("B", self.pair_b))

    @property
    def seat_four(self) -> PlayerView | None:
        """The player in seat 4 (pair B's second player), who keeps the sheet when no referee is named."""
        players = self.pair_b.players
        return players[1] if len(players) > 1 else None

    def review(self, require_acceptance: bool) -> str:
        """Where the result stands on the results desk (issue #16): not started, playing, awaiting the
        pairs' acceptance, awaiting confirmation, corrected (awaiting confirmation again), confirmed,
        annulled."""
        o = self.outcome
        if o.status == "annulled":
            return "annulled"
        if self.confirmed_at is not None:
            return "confirmed"
        if self.corrected_at is not None:
            return "corrected"
        if not o.finished:
            return "playing" if o.status == "playing" else "scheduled"
        if require_acceptance and not self.link_closed and not all(self.accepted):
            return "awaiting_acceptance"
        return "awaiting_confirmation"

    @property
    def id(self) -> int:
        return self.pk

    @property
    def pair_a_id(self) -> int:
        return self.pair_a.pk

    @property
    def pair_b_id(self) -> int:
        return self.pair_b.pk

    @property
    def group_id(self) -> int | None:
        return self.group.pk if self.group is not None else None

    @property
    def stage_label(self) -> str:
        return str(Stage(self.stage).label)

    def opponent(self, pair_id: int) -> PairView:
        return self.pair_b if self.pair_a.pk == pair_id else self.pair_a

    def side(self, pair_id: int) -> str:
        return "A" if self.pair_a.pk == pair_id else "B"


@dataclass(frozen=True)
class EventInfo:
    """The event's own fields as the pages show them."""

    pk: int
    slug: str
    name: str
    season_id: int
    starts_on: dt.date
    ends_on: dt.date
    venue: str
    kind: str
    format: str
    organising_club: ClubView | None
    draw_seed: int | None
    drawn_at: dt.datetime | None
    drawn_by: str  # the drawer's name, or ""
    finished_at: dt.datetime | None
    created_at: dt.datetime
    require_acceptance: bool = True
    # The event day (issue #19): the day starts, the estimated minutes per deal, the judges' council.
    draw_time: dt.time = dt.time(11, 0)
    play_time: dt.time = dt.time(11, 15)
    sunday_play_time: dt.time = dt.time(9, 0)
    minutes_per_deal: int = 5
    judges: tuple[str, ...] = ()

    @property
    def id(self) -> int:
        return self.pk

    @property
    def status(self) -> str:
        return event_status(self.starts_on, self.ends_on, self.drawn_at, self.finished_at)

    def get_status_display(self) -> str:
        return str(STATUS_LABELS[self.status])

    def get_kind_display(self) -> str:
        return str(Event.Kind(self.kind).label)

    def get_format_display(self) -> str:
        return str(Event.Format(self.format).label)

    def get_absolute_url(self) -> str:
        return reverse("event", args=[self.slug])


@dataclass(frozen=True)
class PublicationView:
    """A published record (``Publication``): the publication itself or a correction made after it."""

    kind: str
    at: dt.datetime
    reason: str
    digest: str

    @property
    def correction(self) -> bool:
        return self.kind == "correction"


@dataclass(frozen=True)
class SwapView:
    """Two pairs exchanged after the draw (``DrawSwap``), in the order they were swapped."""

    pair_x: PairView
    pair_y: PairView


TIER_PLACES = {1: "1.–4.", 2: "5.–8.", 3: "9.–12.", 4: "13.–16."}


@dataclass(frozen=True, eq=False)
class EventSnapshot:
    """Everything derived from one event's facts at one results version."""

    event: EventInfo
    version: int
    pairs: dict[int, PairView]
    groups: tuple[GroupView, ...]  # every stage, Saturday first, in draw order
    matches: tuple[MatchView, ...]  # every stage, by stage, round and table
    tables: dict[str, tuple[GroupTable, ...]]  # "saturday" and "sunday"
    placements: tuple[MatchView, ...]  # by tier, round (semi, final, third) and slot
    swaps: tuple[SwapView, ...]
    final_places: tuple[tuple[int, int], ...] | None  # (place, pair id) once every place is known
    top_places: dict[int, int]  # pair id → place 1–16 decided so far by the placement matches
    publications: tuple[PublicationView, ...] = ()  # the publication, then each correction after it
    playoffs: dict[int, tuple] = field(default_factory=dict)  # group id → its recorded play-off orders
    structure: str = ""  # digest of what every page shows besides results: the event, pairs, groups, draw
    cacheable: bool = field(default=True, compare=False)
    # Each round's planned and estimated start, days in order (``tournaments.timetable``, issue #19).
    timetable: tuple[day_clock.RoundTimeView, ...] = ()

    def fingerprint(self, *parts) -> str:
        """A short digest naming exactly what a page shows: the structure and the given parts (matches,
        as their id, version and status; anything else as it is). Pages whose parts did not change keep
        their fingerprint while other parts of the event change: their ETag and cached part stay valid."""
        flat = [self.structure]
        for part in parts:
            if isinstance(part, list | tuple) and part and isinstance(part[0], MatchView):
                flat.append(tuple((m.pk, m.version, m.status) for m in part))
            else:
                flat.append(part)
        return hashlib.blake2b(repr(flat).encode(), digest_size=8).hexdigest()

    @property
    def published_record(self) -> PublicationView | None:
        """The latest published record: its digest is the one the results now carry."""
        return self.publications[-1] if self.publications else None

    @property
    def corrections(self) -> tuple[PublicationView, ...]:
        return tuple(p for p in self.publications if p.correction)

    # --- lookups ---------------------------------------------------------------------------------

    @cached_property
    def _match_by_id(self) -> dict[int, MatchView]:
        return {m.pk: m for m in self.matches}

    def match(self, match_id: int) -> MatchView | None:
        return self._match_by_id.get(match_id)

    def stage_tables(self, stage: str) -> tuple[GroupTable, ...]:
        return self.tables.get(stage, ())

    def table(self, group_id: int) -> GroupTable | None:
        return next((t for tables in self.tables.values() for t in tables if t.group.pk == group_id), None)

    def group_named(self, name: str) -> GroupView | None:
        return next((g for g in self.groups if g.name == name), None)

    def pair_by_number(self, number: int) -> PairView | None:
        return next((p for p in self.pairs.values() if p.number == number), None)

    def stage_groups(self, stage: str) -> tuple[GroupView, ...]:
        return tuple(g for g in self.groups if g.stage == stage)

    def matches_of(self, stage: str, round: int | None = None) -> list[MatchView]:
        return [m for m in self.matches if m.stage == stage and (round is None or m.round == round)]

    def pair_matches(self, pair_id: int) -> list[MatchView]:
        """Every match of the pair, in playing order (Saturday, Sunday, placement)."""
        return [m for m in self.matches if pair_id in (m.pair_a.pk, m.pair_b.pk)]

    def pair_group(self, pair_id: int, stage: str) -> GroupView | None:
        return next((g for g in self.groups if g.stage == stage and any(p.pk == pair_id for p in g.pairs)), None)

    # --- rounds ----------------------------------------------------------------------------------

    def round_time(self, stage: str, round: int) -> day_clock.RoundTimeView | None:
        """The round's planned and estimated start (``_round_time.html`` shows it as "noin 14.30")."""
        return next((t for t in self.timetable if t.stage == stage and t.round == round), None)

    def round_times(self, stage: str = Stage.SATURDAY) -> dict[int, day_clock.RoundTimeView]:
        """Round number → its times, for one stage (a template looks a round up with ``get_item``)."""
        return {t.round: t for t in self.timetable if t.stage == stage}

    def rounds(self, stage: str = Stage.SATURDAY) -> dict[int, list[str]]:
        """Each round's match statuses (as the outcomes give them)."""
        out: dict[int, list[str]] = {}
        for m in self.matches:
            if m.stage == stage:
                out.setdefault(m.round, []).append(m.outcome.status)
        return dict(sorted(out.items()))

    def current_round(self, stage: str = Stage.SATURDAY) -> int | None:
        """The first round with a match still to finish; None when all are done (or nothing is scheduled)."""
        for number, statuses in self.rounds(stage).items():
            if any(s in (Match.Status.SCHEDULED, Match.Status.PLAYING) for s in statuses):
                return number
        return None

    def progress(self, stage: str = Stage.SATURDAY) -> tuple[int, int]:
        """(finished, counted) matches of a stage; annulled ones count nowhere."""
        statuses = [s for ss in self.rounds(stage).values() for s in ss]
        return statuses.count(Match.Status.FINISHED), sum(1 for s in statuses if s != Match.Status.ANNULLED)

    # --- Sunday ----------------------------------------------------------------------------------

    def bracket(self) -> list[dict]:
        """The placement matches by tier: each tier's semifinals, then its final and third-place match."""
        tiers = {
            t: {"tier": t, "places": TIER_PLACES[t], "semis": [], "final": None, "third": None} for t in range(1, 5)
        }
        for m in self.placements:
            if m.placement_round == "semi":
                tiers[m.tier]["semis"].append(m)
            else:
                tiers[m.tier][m.placement_round] = m
        return list(tiers.values())

    @property
    def complete(self) -> bool:
        return self.final_places is not None

    def ranking(self) -> list[tuple[int, PairView]]:
        """(place, pair) for the final places, complete or as far as the placement matches decided them."""
        if self.final_places is not None:
            return [(place, self.pairs[pair_id]) for place, pair_id in self.final_places]
        return sorted(((place, self.pairs[p]) for p, place in self.top_places.items()), key=lambda x: x[0])

    @cached_property
    def match_wins(self) -> Counter:
        """Pair id → wins in every finished, counted match of the event (a forfeit is the opponents' win)."""
        return Counter(m.outcome.winner for m in self.matches if m.outcome.finished and m.outcome.winner)


# --- building ----------------------------------------------------------------------------------------


def pair_view(pair: Pair) -> PairView:
    """A loaded pair (club and members prefetched, ``prefetch.with_pairs``) as the read model shows it."""
    club = ClubView(pair.club_id, pair.club.name, pair.club.short_name)
    players = tuple(PlayerView(p.pk, p.first_name, p.last_name) for p in pair.players)
    return PairView(pair.pk, pair.number, club, players, pair.withdrawn_at)


def match_pairs(matches) -> dict[int, tuple[PairView, PairView]]:
    """Each loaded match's two pairs as they sat at its table, substitutes in their places (one query)."""
    subs: dict[int, dict[int, PlayerView]] = defaultdict(dict)
    team = [m.pk for m in matches if m.stage == Stage.TEAM]
    for row in MatchSubstitute.objects.filter(match__in=team).select_related("substitute") if team else ():
        s = row.substitute
        subs[row.match_id][row.player_id] = PlayerView(s.pk, s.first_name, s.last_name, substitute=True)
    return {
        m.pk: (pair_view(m.pair_a).with_substitutes(subs[m.pk]), pair_view(m.pair_b).with_substitutes(subs[m.pk]))
        for m in matches
    }



def build(event_id: int, *, stages: tuple[str, ...] | None = None) -> EventSnapshot:
    """The snapshot of one event from the database, in twelve queries whatever the event's size (a team
    competition's, thirteen: its substitutes).

    ``stages`` limits the matches, groups and lines loaded to those stages (a service that needs only
    Sunday's tables); such a snapshot has no final places and is never cached."""
    return build_many([event_id], stages=stages)[event_id]


def build_many(event_ids, *, stages: tuple[str, ...] | None = None) -> dict[int, EventSnapshot]:
    """The snapshots of several events (a season's cup), in twelve queries whatever their number."""
    ids = list(dict.fromkeys(event_ids))
    events = {e.pk: e for e in Event.objects.select_related("organising_club", "drawn_by").filter(pk__in=ids)}
    pairs_q = Pair.objects.filter(event_id__in=ids)
    members = PairMember.objects.filter(event_id__in=ids)
    groups_q = Group.objects.filter(event_id__in=ids)
    entries_q = GroupEntry.objects.filter(group__event_id__in=ids)
    matches_q = Match.objects.filter(event_id__in=ids)
    lines_q = Entry.objects.filter(match__event_id__in=ids)
    papers_q = PaperResult.objects.filter(match__event_id__in=ids)
    if stages is not None:
        groups_q, entries_q = groups_q.filter(stage__in=stages), entries_q.filter(stage__in=stages)
        matches_q, lines_q = matches_q.filter(stage__in=stages), lines_q.filter(match__stage__in=stages)
        papers_q = papers_q.filter(match__stage__in=stages)

    players: dict[int, list[PlayerView]] = defaultdict(list)
    for pair_id, player_id, first, last in members.order_by("pair_id", "position").values_list(
        "pair_id", "player_id", "player__first_name", "player__last_name"
    ):
        players[pair_id].append(PlayerView(player_id, first, last))
    clubs: dict[int, ClubView] = {}
    pairs: dict[int, dict[int, PairView]] = defaultdict(dict)
    all_pairs: dict[int, PairView] = {}
    for pk, event_id, number, club_id, club_name, club_short, withdrawn_at in pairs_q.order_by(
        "event_id", "number"
    ).values_list("pk", "event_id", "number", "club_id", "club__name", "club__short_name", "withdrawn_at"):
        club = clubs.setdefault(club_id, ClubView(club_id, club_name, club_short))
        all_pairs[pk] = pairs[event_id][pk] = PairView(pk, number, club, tuple(players.get(pk, ())), withdrawn_at)

    slots: dict[int, list[PairView]] = defaultdict(list)
    for group_id, pair_id in entries_q.order_by("group_id", "slot").values_list("group_id", "pair_id"):
        slots[group_id].append(all_pairs[pair_id])
    stage_order = {s: i for i, s in enumerate(Stage.values)}
    groups: dict[int, list[GroupView]] = defaultdict(list)
    group_by_id: dict[int, GroupView] = {}
    for pk, event_id, stage, name, deals in groups_q.values_list("pk", "event_id", "stage", "name", "deals_planned"):
        group_by_id[pk] = view = GroupView(pk, stage, name, deals, tuple(slots.get(pk, ())))
        groups[event_id].append(view)
    for event_groups in groups.values():
        event_groups.sort(key=lambda g: (stage_order.get(g.stage, 9), group_name_key(g.name)))

    lines: dict[int, list] = defaultdict(list)
    for row in lines_q.order_by("match_id", "position").values_list("match_id", *LINE_FIELDS):
        lines[row[0]].append(engine_entry(*row[1:]))
    papers = {row[0]: row[1:] for row in papers_q.values_list("match_id", *PAPER_FIELDS)}

    match_rows = list(matches_q.values_list(
        "pk", "event_id", "stage", "group_id", "round", "table", "pair_a_id", "pair_b_id", "deals_planned",
        "status", "tier", "placement_round", "slot", "version", "confirmed_at", "accepted_a_at", "accepted_b_at",
        "link_closed", "corrected_at", "finished_at", "referee",
    ))
    # Substitutes sit only at the team competition's tables: one more query, and only where there are some.
    substitutes: dict[int, dict[int, PlayerView]] = defaultdict(dict)
    if any(row[2] == Stage.TEAM for row in match_rows):
        for match_id, player_id, sub_id, first, last in MatchSubstitute.objects.filter(
            match__event_id__in=ids
        ).values_list("match_id", "player_id", "substitute_id", "substitute__first_name", "substitute__last_name"):
            substitutes[match_id][player_id] = PlayerView(sub_id, first, last, substitute=True)
    matches: dict[int, list[MatchView]] = defaultdict(list)
    for (pk, event_id, stage, group_id, rnd, table, a, b, deals, status, tier, p_round, slot, version, confirmed,
         accepted_a, accepted_b, closed, corrected, finished_at, referee) in match_rows:
        result = fold_outcome(status, deals, (a, b), lines.get(pk, ()), papers.get(pk))
        pair_a, pair_b = all_pairs[a], all_pairs[b]
        if pk in substitutes:
            pair_a, pair_b = pair_a.with_substitutes(substitutes[pk]), pair_b.with_substitutes(substitutes[pk])
        matches[event_id].append(
            MatchView(
                pk, stage, group_by_id.get(group_id), rnd, table, pair_a, pair_b, deals, status, tier,
                p_round, slot, version, confirmed, result, (accepted_a is not None, accepted_b is not None), closed,
                corrected, finished_at, referee,
            )
        )

    playoffs: dict[int, list[list[int]]] = defaultdict(list)
    for group_id, order in Playoff.objects.filter(group__event_id__in=ids).order_by("recorded_at", "pk").values_list(
        "group_id", "order"
    ):
        playoffs[group_id].append(order)
    swaps: dict[int, list] = defaultdict(list)
    for event_id, x, y in DrawSwap.objects.filter(event_id__in=ids).order_by("swapped_at", "pk").values_list(
        "event_id", "pair_x_id", "pair_y_id"
    ):
        swaps[event_id].append(SwapView(all_pairs[x], all_pairs[y]))

    published: dict[int, list[PublicationView]] = defaultdict(list)
    for event_id, kind, at, reason, digest in Publication.objects.filter(event_id__in=ids).order_by("at", "pk").values_list(
        "event_id", "kind", "at", "reason", "digest"
    ):
        published[event_id].append(PublicationView(kind, at, reason, digest))

    # The facts were read in several statements: if a change committed in between, a snapshot may mix
    # two versions, so it is served once but not kept (the next request builds it again).
    now = dict(Event.objects.filter(pk__in=ids).values_list("pk", "results_version"))
    out = {}
    for event_id, ev in events.items():
        event_matches = sorted(matches[event_id], key=lambda m: (stage_order.get(m.stage, 9), m.round, m.table))
        out[event_id] = _assemble(
            ev, pairs[event_id], groups[event_id], event_matches, playoffs, tuple(swaps[event_id]), stages,
            publications=tuple(published[event_id]),
            cacheable=stages is None and now.get(event_id) == ev.results_version,
        )
    return out


def _assemble(ev, pairs, groups, matches, playoffs, swaps, stages, *, publications, cacheable: bool) -> EventSnapshot:
    """One event's snapshot from its loaded rows: the group tables, the placements, the final places."""
    primary = settings.TUPPI_STANDINGS_FIRST
    by_group: dict[int, list[MatchView]] = defaultdict(list)
    for m in matches:
        if m.group is not None:
            by_group[m.group.pk].append(m)
    tables: dict[str, list[GroupTable]] = {Stage.SATURDAY: [], Stage.SUNDAY: []}
    for g in groups:
        if g.stage in tables:
            tables[g.stage].append(group_table(g, g.pairs, by_group[g.pk], playoffs[g.pk], primary=primary))
    placements = tuple(
        sorted(
            (m for m in matches if m.stage == Stage.PLACEMENT),
            key=lambda m: (m.tier, sunday_core.ROUNDS.index(m.placement_round), m.slot),
        )
    )
    top = _top_places(placements)
    club = ev.organising_club
    info = EventInfo(
        pk=ev.pk, slug=ev.slug, name=ev.name, season_id=ev.season_id, starts_on=ev.starts_on,
        ends_on=ev.ends_on, venue=ev.venue, kind=ev.kind, format=ev.format,
        organising_club=None if club is None else ClubView(club.pk, club.name, club.short_name),
        draw_seed=ev.draw_seed, drawn_at=ev.drawn_at,
        drawn_by="" if ev.drawn_by is None else (ev.drawn_by.get_full_name() or ev.drawn_by.username),
        finished_at=ev.finished_at, created_at=ev.created_at, require_acceptance=ev.require_acceptance,
        draw_time=ev.draw_time, play_time=ev.play_time, sunday_play_time=ev.sunday_play_time,
        minutes_per_deal=ev.minutes_per_deal, judges=tuple(ev.judges or ()),
    )
    return EventSnapshot(
        event=info,
        version=ev.results_version,
        pairs=pairs,
        groups=tuple(groups),
        matches=tuple(matches),
        tables={stage: tuple(t) for stage, t in tables.items()},
        placements=placements,
        swaps=swaps,
        final_places=None if stages is not None else _final_places(ev.format, tuple(tables[Stage.SATURDAY]), top),
        top_places=top,
        publications=publications,
        playoffs={g.pk: tuple(tuple(o) for o in playoffs[g.pk]) for g in groups if playoffs[g.pk]},
        structure=_structure_digest(info, pairs, groups, swaps),
        cacheable=cacheable,
        timetable=day_clock.event_timetable(info, matches),
    )


def _structure_digest(info: EventInfo, pairs: dict, groups, swaps) -> str:
    """What every page of the event shows besides results, as a digest the same in every process."""
    text = repr((
        astuple_info(info),
        [(p.pk, p.number, p.club.name, p.club.short_name, [(x.first_name, x.last_name) for x in p.players],
          p.withdrawn_at is not None) for p in pairs.values()],
        [(g.pk, g.stage, g.name, g.deals_planned, [p.pk for p in g.pairs]) for g in groups],
        [(s.pair_x.pk, s.pair_y.pk) for s in swaps],
    ))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def astuple_info(info: EventInfo) -> tuple:
    return tuple(getattr(info, f.name) for f in fields(info))


def _core(placements) -> list[sunday_core.PlacementMatch]:
    return [
        sunday_core.PlacementMatch(
            m.tier, m.placement_round, m.slot, m.pair_a.pk, m.pair_b.pk,
            m.outcome.winner if m.outcome.finished else None,
        )
        for m in placements
    ]


def _top_places(placements) -> dict[int, int]:
    try:
        return sunday_core.placement_places(_core(placements))
    except ScoringError:
        return {}


def _final_places(fmt: str, saturday, top: dict[int, int]) -> tuple[tuple[int, int], ...] | None:
    """(place, pair id) for every pair, or None until every place is known (RULES.md §5, §4 small events)."""
    if not saturday or not all(t.finished for t in saturday):
        return None
    rows = [[(r.pair.pk, r.standing.rank, r.standing.match_points, r.standing.totals) for r in t.rows] for t in saturday]
    try:
        if fmt == Event.Format.ONE_STAGE:
            return tuple(sunday_core.one_stage_places(rows))
        if len(top) < sunday_core.TOP_PLACES:
            return None
        return tuple(sunday_core.final_places(top, [row for group in rows for row in group]))
    except ScoringError:
        return None  # places that cannot be settled from the stored results are not complete


def placement_core(placements) -> list[sunday_core.PlacementMatch]:
    """The placement matches as the Sunday core takes them (for the services that extend the bracket)."""
    return _core(placements)


# --- serving ----------------------------------------------------------------------------------------


def rules_key() -> str:
    """The rules switches a snapshot was computed under (fixed at start-up, but a key never lies)."""
    return f"{settings.TUPPI_OVERWHELMING_RULE}.{settings.TUPPI_STANDINGS_FIRST}"


def key(event_id: int, created_at: dt.datetime, version: int) -> str:
    """The cache key of a snapshot: the event (its id and creation time, so that a new event that reuses
    a deleted one's id never meets its entries), its results version and the rules switches."""
    return f"snap:{event_id}.{created_at.timestamp():.6f}:{version}:{rules_key()}"


def current(event) -> tuple[int, dt.datetime, int]:
    """(id, creation time, results version) of ``event`` as the database has them now: an ``EventHead``
    was read just now; any other object (an Event loaded earlier) costs one light query."""
    if getattr(event, "fresh", False):
        return event.pk, event.created_at, event.results_version
    created_at, version = Event.objects.filter(pk=event.pk).values_list("created_at", "results_version").get()
    return event.pk, created_at, version


def snapshot(event) -> EventSnapshot:
    """The event's snapshot at its current version, from the caches or built once.

    ``event`` is an Event or a ``tournaments.live.EventHead``. Inside a transaction the snapshot is built
    afresh from what the transaction sees and kept nowhere."""
    if caching.in_transaction():
        return build(event.pk)
    pk, created_at, version = current(event)

    def compute() -> EventSnapshot:
        built = build(pk)
        if built.version != version:  # changed since the version was read: serve it, do not keep it
            object.__setattr__(built, "cacheable", False)
        return built

    previous = _latest.get(pk)
    if previous is not None and (previous.event.created_at != created_at or previous.version > version):
        previous = None
    found = caching.versioned(key(pk, created_at, version), compute, fallback=previous)
    if found.cacheable and (previous is None or found.version >= previous.version):
        _latest[pk] = found
    return found


# The newest snapshot this process has of each event: served, instead of waiting, while another process
# computes the snapshot of a version just made (a few tens of milliseconds later it is there).
_latest: dict[int, EventSnapshot] = {}
caching.on_clear(_latest.clear)


def snapshots(events) -> dict[int, EventSnapshot]:
    """The snapshots of several events (each with ``pk``, ``created_at``, ``results_version`` read just
    now): the cached ones from the caches, the others built together in one batch and cached."""
    events = list(events)
    if caching.in_transaction():
        return build_many([e.pk for e in events])
    keys = {e.pk: key(e.pk, e.created_at, e.results_version) for e in events}
    found = caching.get_many(list(keys.values()))
    out = {pk: found[k] for pk, k in keys.items() if k in found}
    missing = [e for e in events if e.pk not in out]
    if missing:
        built = build_many([e.pk for e in missing])
        for e in missing:
            snap = built[e.pk]
            if snap.version != e.results_version:
                object.__setattr__(snap, "cacheable", False)
            caching.put(keys[e.pk], snap)
            out[e.pk] = snap
    return out
