"""The read side of results as pure functions over loaded rows: a match's stored lines folded through the
rules engine, a scoresheet line by line, and the ranking of groups.

Nothing here touches the database. ``tournaments.readmodel.snapshot`` loads an event's facts in a fixed number of
queries and calls these functions once per change of the facts; the pages, the API, the PDFs, the
workbooks, the cup and the team competition read what it derived. Every figure (points, rises, totals,
winner, match points, standings) comes from ``scoring``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from django.conf import settings
from django.utils.translation import gettext_lazy

from scoring import match as engine
from scoring import plausibility
from scoring import standings as standings_core
from scoring.deal import ByPair, Game, Pair
from scoring.errors import ScoringError
from tournaments.models import Entry, Match, PaperResult


@dataclass(frozen=True, slots=True)
class Outcome:
    """A match's result as the pages need it; totals and match points as (pair A, pair B).

    ``error`` is the engine's error code when stored lines no longer fold (a safety net: lines are
    validated before they are saved)."""

    status: str  # scheduled, playing, finished, annulled
    finished: bool = False
    winner: int | None = None  # the winning pair's id
    tuppi: bool = False
    totals: tuple[int, int] = (0, 0)
    match_points: tuple[int, int] | None = None
    deals_played: int = 0
    up: str | None = None
    rise: int = 0
    paper: bool = False
    forfeit: str | None = None  # "A" or "B": the pair that forfeited (RULES.md §3)
    penalty: bool = False  # ended by a tuppi penalty (signalling, RULES.md §3): shown as such, not as a tuppi won
    error: str | None = None


def overwhelming_rule() -> str:
    """The federation's reading of an overwhelming points win (``TUPPI_OVERWHELMING_RULE``, RULES.md §3),
    passed explicitly into every fold."""
    return settings.TUPPI_OVERWHELMING_RULE


ANNULLED = Outcome(status=Match.Status.ANNULLED)
SCHEDULED = Outcome(status=Match.Status.SCHEDULED)

# A stored scoresheet line as the read model loads it (``Entry`` columns, in this order).
LINE_FIELDS = ("kind", "game", "caller_seat", "tricks_a", "tricks_b", "penalised", "pair", "points")
# A stored paper result as the read model loads it (``PaperResult`` columns, in this order).
PAPER_FIELDS = ("total_a", "total_b", "deals_played", "tuppi", "deciding_winner")


def engine_entry(kind, game, caller_seat, tricks_a, tricks_b, penalised, pair, points) -> engine.Entry:
    """One stored scoresheet line (its ``LINE_FIELDS``) as the engine's entry."""
    if kind == Entry.Kind.DEAL:
        caller = engine.pair_of_seat(caller_seat) if caller_seat else None
        return engine.Deal(Game(game), ByPair(tricks_a, tricks_b), caller, penalised)
    if kind == Entry.Kind.POINTS:
        return engine.PointsPenalty(Pair(pair), points or engine.PENALTY_POINTS)
    if kind == Entry.Kind.TUPPI:
        return engine.TuppiPenalty(Pair(pair))
    return engine.Forfeit(Pair(pair))


def to_engine(row: Entry) -> engine.Entry:
    """A stored scoresheet line (a model row) as the engine's entry."""
    return engine_entry(*(getattr(row, field) for field in LINE_FIELDS))


def fold_rows(match: Match, rows: Sequence[Entry]) -> engine.MatchState:
    return engine.fold([to_engine(r) for r in rows], match.deals_planned, overwhelming=overwhelming_rule())


