"""The read side of the team competition: team matches with their pair matches' results, the bracket
rebuilt from the recorded seed and the decided winners, and the places (RULES.md §6).

Nothing here is stored. A pair match's result comes from the event's snapshot (``tournaments.readmodel.snapshot``,
where every scoresheet is folded once per change), a team match's winner follows from its pair matches
(``scoring.knockout.team_match_winner``), the bracket and the places from the seed and those winners
(``scoring.knockout``). Building a whole competition costs a fixed number of queries, whatever the number
of teams, and the pages keep it in the caches under the event's results version (every team
declaration, substitute and start bumps it).

Like the snapshot, a ``Competition`` holds plain values, no model instances: it pickles small, it carries
no secret (no leader's or match's token, no user row), and nothing in it depends on the language a page is
shown in (a round's name is translated when a page asks for it). A page that needs a secret (the
organiser's copy of a leader's link) or a model (a form) loads it from the database itself.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import SimpleNamespace

from django.db.models import Count, Prefetch
from django.utils.translation import gettext as _

from lib import caching
from scoring import knockout
from teams.models import PairMatchLink, Team, TeamMatch, TeamOrder, TeamPair, TeamRound
from tournaments.models import Event
from tournaments.readmodel import snapshot as readmodel
from tournaments.readmodel import values as readmodel_values
from tournaments.readmodel.prefetch import pair_members_prefetch
from tournaments.readmodel.values import ClubView, PairView, PlayerView


@dataclass(frozen=True, eq=False)
class PairMatch:
    """One of a team match's three pair matches: its order (1–3) and the match as the event's snapshot
    shows it (pairs, outcome)."""

    order: int
    match: readmodel_values.MatchView

    @property
    def pk(self) -> int:
        return self.match.pk

    @property
    def outcome(self):
        return self.match.outcome

    @property
    def pair_a(self):
        return self.match.pair_a

    @property
    def pair_b(self):
        return self.match.pair_b

    @property
    def pair_a_id(self) -> int:
        return self.match.pair_a.pk

    @property
    def pair_b_id(self) -> int:
        return self.match.pair_b.pk

    @property
    def table(self) -> int:
        return self.match.table

    @property
    def round(self) -> int:
        return self.match.round

    @property
    def stage(self) -> str:
        return self.match.stage


@dataclass(frozen=True, eq=False)
class TeamView:
    """A team as the pages show it: its club, leader's name, three pairs (registration order 1–3, as the
    event's snapshot shows them) and substitute. Not its secret link: that stays in the database."""

    pk: int
    name: str
    club: ClubView
    leader_name: str
    pairs: tuple[PairView, ...]
    substitute: PlayerView | None

    def __str__(self) -> str:
        return self.name

    @property
    def id(self) -> int:
        return self.pk

    @property
    def club_id(self) -> int:
        return self.club.pk

    @property
    def substitute_id(self) -> int | None:
        return self.substitute.pk if self.substitute is not None else None

    @property
    def pair_ids(self) -> tuple[int, ...]:
        return tuple(p.pk for p in self.pairs)

    @property
    def reinforcements(self) -> int:
        """How many of the team's pairs represent another club."""
        return sum(1 for p in self.pairs if p.club_id != self.club_id)

    @property
    def title_only(self) -> bool:
        """RULES.md §6: more than one pair from outside the club: the team plays for the title only and
        its club earns no right to host a cup event next season."""
        return self.reinforcements > 1


@dataclass(frozen=True)
class OrderView:
    """A team's declared order for one team match (``TeamOrder``): which pair plays as 1, 2 and 3 and,
    if the substitute plays, in whose place. The pages show it only when it may be seen (hidden orders:
    ``teams.views.common.match_context``)."""

    team_id: int
    pair_ids: tuple[int, int, int]
    declared_at: dt.datetime
    substitute: PlayerView | None = None
    substitute_for: PlayerView | None = None

    @property
    def substitute_id(self) -> int | None:
        return self.substitute.pk if self.substitute is not None else None

    @property
    def substitute_for_id(self) -> int | None:
        return self.substitute_for.pk if self.substitute_for is not None else None


