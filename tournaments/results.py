"""The read side of results: load a match's stored entries, fold them through the rules engine, rank groups.

Nothing here is stored: every figure (points, rises, totals, winner, match points, standings) is
computed by ``scoring`` from the facts in the database, in a fixed number of queries per page.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring import match as engine
from scoring import standings as standings_core
from scoring.deal import ByPair, Game, Pair
from scoring.errors import ScoringError
from tournaments.models import Entry, Match, PaperResult, Playoff


@dataclass(frozen=True)
class Outcome:
    """A match's result as the pages need it; totals and match points per pair id."""

    status: str  # scheduled, playing, finished, annulled
    finished: bool = False
    winner: int | None = None
    tuppi: bool = False
    totals: tuple[int, int] = (0, 0)
    match_points: tuple[int, int] | None = None
    deals_played: int = 0
    up: str | None = None
    rise: int = 0
    paper: bool = False
    error: ScoringError | None = None


def to_engine(row: Entry) -> engine.Entry:
    """A stored scoresheet line as the engine's entry."""
    if row.kind == Entry.Kind.DEAL:
        caller = engine.pair_of_seat(row.caller_seat) if row.caller_seat else None
        return engine.Deal(Game(row.game), ByPair(row.tricks_a, row.tricks_b), caller, row.penalised)
    if row.kind == Entry.Kind.POINTS:
        return engine.PointsPenalty(Pair(row.pair), row.points or engine.PENALTY_POINTS)
    if row.kind == Entry.Kind.TUPPI:
        return engine.TuppiPenalty(Pair(row.pair))
    return engine.Forfeit(Pair(row.pair))


def fold_rows(match: Match, rows: Sequence[Entry]) -> engine.MatchState:
    return engine.fold([to_engine(r) for r in rows], match.deals_planned)


def outcome(match: Match, rows: Sequence[Entry], paper: PaperResult | None) -> Outcome:
    if match.status == Match.Status.ANNULLED:
        return Outcome(status="annulled")
    if paper is not None:
        try:
            result = engine.paper_result(
                paper.total_a, paper.total_b, match.deals_planned, paper.deals_played,
                tuppi=paper.tuppi or None, deciding_winner=paper.deciding_winner or None,
            )
        except ScoringError as exc:
            return Outcome(status="playing", error=exc, paper=True)
        winner = match.pair_a_id if result.winner == Pair.A else match.pair_b_id
        return Outcome(
            status="finished", finished=True, winner=winner, tuppi=result.tuppi,
            totals=(paper.total_a, paper.total_b), match_points=(result.match_points.a, result.match_points.b),
            deals_played=paper.deals_played, paper=True,
        )
    if not rows:
        return Outcome(status="scheduled")
    try:
        state = fold_rows(match, rows)
    except ScoringError as exc:  # stored lines are validated before saving; this is a safety net
        return Outcome(status="playing", error=exc)
    winner = None
    if state.winner is not None:
        winner = match.pair_a_id if state.winner == Pair.A else match.pair_b_id
    return Outcome(
        status="finished" if state.finished else "playing",
        finished=state.finished,
        winner=winner,
        tuppi=state.tuppi,
        totals=(state.totals.a, state.totals.b),
        match_points=None if state.match_points is None else (state.match_points.a, state.match_points.b),
        deals_played=state.deals_played,
        up=None if state.up is None else str(state.up),
        rise=state.rise,
    )


def load_outcomes(matches: Iterable[Match]) -> dict[int, Outcome]:
    """Outcomes of many matches in two queries (entries and paper results), whatever their number."""
    matches = list(matches)
    ids = [m.pk for m in matches]
    rows: dict[int, list[Entry]] = defaultdict(list)
    for row in Entry.objects.filter(match_id__in=ids).order_by("match_id", "position"):
        rows[row.match_id].append(row)
    papers = {p.match_id: p for p in PaperResult.objects.filter(match_id__in=ids)}
    return {m.pk: outcome(m, rows.get(m.pk, []), papers.get(m.pk)) for m in matches}