def fold_outcome(
    status: str, deals_planned: int, pair_ids: tuple[int, int], lines: Sequence[engine.Entry], paper: tuple | None
) -> Outcome:
    """A match's outcome from its stored workflow status, its lines (engine entries) or its paper result
    (``PAPER_FIELDS``). ``pair_ids`` are pair A's and pair B's ids."""
    if status == Match.Status.ANNULLED:
        return ANNULLED
    if paper is not None:
        total_a, total_b, deals_played, tuppi, deciding_winner = paper
        try:
            result = plausibility.paper_result(
                total_a, total_b, deals_planned, deals_played,
                tuppi=tuppi or None, deciding_winner=deciding_winner or None, overwhelming=overwhelming_rule(),
            )
        except ScoringError as exc:
            return Outcome(status=Match.Status.PLAYING, error=exc.code, paper=True)
        return Outcome(
            status=Match.Status.FINISHED, finished=True,
            winner=pair_ids[0] if result.winner == Pair.A else pair_ids[1], tuppi=result.tuppi,
            totals=(total_a, total_b), match_points=(result.match_points.a, result.match_points.b),
            deals_played=deals_played, paper=True,
        )
    if not lines:
        return SCHEDULED
    try:
        state = engine.fold(lines, deals_planned, overwhelming=overwhelming_rule())
    except ScoringError as exc:  # stored lines are validated before saving; this is a safety net
        return Outcome(status=Match.Status.PLAYING, error=exc.code)
    forfeit = str(lines[-1].pair) if state.ended_by is engine.EndedBy.FORFEIT else None
    return outcome_of_state(state, pair_ids, forfeit=forfeit)


def outcome_of_state(state: engine.MatchState, pair_ids: tuple[int, int], *, forfeit: str | None = None) -> Outcome:
    """The outcome of a folded scoresheet; ``forfeit`` is the pair ("A"/"B") that forfeited, if one did."""
    winner = None
    if state.winner is not None:
        winner = pair_ids[0] if state.winner == Pair.A else pair_ids[1]
    return Outcome(
        status=Match.Status.FINISHED if state.finished else Match.Status.PLAYING,
        finished=state.finished,
        winner=winner,
        tuppi=state.tuppi,
        totals=(state.totals.a, state.totals.b),
        match_points=None if state.match_points is None else (state.match_points.a, state.match_points.b),
        deals_played=state.deals_played,
        up=None if state.up is None else str(state.up),
        rise=state.rise,
        forfeit=forfeit,
        penalty=state.ended_by is engine.EndedBy.TUPPI_PENALTY,
    )


def paper_tuple(paper: PaperResult | None) -> tuple | None:
    return None if paper is None else tuple(getattr(paper, field) for field in PAPER_FIELDS)


def outcome(match: Match, rows: Sequence[Entry], paper: PaperResult | None) -> Outcome:
    """One match's outcome from its model rows (the scoresheet pages, which load one match)."""
    return fold_outcome(
        match.status, match.deals_planned, (match.pair_a_id, match.pair_b_id), [to_engine(r) for r in rows],
        paper_tuple(paper),
    )


# --- group tables -----------------------------------------------------------------------------------


def match_result(m) -> standings_core.MatchResult | None:
    """A finished, counted match as the standings core takes it (``m`` has pair ids and ``.outcome``)."""
    o = m.outcome
    if not o.finished or o.match_points is None:
        return None
    a, b = m.pair_a_id, m.pair_b_id
    return standings_core.MatchResult(
        a, b, o.winner, {a: o.match_points[0], b: o.match_points[1]}, {a: o.totals[0], b: o.totals[1]}
    )


def standings(
    pair_ids: Sequence[int], results: Sequence[standings_core.MatchResult], playoffs: Sequence[Sequence[int]] = (),
    *, primary: str = "match_points",
) -> tuple[standings_core.Standing, ...]:
    """A group's order by RULES.md §4 from its finished, counted results; ``playoffs`` are the recorded
    play-off orders (pair ids, best first). Withdrawn pairs are left out by the caller."""
    return standings_core.rank_with_recorded(pair_ids, results, playoffs, primary=primary)


@dataclass(frozen=True)
class Row:
    standing: standings_core.Standing
    pair: object  # the pair as the read model shows it (``readmodel.PairView``)