@dataclass(frozen=True, eq=False)
class TeamMatchView:
    """A team match of the bracket with its results: ``pair_matches`` (in order), ``wins`` (pair wins of
    team a and b), ``winner_id`` (the team, or None while undecided; a bye's team at once), ``loser_id`` and
    ``declared`` (team id → its order). A round-1 bye has no ``team_b``."""

    pk: int
    round: int
    slot: int
    third_place: bool
    team_a: TeamView
    team_b: TeamView | None
    started_at: dt.datetime | None
    pair_matches: tuple[PairMatch, ...]
    declared: dict[int, OrderView]
    wins: tuple[int, int]
    winner_id: int | None
    loser_id: int | None

    def __str__(self) -> str:
        return f"{self.team_a_id} – {self.team_b_id} ({self.round}/{self.slot})"

    @property
    def id(self) -> int:
        return self.pk

    @property
    def team_a_id(self) -> int:
        return self.team_a.pk

    @property
    def team_b_id(self) -> int | None:
        return self.team_b.pk if self.team_b is not None else None

    @property
    def bye(self) -> bool:
        return self.team_b is None


@dataclass(frozen=True)
class TeamRoundView:
    """A round of the bracket and the day it is played (``TeamRound``)."""

    number: int
    day: dt.date


def teams_queryset(event):
    """The event's teams as models, with their club, substitute and pairs (club and players): four
    queries. For the forms and the services; the pages read ``Competition.teams``."""
    team_pairs = TeamPair.objects.select_related("pair__club").prefetch_related(
        pair_members_prefetch("pair__")
    )
    return (
        Team.objects.filter(event=event)
        .select_related("club", "substitute")
        .prefetch_related(Prefetch("team_pairs", queryset=team_pairs.order_by("number")))
        .order_by("name")
    )


def load_teams(event_id: int, snap: readmodel_values.EventSnapshot) -> dict[int, TeamView]:
    """The event's teams by name, their pairs as the snapshot shows them (two queries)."""
    pairs: dict[int, list[PairView]] = defaultdict(list)
    for team_id, pair_id in TeamPair.objects.filter(team__event_id=event_id).order_by("team_id", "number").values_list(
        "team_id", "pair_id"
    ):
        pairs[team_id].append(snap.pairs[pair_id])
    teams = {}
    for pk, name, leader, club_id, club_name, club_short, sub_id, sub_first, sub_last in (
        Team.objects.filter(event_id=event_id).order_by("name").values_list(
            "pk", "name", "leader_name", "club_id", "club__name", "club__short_name",
            "substitute_id", "substitute__first_name", "substitute__last_name",
        )
    ):
        substitute = None if sub_id is None else PlayerView(sub_id, sub_first, sub_last)
        club = ClubView(club_id, club_name, club_short)
        teams[pk] = TeamView(pk, name, club, leader, tuple(pairs.get(pk, ())), substitute)
    return teams


def _player(pk, first, last) -> PlayerView | None:
    return None if pk is None else PlayerView(pk, first, last)