def standings(
    pair_ids: Sequence[int], matches: Iterable[Match], outcomes: dict[int, Outcome], playoffs: Iterable[Playoff] = ()
) -> tuple[standings_core.Standing, ...]:
    """A group's order by RULES.md §4, from its finished, non-annulled matches; withdrawn pairs are left out
    by the caller (their matches are annulled)."""
    results = []
    for m in matches:
        o = outcomes[m.pk]
        if not o.finished or o.match_points is None:
            continue
        a, b = m.pair_a_id, m.pair_b_id
        results.append(
            standings_core.MatchResult(
                a, b, o.winner, {a: o.match_points[0], b: o.match_points[1]}, {a: o.totals[0], b: o.totals[1]}
            )
        )
    recorded = [standings_core.Playoff(tuple(p.order), tuple(p.order)) for p in playoffs]
    try:
        return standings_core.rank_group(list(pair_ids), results, recorded)
    except ScoringError as exc:
        if exc.code not in ("playoff_not_needed", "bad_playoff", "duplicate_playoff"):
            raise
    # A result was corrected after a play-off was recorded, and some play-off no longer fits a tie: keep
    # the ones that still do (the page then asks for the missing play-off again).
    fitting = []
    for playoff in recorded:
        try:
            standings_core.rank_group(list(pair_ids), results, [*fitting, playoff])
        except ScoringError:
            continue
        fitting.append(playoff)
    return standings_core.rank_group(list(pair_ids), results, fitting)


# --- group tables for pages and the API -------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    standing: standings_core.Standing
    pair: object  # tournaments.models.Pair


@dataclass(frozen=True)
class GroupTable:
    group: object  # tournaments.models.Group
    rows: tuple[Row, ...]
    withdrawn: tuple  # pairs withdrawn from the group: shown apart, counted nowhere
    matches: tuple  # the group's matches, with ``.outcome`` set
    cross: dict  # (pair id, pair id) -> standings_core.CrossCell | None

    @property
    def finished(self) -> bool:
        return all(m.outcome.finished or m.outcome.status == "annulled" for m in self.matches)

    @property
    def playoff_needed(self) -> bool:
        return any(r.standing.playoff_required for r in self.rows)

    @property
    def cross_rows(self) -> list:
        """The cross table in standings order: (pair, [(opponent, its CrossCell or None), …])."""
        pairs = [r.pair for r in self.rows]
        return [(x, [(y, self.cross.get((x.pk, y.pk)) if x != y else None) for y in pairs]) for x in pairs]

    @property
    def playoff_sets(self) -> list[tuple[Row, ...]]:
        """The rows level on one shared rank that need a play-off: one play-off (and one form) each."""
        sets: dict[int, list[Row]] = {}
        for r in self.rows:
            if r.standing.playoff_required:
                sets.setdefault(r.standing.rank, []).append(r)
        return [tuple(rows) for rows in sets.values()]


def stage_tables(event, stage: str = "saturday", *, group_id: int | None = None) -> list[GroupTable]:
    """Every group of a stage with its standings, cross table and matches, in a fixed number of queries."""
    from scoring.draw import group_name_key
    from tournaments.models import Group, GroupEntry
    from tournaments.views.common import pair_members_prefetch

    groups = Group.objects.filter(event=event, stage=stage)
    if group_id is not None:
        groups = groups.filter(pk=group_id)
    groups = sorted(groups, key=lambda g: group_name_key(g.name))
    group_ids = [g.pk for g in groups]
    entries = (
        GroupEntry.objects.filter(group_id__in=group_ids)
        .select_related("pair__club")
        .prefetch_related(pair_members_prefetch("pair__"))
        .order_by("group_id", "slot")
    )
    pairs_by_group: dict[int, list] = defaultdict(list)
    for entry in entries:
        pairs_by_group[entry.group_id].append(entry.pair)
    matches = list(Match.objects.filter(group_id__in=group_ids).order_by("round", "table"))
    outcomes = load_outcomes(matches)
    matches_by_group: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        m.outcome = outcomes[m.pk]
        matches_by_group[m.group_id].append(m)
    playoffs: dict[int, list[Playoff]] = defaultdict(list)
    for p in Playoff.objects.filter(group_id__in=group_ids):
        playoffs[p.group_id].append(p)

    tables = []
    for group in groups:
        pairs = pairs_by_group[group.pk]
        by_id = {p.pk: p for p in pairs}
        group_matches = matches_by_group[group.pk]
        for m in group_matches:
            m.pair_a, m.pair_b = by_id[m.pair_a_id], by_id[m.pair_b_id]
        counted = [m for m in group_matches if m.outcome.status != "annulled"]
        # A pair withdrawn before finishing its group has every match annulled and is not ranked; one
        # that withdrew after finishing it keeps its results (RULES.md §4), so it stays in the table.
        in_play = {pair_id for m in counted for pair_id in (m.pair_a_id, m.pair_b_id)}
        active = [p.pk for p in pairs if p.withdrawn_at is None or p.pk in in_play]
        ranked = standings(active, counted, outcomes, playoffs[group.pk])
        results = [
            standings_core.MatchResult(
                m.pair_a_id, m.pair_b_id, m.outcome.winner,
                {m.pair_a_id: m.outcome.match_points[0], m.pair_b_id: m.outcome.match_points[1]},
                {m.pair_a_id: m.outcome.totals[0], m.pair_b_id: m.outcome.totals[1]},
            )
            for m in counted
            if m.outcome.finished and m.outcome.match_points is not None
        ]
        tables.append(
            GroupTable(
                group=group,
                rows=tuple(Row(s, by_id[s.pair]) for s in ranked),
                withdrawn=tuple(p for p in pairs if p.pk not in active),
                matches=tuple(group_matches),
                cross=dict(standings_core.cross_table(active, results)),
            )
        )
    return tables