@dataclass(frozen=True)
class GroupTable:
    group: object  # ``readmodel.GroupView``
    rows: tuple[Row, ...]
    withdrawn: tuple  # pairs withdrawn from the group: shown apart, counted nowhere
    matches: tuple  # the group's matches (``readmodel.MatchView``, with ``.outcome``)
    cross: dict  # (pair id, pair id) -> standings_core.CrossCell | None

    @property
    def finished(self) -> bool:
        return all(m.outcome.finished or m.outcome.status == Match.Status.ANNULLED for m in self.matches)

    @property
    def under_appeal(self) -> bool:
        """A match of the group awaits the judges' council (issue #29): the standings are provisional."""
        return any(getattr(m, "under_appeal", False) for m in self.matches)

    @property
    def started(self) -> bool:
        return any(m.outcome.status != Match.Status.SCHEDULED for m in self.matches)

    @property
    def playoff_needed(self) -> bool:
        return any(r.standing.playoff_required for r in self.rows)

    @property
    def cross_rows(self) -> list:
        """The cross table in standings order: (pair, [(opponent, its CrossCell or None), …])."""
        pairs = [r.pair for r in self.rows]
        return [(x, [(y, self.cross.get((x.pk, y.pk)) if x is not y else None) for y in pairs]) for x in pairs]

    @property
    def playoff_sets(self) -> list[tuple[Row, ...]]:
        """The rows level on one shared rank that need a play-off: one play-off (and one form) each."""
        sets: dict[int, list[Row]] = {}
        for r in self.rows:
            if r.standing.playoff_required:
                sets.setdefault(r.standing.rank, []).append(r)
        return [tuple(rows) for rows in sets.values()]

    def row_of(self, pair_id: int) -> Row | None:
        return next((r for r in self.rows if r.pair.pk == pair_id), None)


def group_table(group, pairs: Sequence, matches: Sequence, playoffs: Iterable[Sequence[int]] = (),
                *, primary: str = "match_points") -> GroupTable:
    """One group's table from loaded rows: ``pairs`` in slot order (with ``.pk`` and ``.withdrawn_at``),
    ``matches`` with pair ids and ``.outcome``, ``playoffs`` the recorded orders. Pure: the event's pages
    and the cup rank groups only through this function.

    A pair withdrawn before finishing its group has every match annulled and is not ranked; one that
    withdrew after finishing it keeps its results (RULES.md §4), so it stays in the table.

    **Decision (a play-off before the group ends):** pairs level after every tie-break share their rank
    while the group is still being played, but only a finished group asks for a play-off: a level that
    later results may still break (0–0 before the first match) is not a tie to play off yet."""
    counted = [m for m in matches if m.outcome.status != Match.Status.ANNULLED]
    in_play = {pair_id for m in counted for pair_id in (m.pair_a_id, m.pair_b_id)}
    active = [p for p in pairs if p.withdrawn_at is None or p.pk in in_play]
    by_id = {p.pk: p for p in active}
    results = [r for r in (match_result(m) for m in counted) if r is not None]
    ranked = standings([p.pk for p in active], results, list(playoffs), primary=primary)
    if not all(m.outcome.finished for m in counted):
        ranked = [replace(s, playoff_required=False) if s.playoff_required else s for s in ranked]
    return GroupTable(
        group=group,
        rows=tuple(Row(s, by_id[s.pair]) for s in ranked),
        withdrawn=tuple(p for p in pairs if p.pk not in by_id),
        matches=tuple(matches),
        cross=dict(standings_core.cross_table([p.pk for p in active], results)),
    )


# The tie-break step that decided a group place (RULES.md §4), as every page, PDF and workbook says it;
# "match_points" (and "wins") need no word: the primary order decided.
DECIDED_BY = {
    "head_to_head": gettext_lazy("keskinäinen ottelu"),
    "mini_table": gettext_lazy("keskinäiset pelit"),
    "totals": gettext_lazy("nousupisteet"),
    "playoff": gettext_lazy("uusinta"),
}
PLAYOFF_NEEDED = gettext_lazy("uusinta tarvitaan")