def load_rows(event_id: int, snap: readmodel_values.EventSnapshot, teams: dict[int, TeamView]) -> list[TeamMatchView]:
    """Every team match of the event with its results, by round and slot (three queries)."""
    links = PairMatchLink.objects.filter(team_match__event_id=event_id).order_by("team_match_id", "order")
    by_row: dict[int, list[PairMatch]] = defaultdict(list)
    for row_id, order, match_id in links.values_list("team_match_id", "order", "match_id"):
        found = snap.match(match_id)
        if found is not None:
            by_row[row_id].append(PairMatch(order, found))
    orders: dict[int, dict[int, OrderView]] = defaultdict(dict)
    for (row_id, team_id, p1, p2, p3, at, sub, sub_first, sub_last, out, out_first, out_last) in (
        TeamOrder.objects.filter(team_match__event_id=event_id).order_by("team_match_id", "team_id").values_list(
            "team_match_id", "team_id", "pair_1_id", "pair_2_id", "pair_3_id", "declared_at",
            "substitute_id", "substitute__first_name", "substitute__last_name",
            "substitute_for_id", "substitute_for__first_name", "substitute_for__last_name",
        )
    ):
        orders[row_id][team_id] = OrderView(
            team_id, (p1, p2, p3), at, _player(sub, sub_first, sub_last), _player(out, out_first, out_last)
        )
    rows = []
    for pk, number, slot, third, a, b, started_at in (
        TeamMatch.objects.filter(event_id=event_id).order_by("round", "slot").values_list(
            "pk", "round", "slot", "third_place", "team_a_id", "team_b_id", "started_at"
        )
    ):
        pair_matches = tuple(by_row.get(pk, ()))
        wins, winner, loser = _decided(pair_matches, a, b)
        rows.append(
            TeamMatchView(
                pk, number, slot, third, teams[a], teams[b] if b is not None else None, started_at, pair_matches,
                orders.get(pk, {}), wins, winner, loser,
            )
        )
    return rows


def _decided(pair_matches, a: int, b: int | None) -> tuple[tuple[int, int], int | None, int | None]:
    """A team match's pair wins (team a, team b), its winner and its loser: a bye's team wins at once,
    else the team with two pair wins (``scoring.knockout.team_match_winner``)."""
    sides = []
    for m in pair_matches:
        winner = m.outcome.winner if m.outcome.finished else None
        sides.append(None if winner is None else ("a" if winner == m.pair_a_id else "b"))
    wins = (sides.count("a"), sides.count("b"))
    if b is None:
        return wins, a, None
    side = knockout.team_match_winner(sides)
    if side is None:
        return wins, None, None
    winner, loser = (a, b) if side == "a" else (b, a)
    return wins, winner, loser


def replay(
    team_ids,
    seed,
    rows: dict[tuple[int, int], TeamMatchView],
    winner_of: Callable[[TeamMatchView], int | None],
) -> tuple[knockout.Bracket, list[knockout.Match]]:
    """The bracket drawn from ``seed`` with every decided winner recorded, round by round, and the
    bracket matches whose teams are known (round 1 always, byes included): those must have a row.

    A stored row counts only when its teams are the ones the bracket puts in that place (a row left
    behind by a corrected result is ignored here; ``services.sync_bracket`` mends or refuses it)."""
    bracket = knockout.draw_bracket([str(t) for t in team_ids], seed)
    known: list[knockout.Match] = []
    for number in range(1, bracket.rounds + 1):
        for m in bracket.round_matches(number):
            if number == 1 or (m.a is not None and m.b is not None):
                known.append(m)
            if not m.ready:
                continue
            row = rows.get((m.round, m.slot))
            if row is None or (str(row.team_a_id), str(row.team_b_id)) != (m.a, m.b):
                continue
            winner = winner_of(row)
            if winner is not None:
                bracket = knockout.advance(bracket, m.round, m.slot, str(winner))
    return bracket, known


def round_label(number: int, rounds: int) -> str:
    """The usual Finnish name of a knockout round: the final, the semifinals, the quarterfinals, else
    the round's number."""
    from_end = rounds - number
    if from_end == 0:
        return _("Loppuottelu")
    if from_end == 1:
        return _("Välierät")
    if from_end == 2:
        return _("Puolivälierät")
    return _("%(n)s. kierros") % {"n": number}


@dataclass
class Slot:
    """One place of the bracket for the pages: its teams (None: a bye in round 1, else not known yet),
    the stored team match (once both teams are known) and the winner."""

    round: int
    slot: int
    third_place: bool
    a: TeamView | None
    b: TeamView | None
    row: TeamMatchView | None
    winner: TeamView | None

    @property
    def bye(self) -> bool:
        return self.round == 1 and (self.a is None) != (self.b is None)


