"""The read side of the team competition: team matches with their pair matches' results, the bracket
rebuilt from the recorded seed and the decided winners, and the places (RULES.md §6).

Nothing here is stored. A pair match's result comes from the event's snapshot (``tournaments.readmodel``,
where every scoresheet is folded once per change), a team match's winner follows from its pair matches
(``scoring.knockout.team_match_winner``), the bracket and the places from the seed and those winners
(``scoring.knockout``). Loading a whole competition costs a fixed number of queries, whatever the number
of teams, and the public pages keep it in the caches under the event's results version (every team
declaration, substitute and start bumps it).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Count, Prefetch
from django.utils.translation import gettext as _

from scoring import knockout
from teams.models import PairMatchLink, Team, TeamMatch, TeamMatchChange, TeamOrder, TeamPair, TeamRound
from tournaments import caching, readmodel
from tournaments.models import Event
from tournaments.prefetch import pair_members_prefetch


@dataclass(frozen=True, eq=False)
class PairMatch:
    """One of a team match's three pair matches: its order (1–3) and the match as the event's snapshot
    shows it (pairs, outcome)."""

    order: int
    match: readmodel.MatchView

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


def teams_queryset(event):
    """The event's teams with their club, substitute and pairs (club and players): four queries."""
    team_pairs = TeamPair.objects.select_related("pair__club").prefetch_related(
        pair_members_prefetch("pair__")
    )
    return (
        Team.objects.filter(event=event)
        .select_related("club", "substitute")
        .prefetch_related(Prefetch("team_pairs", queryset=team_pairs.order_by("number")))
        .order_by("name")
    )


def load_rows(event, teams: dict[int, Team] | None = None) -> list[TeamMatch]:
    """Every team match of the event with its results: ``pair_matches`` (``PairMatch``, in order),
    ``wins`` (pair wins of team a and b), ``winner_id`` (the team, or None while undecided; a bye's team
    at once) and ``declared`` (team id → TeamOrder)."""
    snap = readmodel.snapshot(event)
    rows = list(TeamMatch.objects.filter(event=event).order_by("round", "slot"))
    links = PairMatchLink.objects.filter(team_match__event=event).order_by("team_match_id", "order")
    by_row: dict[int, list[PairMatch]] = defaultdict(list)
    for row_id, order, match_id in links.values_list("team_match_id", "order", "match_id"):
        found = snap.match(match_id)
        if found is not None:
            by_row[row_id].append(PairMatch(order, found))
    orders: dict[int, dict[int, TeamOrder]] = defaultdict(dict)
    for order in TeamOrder.objects.filter(team_match__event=event).select_related(
        "substitute", "substitute_for"
    ):
        orders[order.team_match_id][order.team_id] = order
    for row in rows:
        if teams is not None:
            row.team_a = teams[row.team_a_id]
            row.team_b = teams.get(row.team_b_id) if row.team_b_id else None
        row.pair_matches = by_row.get(row.pk, [])
        row.declared = orders.get(row.pk, {})
        sides = []
        for m in row.pair_matches:
            winner = m.outcome.winner if m.outcome.finished else None
            sides.append(None if winner is None else ("a" if winner == m.pair_a_id else "b"))
        row.wins = (sides.count("a"), sides.count("b"))
        if row.bye:
            row.winner_id = row.team_a_id
        else:
            side = knockout.team_match_winner(sides)
            row.winner_id = None if side is None else (row.team_a_id if side == "a" else row.team_b_id)
        row.loser_id = None
        if row.winner_id is not None and not row.bye:
            row.loser_id = row.team_b_id if row.winner_id == row.team_a_id else row.team_a_id
    return rows