def decided_by_label(standing) -> str:
    """What decided a pair's place, or that a play-off is still needed; "" for the primary order."""
    if standing.playoff_required:
        return str(PLAYOFF_NEEDED)
    label = DECIDED_BY.get(standing.decided_by)
    return "" if label is None else str(label)


# --- one scoresheet, line by line -------------------------------------------------------------------

# The short notation of the scoresheet's "game" column (RULES.md §1, §3), one place for every page, the
# history, the PDFs: R rami, N nolo, P points penalty, T tuppi penalty, L forfeit (*luovutus*).
SHORT_LABELS = {"rami": "R", "nolo": "N", Entry.Kind.POINTS: "P", Entry.Kind.TUPPI: "T", Entry.Kind.FORFEIT: "L"}


def short_label(kind: str, game: str = "") -> str:
    return SHORT_LABELS[game] if kind == Entry.Kind.DEAL else SHORT_LABELS[kind]


# The marks a scoresheet line may carry besides its game (on screen and on the PDF, explained by the
# legend): the remaining tricks given to the opponents (*), a robbed rami (ry), a deal stopped after
# seven tricks (k), a deal of the rise played out after the planned deals (+), the deciding deal (r).
MARKS = {
    "penalised": ("*", gettext_lazy("loput kasat annettiin vastapuolelle (rangaistus)")),
    "robbed": ("ry", gettext_lazy("ryöstö: puolustajat voittivat ramin")),
    "early": ("k", gettext_lazy("jako lopetettiin kesken (7 kasaa)")),
    "played_out": ("+", gettext_lazy("kesken oleva nousu pelattiin loppuun")),
    "deciding": ("r", gettext_lazy("yksi jako voitosta (ratkaiseva jako)")),
}


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
    marks: tuple[str, ...] = ()  # keys of MARKS

    @property
    def mark_text(self) -> str:
        return " ".join(MARKS[m][0] for m in self.marks)


def sheet(match: Match, rows: Sequence[Entry]) -> tuple[tuple[SheetLine, ...], engine.MatchState | None]:
    """The scoresheet's lines and the final state, from one fold; a stored sheet the engine refuses gives
    no lines."""
    if not rows:
        return (), engine.start(match.deals_planned, overwhelming=overwhelming_rule())
    try:
        engine_lines, state = engine.sheet(
            [to_engine(r) for r in rows], match.deals_planned, overwhelming=overwhelming_rule()
        )
    except ScoringError:
        return (), None
    out = []
    for number, (row, line) in enumerate(zip(rows, engine_lines, strict=True), start=1):
        up = None if line.up is None else str(line.up)
        deciding = number == len(rows) and state.deciding_deal
        marks = tuple(
            mark
            for mark, on in (
                ("penalised", row.penalised),
                ("robbed", line.result is not None and line.result.robbed),
                ("early", line.result is not None and line.result.short),
                ("played_out", line.deal is not None and line.deal > match.deals_planned and not deciding),
                ("deciding", deciding),
            )
            if on
        )
        out.append(
            SheetLine(
                row=row, deal=line.deal, label=short_label(row.kind, row.game), caller_seat=row.caller_seat,
                tricks=f"{row.tricks_a}–{row.tricks_b}" if row.kind == Entry.Kind.DEAL else "",
                points=line.points, winner=str(line.winner),
                rise_a=line.rise if up == "A" else None, rise_b=line.rise if up == "B" else None,
                ended=None if line.ended is None else str(line.ended), totals=(line.totals.a, line.totals.b),
                marks=marks,
            )
        )
    return tuple(out), state


def sheet_and_outcome(match, rows: Sequence[Entry], paper: PaperResult | None):
    """A scoresheet's lines, final state and the match's outcome from one fold of its lines."""
    lines, state = sheet(match, rows)
    if match.status == Match.Status.ANNULLED or paper is not None or not rows or state is None:
        return lines, state, outcome(match, rows, paper)
    forfeit = rows[-1].pair if state.ended_by is engine.EndedBy.FORFEIT else None
    return lines, state, outcome_of_state(state, (match.pair_a_id, match.pair_b_id), forfeit=forfeit)


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