@dataclass
class RoundView:
    number: int
    label: str
    day: object
    slots: list[Slot] = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class Competition:
    """A team competition at one results version: the event (``readmodel_values.EventInfo``), its teams by
    name, its rounds' days, its team matches by round and slot, the bracket (None before the draw) and
    the places decided so far (team id → place)."""

    event: readmodel_values.EventInfo
    version: int
    teams: dict[int, TeamView]
    rounds: dict[int, TeamRoundView]
    rows: tuple[TeamMatchView, ...]
    bracket: knockout.Bracket | None
    places: dict[int, int]
    cacheable: bool = field(default=True, compare=False)

    @property
    def fingerprint_identity(self) -> str:
        """The competition stands for exactly the facts of its event's version (``lib.fingerprint``): every
        team fact (entries, declarations, substitutes, starts) bumps that version."""
        return "teams:" + readmodel_values.key(self.event.pk, self.event.created_at, self.version)

    @property
    def drawn(self) -> bool:
        return self.bracket is not None

    @property
    def finished(self) -> bool:
        return self.bracket is not None and self.bracket.finished

    def row(self, round_: int, slot: int) -> TeamMatchView | None:
        return next((r for r in self.rows if r.round == round_ and r.slot == slot), None)

    def label(self, row: TeamMatchView) -> str:
        if row.third_place:
            return _("Pronssiottelu")
        return round_label(row.round, self.bracket.rounds if self.bracket else row.round)

    def day(self, round_: int) -> dt.date | None:
        found = self.rounds.get(round_)
        return found.day if found else None

    def slots(self) -> list[RoundView]:
        """The bracket by round for the pages; the match for third place is a round of its own, last."""
        if self.bracket is None:
            return []
        out: list[RoundView] = []
        third = None
        rows = {(r.round, r.slot): r for r in self.rows}
        for number in range(1, self.bracket.rounds + 1):
            view = RoundView(number, round_label(number, self.bracket.rounds), self.day(number))
            for m in self.bracket.round_matches(number):
                slot = Slot(
                    m.round,
                    m.slot,
                    m.third_place,
                    self.teams.get(int(m.a)) if m.a else None,
                    self.teams.get(int(m.b)) if m.b else None,
                    rows.get((m.round, m.slot)),
                    self.teams.get(int(m.winner)) if m.winner else None,
                )
                if m.third_place:
                    third = slot
                else:
                    view.slots.append(slot)
            out.append(view)
        if third is not None:
            view = RoundView(self.bracket.rounds, _("Pronssiottelu"), self.day(self.bracket.rounds), [third])
            out.append(view)
        return out

    def ranking(self) -> list[tuple[int, TeamView]]:
        """(place, team) as far as decided: 1–4 from the final and the match for third place, then by the
        round reached (shared places), each place's teams by name."""
        return sorted(
            ((place, self.teams[t]) for t, place in self.places.items()), key=lambda x: (x[0], x[1].name)
        )

    @property
    def host(self) -> TeamView | None:
        """The winner, next season's host of the team competition (RULES.md §6)."""
        if self.bracket is None or self.bracket.final.winner is None:
            return None
        return self.teams[int(self.bracket.final.winner)]

    @property
    def any_title_only(self) -> bool:
        return any(t.title_only for t in self.teams.values())

    @property
    def eligible_clubs(self) -> list[ClubView]:
        """Clubs that took part with a team not marked "title only": eligible to host a cup event next
        season (RULES.md §6)."""
        clubs = {t.club_id: t.club for t in self.teams.values() if not t.title_only}
        return sorted(clubs.values(), key=lambda c: c.name)

    # A team below is a ``TeamView`` or anything with its ``pk`` (the leader's link has the model).

    def team_rows(self, team) -> list[TeamMatchView]:
        return [r for r in self.rows if team.pk in (r.team_a_id, r.team_b_id)]

    def current_row(self, team) -> TeamMatchView | None:
        """The team's match still to be decided (at most one at a time), or None."""
        return next((r for r in self.team_rows(team) if not r.bye and r.winner_id is None), None)

    def out(self, team) -> bool:
        """The team has played its last match: lost before the semifinals, lost the final or the match for
        third place, a semifinal loser without a match for third place, or won the final."""
        if self.bracket is None:
            return False
        me, rounds, third = str(team.pk), self.bracket.rounds, self.bracket.third_place
        for m in self.bracket.matches:
            if m.winner is None or m.bye or me not in (m.a, m.b):
                continue
            if m.third_place or m.round == rounds:
                return True
            if m.loser == me and not (m.round == rounds - 1 and third is not None):
                return True
        return False

    def next_round(self, team) -> int | None:
        """The round of the team's next match: its current match's, or the one after its last win."""
        current = self.current_row(team)
        if current is not None:
            return current.round
        if self.bracket is None:
            return 1
        if self.out(team):
            return None
        won = [r.round for r in self.team_rows(team) if r.winner_id == team.pk]
        return (max(won) + 1) if won else 1

    def eliminated_on(self, team) -> dt.date | None:
        """The day of the team's last match once it is out, else None."""
        if not self.out(team):
            return None
        played = [r for r in self.team_rows(team) if not r.bye and r.winner_id is not None]
        return self.day(max(played, key=lambda r: (r.round, r.third_place)).round) if played else None