def replay(
    team_ids, seed, rows: dict[tuple[int, int], TeamMatch], winner_of: Callable[[TeamMatch], int | None]
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
    a: Team | None
    b: Team | None
    row: TeamMatch | None
    winner: Team | None

    @property
    def bye(self) -> bool:
        return self.round == 1 and (self.a is None) != (self.b is None)


@dataclass
class RoundView:
    number: int
    label: str
    day: object
    slots: list[Slot] = field(default_factory=list)


@dataclass
class Competition:
    event: object
    teams: dict[int, Team]
    rounds: dict[int, TeamRound]
    rows: list[TeamMatch]
    bracket: knockout.Bracket | None
    places: dict[int, int]

    @property
    def drawn(self) -> bool:
        return self.bracket is not None

    @property
    def finished(self) -> bool:
        return self.bracket is not None and self.bracket.finished

    def row(self, round_: int, slot: int) -> TeamMatch | None:
        return next((r for r in self.rows if r.round == round_ and r.slot == slot), None)

    def label(self, row: TeamMatch) -> str:
        if row.third_place:
            return _("Pronssiottelu")
        return round_label(row.round, self.bracket.rounds if self.bracket else row.round)

    def day(self, round_: int):
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

    def ranking(self) -> list[tuple[int, Team]]:
        """(place, team) as far as decided: 1–4 from the final and the match for third place, then by the
        round reached (shared places), each place's teams by name."""
        return sorted(
            ((place, self.teams[t]) for t, place in self.places.items()), key=lambda x: (x[0], x[1].name)
        )

    @property
    def host(self) -> Team | None:
        """The winner, next season's host of the team competition (RULES.md §6)."""
        if self.bracket is None or self.bracket.final.winner is None:
            return None
        return self.teams[int(self.bracket.final.winner)]

    @property
    def any_title_only(self) -> bool:
        return any(t.title_only for t in self.teams.values())

    @property
    def eligible_clubs(self) -> list:
        """Clubs that took part with a team not marked "title only": eligible to host a cup event next
        season (RULES.md §6)."""
        clubs = {t.club_id: t.club for t in self.teams.values() if not t.title_only}
        return sorted(clubs.values(), key=lambda c: c.name)

    def team_rows(self, team: Team) -> list[TeamMatch]:
        return [r for r in self.rows if team.pk in (r.team_a_id, r.team_b_id)]

    def current_row(self, team: Team) -> TeamMatch | None:
        """The team's match still to be decided (at most one at a time), or None."""
        return next((r for r in self.team_rows(team) if not r.bye and r.winner_id is None), None)

    def out(self, team: Team) -> bool:
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

    def next_round(self, team: Team) -> int | None:
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

    def eliminated_on(self, team: Team):
        """The day of the team's last match once it is out, else None."""
        if not self.out(team):
            return None
        played = [r for r in self.team_rows(team) if not r.bye and r.winner_id is not None]
        return self.day(max(played, key=lambda r: (r.round, r.third_place)).round) if played else None


def load(event) -> Competition:
    """The whole competition for a page, the API or a service, in a fixed number of queries; kept in the
    caches by the event's results version (a service, inside its transaction, always loads it afresh)."""
    if caching.in_transaction():
        return _load(event)
    return caching.versioned(f"teams:{readmodel.key(*readmodel.current(event))}", lambda: _load(event))


def _load(event) -> Competition:
    event = Event.objects.select_related("organising_club", "season").get(pk=event.pk)  # no user row kept
    teams = {t.pk: t for t in teams_queryset(event)}
    rounds = {r.number: r for r in TeamRound.objects.filter(event=event)}
    rows = load_rows(event, teams)
    bracket = None
    places: dict[int, int] = {}
    if event.draw_seed is not None and len(teams) >= 2:
        bracket, _known = replay(
            sorted(teams), event.draw_seed, {(r.round, r.slot): r for r in rows}, lambda r: r.winner_id
        )
        places = {int(t): place for t, place in knockout.bracket_places(bracket).items()}
    return Competition(event, teams, rounds, rows, bracket, places)


@dataclass(frozen=True)
class HistoryLine:
    """One line of a team match's history for the organiser: when, what, by whom (a user or a leader's
    link), the team, and what was declared or reopened when it may be shown (``orders``: (team name,
    detail) pairs; empty while it is hidden)."""

    at: object
    action: str
    label: str
    by: str
    via_link: bool
    team: str
    orders: tuple = ()


def history(row: TeamMatch) -> list[HistoryLine]:
    """A team match's history, oldest first (two queries). Hidden orders stay hidden here too: what a team
    declared shows once both orders were visible, at a reopening of both or now that both are in."""
    changes = list(TeamMatchChange.objects.filter(team_match=row).select_related("by", "team"))
    names = dict(Team.objects.filter(pk__in=[row.team_a_id, row.team_b_id]).values_list("pk", "name"))
    locked = row.started_at is not None or TeamOrder.objects.filter(team_match=row).count() == 2
    visible: set[int] = set()
    pending: list[int] = []
    for change in changes:
        if change.action == TeamMatchChange.Action.DECLARED:
            pending.append(change.pk)
        elif change.action == TeamMatchChange.Action.REOPENED:
            if change.detail.get("both"):
                visible.update(pending)
                visible.add(change.pk)
            pending = []
    if locked:
        visible.update(pending)
    lines = []
    for change in changes:
        orders = ()
        if change.pk in visible:
            orders = tuple(
                (names.get(int(team_id), "?"), detail) for team_id, detail in change.detail.get("orders", {}).items()
            )
        lines.append(
            HistoryLine(
                at=change.at,
                action=change.action,
                label=change.get_action_display(),
                by=change.by.get_username() if change.by else "",
                via_link=change.via_link,
                team=change.team.name if change.team else "",
                orders=orders,
            )
        )
    return lines


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
