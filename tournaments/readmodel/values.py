"""The values an event's snapshot holds (``tournaments.readmodel.snapshot``): plain frozen dataclasses, no
model instances, so a snapshot pickles small, carries no secret and depends on no language."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import (
    STATUS_LABELS,
    Event,
    Match,
    Ruling,
    Stage,
    event_status,
)
from tournaments.readmodel import timetable as day_clock
from tournaments.readmodel.results import (
    GroupTable,
    Outcome,
)


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
    excluded: str = ""  # the judges' council excluded a player of the pair: its reason (issue #29)

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


@dataclass(frozen=True, slots=True)
class AppealView:
    """A pair's appeal to the judges' council (``Appeal``, issue #29): open, rejected or upheld."""

    pk: int
    side: str
    status: str  # open, rejected, upheld
    filed_at: dt.datetime
    ruled_at: dt.datetime | None

    @property
    def open(self) -> bool:
        return self.status == "open"


@dataclass(frozen=True, slots=True)
class RulingView:
    """The council's ruling on a match (``Ruling``): its decision, effect and reasons, public and final."""

    pk: int
    appeal_id: int | None
    decision: str  # rejected, upheld, decided
    effect: str
    reasons: str
    ruled_at: dt.datetime

    @property
    def summary(self) -> str:
        """A short summary in the active language: the decision, its effect, the reasons."""
        decision, effect = Ruling.Decision(self.decision).label, Ruling.Effect(self.effect).label
        return _("%(decision)s: %(effect)s. %(reasons)s") % {
            "decision": decision, "effect": effect, "reasons": self.reasons,
        }


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
    # The judges' council (issue #29): the match's appeals (filed first first) and rulings (in order).
    appeals: tuple[AppealView, ...] = ()
    rulings: tuple[RulingView, ...] = ()

    @property
    def appeal(self) -> AppealView | None:
        """The appeal the pages show: an open one, else the latest."""
        return next((a for a in self.appeals if a.open), self.appeals[-1] if self.appeals else None)

    @property
    def under_appeal(self) -> bool:
        """An appeal awaits the council: the result shows "valitus käsittelyssä" and cannot be confirmed."""
        return any(a.open for a in self.appeals)

    def ruling_of(self, appeal: AppealView | None) -> RulingView | None:
        if appeal is None:
            return None
        return next((r for r in self.rulings if r.appeal_id == appeal.pk), None)

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


@dataclass(frozen=True, slots=True)
class LineRow:
    """A stored scoresheet line as the public match page shows it (``Entry``'s ``LINE_FIELDS``)."""

    kind: str
    game: str
    caller_seat: int | None
    tricks_a: int | None
    tricks_b: int | None
    penalised: bool
    pair: str
    points: int | None


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
    # Each round's planned and estimated start, days in order (``tournaments.readmodel.timetable``, issue #19).
    timetable: tuple[day_clock.RoundTimeView, ...] = ()
    lines: dict[int, tuple[tuple, ...]] = field(default_factory=dict)  # match id → its lines' LINE_FIELDS

    @property
    def fingerprint_identity(self) -> str:
        """The snapshot stands for exactly the facts of its version (``lib.fingerprint``)."""
        return key(self.event.pk, self.event.created_at, self.version)

    def sheet_rows(self, match_id: int) -> tuple[LineRow, ...]:
        """A match's stored lines in order, as the scoresheet shows them."""
        return tuple(LineRow(*row) for row in self.lines.get(match_id, ()))

    def fingerprint(self, *parts) -> str:
        """A short digest naming exactly what a page shows: the structure and the given parts (matches,
        as their id, version and status; anything else as it is). Pages whose parts did not change keep
        their fingerprint while other parts of the event change: their ETag and cached part stay valid."""
        flat = [self.structure]
        for part in parts:
            if isinstance(part, list | tuple) and part and isinstance(part[0], MatchView):
                flat.append(tuple((m.pk, m.version, m.status, m.appeals, m.rulings) for m in part))
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


def rules_key() -> str:
    """The rules switches a snapshot was computed under (fixed at start-up, but a key never lies)."""
    return f"{settings.TUPPI_OVERWHELMING_RULE}.{settings.TUPPI_STANDINGS_FIRST}"


def key(event_id: int, created_at: dt.datetime, version: int) -> str:
    """The cache key of a snapshot: the event (its id and creation time, so that a new event that reuses
    a deleted one's id never meets its entries), its results version and the rules switches."""
    return f"snap:{event_id}.{created_at.timestamp():.6f}:{version}:{rules_key()}"