def load(event) -> Competition:
    """The whole competition for a page or the API, kept in the caches by the event's results version.
    ``event`` is an Event or an ``EventHead`` (whose version was read just now). Inside a transaction (a
    service) it is built afresh from what the transaction sees and kept nowhere."""
    if caching.in_transaction():
        return build(event)
    pk, created_at, version = readmodel.current(event)
    head = SimpleNamespace(pk=pk, created_at=created_at, results_version=version, fresh=True)

    def compute() -> Competition:
        comp = build(head)
        # a snapshot of another version (another process is computing this one), or a change committed
        # while the teams were read: serve it, do not keep it under this version's key
        now = Event.objects.filter(pk=pk).values_list("results_version", flat=True).first()
        if comp.version != version or now != version or not comp.cacheable:
            comp = replace(comp, cacheable=False)
        return comp

    return caching.versioned(f"teams:{readmodel_values.key(pk, created_at, version)}", compute)


def build(event) -> Competition:
    """The competition from the event's snapshot and the team facts, in a fixed number of queries (six
    besides the snapshot's), whatever the number of teams. Not cached: see :func:`load`."""
    snap = readmodel.snapshot(event)
    info = snap.event
    teams = load_teams(info.pk, snap)
    rounds = {
        n: TeamRoundView(n, day)
        for n, day in TeamRound.objects.filter(event_id=info.pk).order_by("number").values_list("number", "day")
    }
    rows = load_rows(info.pk, snap, teams)
    bracket = None
    places: dict[int, int] = {}
    if info.draw_seed is not None and len(teams) >= 2:
        bracket, _known = replay(
            sorted(teams), info.draw_seed, {(r.round, r.slot): r for r in rows}, lambda r: r.winner_id
        )
        places = {int(t): place for t, place in knockout.bracket_places(bracket).items()}
    return Competition(info, snap.version, teams, rounds, tuple(rows), bracket, places, cacheable=snap.cacheable)


def pair_match_labels(matches) -> dict[int, str]:
    """What each of a team match's pair matches is called on its scoresheet and pages (two queries):
    its round by name and its order, "Loppuottelu · pari 1", not the bracket round's number."""
    links = list(
        PairMatchLink.objects.filter(match__in=[m.pk for m in matches]).select_related("team_match")
    )
    events = {link.team_match.event_id for link in links}
    rounds = dict(
        TeamRound.objects.filter(event__in=events).values("event").annotate(n=Count("pk")).values_list("event", "n")
    )
    out = {}
    for link in links:
        row = link.team_match
        name = _("Pronssiottelu") if row.third_place else round_label(row.round, rounds.get(row.event_id, row.round))
        out[link.match_id] = _("%(round)s · pari %(k)s") % {"round": name, "k": link.order}
    return out