def group_table(group) -> GroupTable:
    return stage_tables(group.event, group.stage, group_id=group.pk)[0]


# --- one scoresheet, line by line -------------------------------------------------------------------


@dataclass(frozen=True)
class SheetLine:
    """What one line of the paper scoresheet shows (RULES.md §2–3)."""

    row: Entry
    deal: int | None
    label: str  # R, N, or the penalty's short name
    caller_seat: int | None
    tricks: str
    points: int | None
    winner: str
    rise_a: int | None  # pair A's rise after the line (None: not up)
    rise_b: int | None
    ended: str | None  # fall, tuppi, end
    totals: tuple[int, int]


def sheet(match: Match, rows: Sequence[Entry]) -> tuple[tuple[SheetLine, ...], engine.MatchState | None]:
    """The scoresheet's lines and the final state; a stored sheet the engine refuses gives no lines."""
    if not rows:
        return (), engine.start(match.deals_planned)
    try:
        engine_lines = engine.lines([to_engine(r) for r in rows], match.deals_planned)
    except ScoringError:
        return (), None
    labels = {Entry.Kind.POINTS: "P", Entry.Kind.TUPPI: "T", Entry.Kind.FORFEIT: "L"}
    out = []
    for row, line in zip(rows, engine_lines, strict=True):
        label = ("R" if row.game == "rami" else "N") if row.kind == Entry.Kind.DEAL else labels[row.kind]
        tricks = f"{row.tricks_a}–{row.tricks_b}" if row.kind == Entry.Kind.DEAL else ""
        up = None if line.up is None else str(line.up)
        out.append(
            SheetLine(
                row=row, deal=line.deal, label=label, caller_seat=row.caller_seat, tricks=tricks,
                points=line.points, winner=str(line.winner),
                rise_a=line.rise if up == "A" else None, rise_b=line.rise if up == "B" else None,
                ended=None if line.ended is None else str(line.ended), totals=(line.totals.a, line.totals.b),
            )
        )
    return tuple(out), engine.fold([to_engine(r) for r in rows], match.deals_planned)


def from_engine(entry: engine.Entry, match: Match, position: int, *, seat_choice: int = 0) -> Entry:
    """An engine entry as a stored scoresheet line; a rami caller's pair becomes seat 1/3 (A) or 2/4 (B)."""
    if isinstance(entry, engine.Deal):
        seat = None
        if entry.caller is not None:
            seat = (1 if entry.caller == Pair.A else 2) + 2 * (seat_choice % 2)
        return Entry(
            match=match, position=position, kind=Entry.Kind.DEAL, game=str(entry.game), caller_seat=seat,
            tricks_a=entry.tricks.a, tricks_b=entry.tricks.b, penalised=entry.penalised,
        )
    if isinstance(entry, engine.PointsPenalty):
        return Entry(match=match, position=position, kind=Entry.Kind.POINTS, pair=str(entry.to), points=entry.points)
    if isinstance(entry, engine.TuppiPenalty):
        return Entry(match=match, position=position, kind=Entry.Kind.TUPPI, pair=str(entry.to))
    return Entry(match=match, position=position, kind=Entry.Kind.FORFEIT, pair=str(entry.pair))
