"""A tournament match (*ottelu*): the scoresheet's entries folded into the match state.

Implements RULES.md §2 (the rise and the table, tuppi), §3 (planned deals, the rise played to its end,
the deciding deal, match points, penalties, forfeit) and the ``match`` command of §9. Pure and
Django-free: the web layer stores the entries and recomputes everything with :func:`fold` or
:func:`lines`.

Public API::

    start(deals_planned, *, overwhelming=None) -> MatchState
    apply(state, entry) -> MatchState                       # one scoresheet entry
    fold(entries, deals_planned, *, overwhelming=None) -> MatchState
    lines(entries, deals_planned, *, overwhelming=None) -> tuple[Line, ...]
    sheet(entries, deals_planned, *, overwhelming=None) -> (tuple[Line, ...], MatchState)  # one fold
    overwhelming_threshold(deals_planned) -> int
    is_overwhelming(winner_total, loser_total, deals_planned, rule=None) -> bool
    match_points(winner, totals, deals_planned, *, tuppi, rule=None) -> ByPair
    paper_result(total_a, total_b, deals_planned, deals_played, *, tuppi=None, deciding_winner=None,
                 overwhelming=None) -> PaperResult
    entry_from_json(obj, number) / entry_to_json(entry) / match_to_json(entries, deals_planned)
    parse_match(data) -> MatchInput / run_cli(data) -> dict / pair_of_seat(seat) -> Pair
    after_end_error(state, number) -> ScoringError          # for a UI that checks before storing

Entries: :class:`Deal` (from :mod:`scoring.deal`), :class:`PointsPenalty`, :class:`TuppiPenalty`,
:class:`Forfeit`. Every invalid entry raises :class:`ScoringError` whose ``deal`` is the entry's 1-based
number on the scoresheet (penalties included).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from scoring.deal import TUPPI, ByPair, Deal, DealResult, Game, Pair, as_pair, pair_of_seat, score_deal
from scoring.errors import ScoringError, is_whole

__all__ = [
    "DEFAULT_OVERWHELMING",
    "PENALTY_POINTS",
    "ByPair",
    "Deal",
    "DealResult",
    "EndedBy",
    "Entry",
    "Forfeit",
    "Game",
    "Line",
    "MatchInput",
    "MatchState",
    "Overwhelming",
    "PaperResult",
    "Pair",
    "PointsPenalty",
    "Rise",
    "RiseEnd",
    "TuppiPenalty",
    "after_end_error",
    "apply",
    "entry_from_json",
    "entry_to_json",
    "fold",
    "is_overwhelming",
    "lines",
    "match_points",
    "match_to_json",
    "overwhelming_threshold",
    "pair_of_seat",
    "paper_result",
    "parse_match",
    "run_cli",
    "sheet",
    "start",
]

# Deal errors three times in a row: 28 rise points to the opponents (RULES.md §3, rule 2.2).
PENALTY_POINTS = 28


class Overwhelming(StrEnum):
    """How an overwhelming points win (*ylivoimainen pistevoitto*) is read (RULES.md §3)."""

    WINNER_TOTAL = "winner_total"  # Decision (RULES.md §3): the winner's rise total > the threshold
    MARGIN = "margin"  # the alternative the federation may rule: winner's total − loser's total > threshold


# The one setting (RULES.md §3 Decision): every function that needs the rule takes ``overwhelming``;
# None means this default. The web layer passes the federation's choice (``TUPPI_OVERWHELMING_RULE``)
# explicitly; nothing here can be changed at run time.
DEFAULT_OVERWHELMING: Overwhelming = Overwhelming.WINNER_TOTAL

# Overwhelming thresholds by planned deal count N ("yli 84 pistettä" etc., RULES.md §3).
_THRESHOLDS = ((24, 84), (20, 76), (16, 64), (12, 48))


class RiseEnd(StrEnum):
    """How a rise (*nousu*) ended (RULES.md §9 ``rises[].ended``)."""

    FALL = "fall"  # the up pair lost a deal (RULES.md §2)
    TUPPI = "tuppi"  # the rise reached 52 or more (RULES.md §2)
    END = "end"  # the match ended while it was running: deciding deal, tuppi penalty, forfeit
    OPEN = "open"  # still running


class EndedBy(StrEnum):
    """Why a finished match ended."""

    TUPPI = "tuppi"  # a rise reached 52 (RULES.md §2)
    TUPPI_PENALTY = "tuppi_penalty"  # signalling, rule 5.2 (RULES.md §3)
    FORFEIT = "forfeit"  # *luovutus* (RULES.md §3)
    POINTS = "points"  # N deals played, the last rise ended, totals differ (RULES.md §3)
    DECIDING_DEAL = "deciding_deal"  # equal totals, one more deal decided (RULES.md §3)


@dataclass(frozen=True, slots=True)
class PointsPenalty:
    """Deal errors three times in a row (rules 2.2, 3.5): ``points`` to pair ``to``.

    RULES.md §3: "exactly a deal won by the opponents for 28 points under §2, and is applied as such",
    but it has no deal number.
    """

    to: Pair
    points: int = PENALTY_POINTS


@dataclass(frozen=True, slots=True)
class TuppiPenalty:
    """Signalling (rule 5.2): the offending pair is put in the tuppi; pair ``to`` wins 5–0 (RULES.md §3)."""

    to: Pair


@dataclass(frozen=True, slots=True)
class Forfeit:
    """*Luovutus*: ``pair`` forfeits; the opponents win by tuppi (RULES.md §3 Decision)."""

    pair: Pair


Entry = Deal | PointsPenalty | TuppiPenalty | Forfeit


@dataclass(frozen=True, slots=True)
class Rise:
    """One rise: the pair, the value it reached, how it ended (RULES.md §2, §9)."""

    pair: Pair
    points: int
    ended: RiseEnd

    def to_json(self) -> dict:
        return {"pair": str(self.pair), "points": self.points, "ended": str(self.ended)}


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match after some entries: what the last line of a paper scoresheet shows, and more.

    ``up``/``rise`` are the pair up and its rise as the last line shows them; they are left as they
    stood when the match ends (a tuppi line shows the winner up at 52 or more; a deciding deal shows
    the rise it started), and ``rises[-1].ended`` tells whether that rise is still open.
    ``totals`` are the rise totals (RULES.md §3: every rise's value, the open or last one included).
    ``awaiting_deciding_deal``: N deals are played, the game is at the table and the totals are equal,
    so the next deal decides (RULES.md §3).
    """

    deals_planned: int
    overwhelming: Overwhelming
    entries: int = 0
    deals_played: int = 0
    up: Pair | None = None
    rise: int = 0
    totals: ByPair = ByPair(0, 0)
    rises: tuple[Rise, ...] = ()
    awaiting_deciding_deal: bool = False
    finished: bool = False
    winner: Pair | None = None
    tuppi: bool = False
    match_points: ByPair | None = None
    deciding_deal: bool = False
    ended_by: EndedBy | None = None
    ended_at_entry: int | None = None
    ended_at_deal: int | None = None  # the deal number of the entry that ended it, None for a penalty/forfeit

    def to_json(self) -> dict:
        """The state as ``python -m scoring match`` prints it: exactly the keys of RULES.md §9."""
        return {
            "finished": self.finished,
            "winner": None if self.winner is None else str(self.winner),
            "tuppi": self.tuppi,
            "totals": self.totals.to_json(),
            "match_points": None if self.match_points is None else self.match_points.to_json(),
            "up": None if self.up is None else str(self.up),
            "rise": self.rise,
            "deals_played": self.deals_played,
            "deciding_deal": self.deciding_deal,
            "rises": [r.to_json() for r in self.rises],
        }


@dataclass(frozen=True, slots=True)
class Line:
    """One scoresheet line: what a paper scoresheet shows after one entry.

    ``number`` is the entry's 1-based position; ``deal`` its deal number (None for penalties and
    forfeits, which use no deal number, RULES.md §3). ``points`` are the deal's points by RULES.md §1
    (or the penalty's points; None for a tuppi penalty or forfeit), ``winner`` who won the line,
    ``scored`` what went into a rise (0 when the deal made the up pair fall). ``ended`` is the rise that
    ended on this line: fall, tuppi, or end (closed by a deciding deal, tuppi penalty or forfeit).
    """

    number: int
    deal: int | None
    entry: Entry
    result: DealResult | None
    points: int | None
    winner: Pair
    scored: int
    up: Pair | None
    rise: int
    totals: ByPair
    ended: RiseEnd | None
    finished: bool


@dataclass(frozen=True, slots=True)
class PaperResult:
    """A match result entered from a paper scoresheet's totals (see :func:`paper_result`)."""

    winner: Pair
    match_points: ByPair
    tuppi: bool
    overwhelming: bool


@dataclass(frozen=True, slots=True)
class MatchInput:
    """A parsed ``python -m scoring match`` document (RULES.md §9)."""

    deals_planned: int
    entries: tuple[Entry, ...]
    overwhelming: Overwhelming


# --- match points ------------------------------------------------------------------------------------


def _rule(value: object) -> Overwhelming:
    if value is None:
        return DEFAULT_OVERWHELMING
    try:
        return Overwhelming(value)
    except ValueError:
        raise ScoringError(
            "overwhelming_invalid",
            f"unknown overwhelming rule {value!r}: 'winner_total' or 'margin'",
            value=value,
        ) from None


def overwhelming_threshold(deals_planned: int) -> int:
    """The overwhelming-win threshold for N planned deals (RULES.md §3).

    12 → 48, 16 → 64, 20 → 76, 24 → 84; an N not listed uses the largest listed N below it;
    N < 12 uses 4 × N (Decision, RULES.md §3).
    """
    n = _check_deals_planned(deals_planned)
    for listed, threshold in _THRESHOLDS:
        if n >= listed:
            return threshold
    return 4 * n


def is_overwhelming(winner_total: int, loser_total: int, deals_planned: int, rule: object = None) -> bool:
    """Is a points win overwhelming (*ylivoimainen pistevoitto*)? RULES.md §3.

    **Decision** (RULES.md §3): read as written, "yli 84 pistettä": the winner's rise total must be
    greater than the threshold. ``rule=Overwhelming.MARGIN`` (or the module setting
    the ``overwhelming`` argument of the folding functions) compares the winner's total minus the loser's instead. This is the only
    place the comparison is made.
    """
    threshold = overwhelming_threshold(deals_planned)
    if _rule(rule) is Overwhelming.MARGIN:
        return winner_total - loser_total > threshold
    return winner_total > threshold


def match_points(
    winner: Pair, totals: ByPair, deals_planned: int, *, tuppi: bool, rule: object = None
) -> ByPair:
    """Match points (*ottelupisteet*), RULES.md §3: tuppi 5–0, overwhelming points win 4–1, points win 3–2."""
    if tuppi:
        won, lost = 5, 0
    elif is_overwhelming(totals[winner], totals[winner.other], deals_planned, rule):
        won, lost = 4, 1
    else:
        won, lost = 3, 2
    return ByPair(0, 0).replace(winner, won).replace(winner.other, lost)


# --- the fold ----------------------------------------------------------------------------------------


def _check_deals_planned(value: object) -> int:
    if not is_whole(value) or value < 1:
        raise ScoringError(
            "deals_planned_invalid",
            f"deals_planned must be a whole number of at least 1, not {value!r}",
            deals_planned=value,
        )
    return value


def start(deals_planned: int, *, overwhelming: object = None) -> MatchState:
    """The empty scoresheet: at the table, 0–0, no deal played (RULES.md §2–3)."""
    return MatchState(deals_planned=_check_deals_planned(deals_planned), overwhelming=_rule(overwhelming))


def apply(state: MatchState, entry: Entry) -> MatchState:
    """Fold one scoresheet entry into the state (RULES.md §2–3)."""
    acc = _Fold.of(state)
    acc.step(entry)
    return acc.freeze()


def fold(entries: Iterable[Entry], deals_planned: int, *, overwhelming: object = None) -> MatchState:
    """Fold a whole scoresheet into the match state (RULES.md §2–3); raises on the first invalid entry."""
    acc = _Fold.of(start(deals_planned, overwhelming=overwhelming))
    for entry in entries:
        acc.step(entry)
    return acc.freeze()


def lines(entries: Iterable[Entry], deals_planned: int, *, overwhelming: object = None) -> tuple[Line, ...]:
    """The scoresheet line after each entry (RULES.md §2–3); the last line's state is :func:`fold`'s."""
    return sheet(entries, deals_planned, overwhelming=overwhelming)[0]


def sheet(
    entries: Iterable[Entry], deals_planned: int, *, overwhelming: object = None
) -> tuple[tuple[Line, ...], MatchState]:
    """A scoresheet's lines and its final state from one fold (what a page of the sheet shows)."""
    acc = _Fold.of(start(deals_planned, overwhelming=overwhelming))
    return tuple(acc.line(entry) for entry in entries), acc.freeze()


def after_end_error(state: MatchState, number: int) -> ScoringError:
    """The error for entry ``number`` following a finished match (RULES.md §9: nothing may follow)."""
    if state.ended_at_deal is not None:
        where = f"at deal {state.ended_at_deal}"
    else:
        where = f"with entry {state.ended_at_entry} ({state.ended_by})"
    return ScoringError(
        "after_end",
        f"the match ended {where}; nothing may follow it",
        deal=number,
        ended_at_deal=state.ended_at_deal,
        ended_at_entry=state.ended_at_entry,
        ended_by=str(state.ended_by),
    )


class _Fold:
    """The fold's working state: :class:`MatchState`'s fields, mutable, so that one entry costs a few
    assignments instead of several frozen copies (a 128-pair event folds about 6,000 lines per
    snapshot). It never escapes this module: :meth:`freeze` gives the immutable state. An entry that is
    refused raises before anything is changed."""

    __slots__ = (
        "n", "overwhelming", "entries", "deals_played", "up", "rise", "ta", "tb", "rises", "awaiting",
        "finished", "winner", "tuppi", "match_points", "deciding_deal", "ended_by", "ended_at_entry",
        "ended_at_deal",
    )

    @classmethod
    def of(cls, state: MatchState) -> _Fold:
        acc = cls()
        acc.n, acc.overwhelming = state.deals_planned, state.overwhelming
        acc.entries, acc.deals_played = state.entries, state.deals_played
        acc.up, acc.rise, acc.ta, acc.tb = state.up, state.rise, state.totals.a, state.totals.b
        acc.rises = [[r.pair, r.points, r.ended] for r in state.rises]  # pair, value reached, how it ended
        acc.awaiting, acc.finished, acc.winner, acc.tuppi = (
            state.awaiting_deciding_deal, state.finished, state.winner, state.tuppi,
        )
        acc.match_points, acc.deciding_deal, acc.ended_by = state.match_points, state.deciding_deal, state.ended_by
        acc.ended_at_entry, acc.ended_at_deal = state.ended_at_entry, state.ended_at_deal
        return acc

    def freeze(self) -> MatchState:
        return MatchState(
            deals_planned=self.n,
            overwhelming=self.overwhelming,
            entries=self.entries,
            deals_played=self.deals_played,
            up=self.up,
            rise=self.rise,
            totals=ByPair(self.ta, self.tb),
            rises=tuple(Rise(pair, points, ended) for pair, points, ended in self.rises),
            awaiting_deciding_deal=self.awaiting,
            finished=self.finished,
            winner=self.winner,
            tuppi=self.tuppi,
            match_points=self.match_points,
            deciding_deal=self.deciding_deal,
            ended_by=self.ended_by,
            ended_at_entry=self.ended_at_entry,
            ended_at_deal=self.ended_at_deal,
        )

    def line(self, entry: Entry) -> Line:
        number, deal_no, result, points, winner, scored, ended = self.step(entry)
        return Line(
            number=number, deal=deal_no, entry=entry, result=result, points=points, winner=winner,
            scored=scored, up=self.up, rise=self.rise, totals=ByPair(self.ta, self.tb), ended=ended,
            finished=self.finished,
        )

    def step(self, entry: Entry):
        """Fold one entry (RULES.md §2–3); returns what its scoresheet line shows besides the state."""
        number = self.entries + 1
        if self.finished:
            # RULES.md §9: entries after the match has finished are an error.
            raise after_end_error(self, number)  # type: ignore[arg-type]  (the same ended_* fields)

        if isinstance(entry, Deal):
            result = score_deal(entry, self.up, self.rise, entry=number)
            deal_no = self.deals_played + 1
            self.entries, self.deals_played = number, deal_no
            scored, ended = self._win(result.winner, result.points, number, deal_no)
            return number, deal_no, result, result.points, result.winner, scored, ended
        if isinstance(entry, PointsPenalty):
            to = as_pair(entry.to, "to", number)
            points = entry.points
            # Decision (ours): penalty points are a positive multiple of 4 (28 by default, RULES.md §3), so
            # every rise stays on the game's 4-point scale and a mistyped value is refused.
            if not is_whole(points) or points < 4 or points % 4:
                raise ScoringError(
                    "penalty_points_invalid",
                    f"penalty points must be a positive multiple of 4 (normally 28), not {points!r}",
                    deal=number,
                    points=points,
                )
            # RULES.md §3: "exactly a deal won by the opponents for 28 points under §2, applied as such";
            # it uses no deal number, so it never counts towards the N planned deals.
            self.entries = number
            scored, ended = self._win(to, points, number, None)
            return number, None, None, points, to, scored, ended
        if isinstance(entry, TuppiPenalty | Forfeit):
            if isinstance(entry, TuppiPenalty):
                # RULES.md §3, signalling (rule 5.2): the offending pair is put in the tuppi; ``to`` wins 5–0.
                winner, why = as_pair(entry.to, "to", number), EndedBy.TUPPI_PENALTY
            else:
                # RULES.md §3 Decision (forfeit): the opponents win by tuppi 5–0, totals as they stood.
                winner, why = as_pair(entry.pair, "forfeit", number).other, EndedBy.FORFEIT
            self.entries = number
            ended = self._close_open(RiseEnd.END)
            self._finish(winner, True, why, number, None)
            return number, None, None, None, winner, 0, ended
        raise ScoringError(
            "entry_kind_unknown",
            f"unknown scoresheet entry {entry!r}: a deal, a penalty or a forfeit",
            deal=number,
        )

    def _close_open(self, how: RiseEnd) -> RiseEnd | None:
        if self.rises and self.rises[-1][2] is RiseEnd.OPEN:
            self.rises[-1][2] = how
            return how
        return None

    def _win(self, winner: Pair, points: int, number: int, deal_no: int | None) -> tuple[int, RiseEnd | None]:
        """Pair ``winner`` wins a deal (or a points penalty) for ``points``: RULES.md §2 then §3's end rules."""
        deciding = self.awaiting
        ended = None
        if self.up is None:
            # RULES.md §2: table, deal won by X for p: X is up with p.
            self.up, self.rise, scored = winner, points, points
            self.rises.append([winner, points, RiseEnd.OPEN])
        elif self.up is winner:
            # RULES.md §2: X up with r, deal won by X for p: X is up with r + p.
            self.rise += points
            scored = points
            self.rises[-1][1] = self.rise
        else:
            # RULES.md §2: X up with r, deal won by Y: Y scores nothing, X falls at r, table.
            self.up, self.rise, scored = None, 0, 0
            ended = self._close_open(RiseEnd.FALL)
        if winner is Pair.A:
            self.ta += scored
        else:
            self.tb += scored
        self.awaiting = False

        if self.up is not None and self.rise >= TUPPI:
            # RULES.md §2-3: a rise of 52 or more is tuppi; the match ends at once, 5–0. Decision (ours):
            # this holds for the deciding deal too, so a nälsytuppi (56) as the deciding deal is a tuppi.
            ended = self._close_open(RiseEnd.TUPPI)
            self.deciding_deal = deciding
            self._finish(self.up, True, EndedBy.TUPPI, number, deal_no)
            return scored, ended
        if deciding:
            # RULES.md §3: equal totals, one more deal decides; its winner wins; the rise it starts is not
            # played on. Decision (RULES.md §3): its points are added to the winner's total (done above).
            # Decision (ours): a points penalty here is "applied as a deal won" and so decides the match too.
            ended = self._close_open(RiseEnd.END)
            self.deciding_deal = True
            self._finish(winner, False, EndedBy.DECIDING_DEAL, number, deal_no)
            return scored, ended
        if self.deals_played >= self.n and self.up is None:
            # RULES.md §3: after N deals a running rise is played to its end; at the table the higher rise
            # total wins, and equal totals (necessarily at the table) call for one deciding deal.
            if self.ta == self.tb:
                self.awaiting = True
                return scored, ended
            self._finish(Pair.A if self.ta > self.tb else Pair.B, False, EndedBy.POINTS, number, deal_no)
        return scored, ended

    def _finish(self, winner: Pair, tuppi: bool, why: EndedBy, number: int, deal_no: int | None) -> None:
        self.finished, self.awaiting, self.winner, self.tuppi = True, False, winner, tuppi
        self.match_points = match_points(
            winner, ByPair(self.ta, self.tb), self.n, tuppi=tuppi, rule=self.overwhelming
        )
        self.ended_by, self.ended_at_entry, self.ended_at_deal = why, number, deal_no


# --- paper scoresheet entry --------------------------------------------------------------------------

# What the figures of a paper scoresheet must fit (the Decision lines are in paper_result's docstring).
_RISE_MAX = TUPPI - 4  # 48: a rise that does not end in tuppi stays below 52, on the 4-point scale
_DEAL_SCORES = frozenset(4 * k for k in range(1, 8)) | frozenset(8 * k for k in range(1, 8))  # RULES.md §1
_PENALTY_MAX = 2 * PENALTY_POINTS  # 56: the most a points penalty is taken to be worth on paper
_PENALTY_SCORES = range(4, _PENALTY_MAX + 1, 4)
_PLAYED_OUT = _RISE_MAX // 4  # 12: the most deals a rise below 52 can hold, each adding at least 4
_TUPPI_RISE_MAX = _RISE_MAX + max(max(_DEAL_SCORES), _PENALTY_MAX)  # 104: 48 and then a 56


def _penalty_budget(deals_played: int) -> int:
    """The most points penalties a paper result is taken to include: one per dealing turn (Decision)."""
    return deals_played + 1


def _rises(total: int) -> int:
    """The fewest rises below 52 that add up to ``total``."""
    return -(-total // _RISE_MAX)


def _fallen(a: int, b: int, d: int) -> int | None:
    """The fewest points penalties for rises worth ``a`` (pair A) and ``b`` (pair B) in all, each below 52
    and each ended by a fall, over exactly ``d`` deals; None when no such rises hold ``d`` deals.

    Each rise needs a win and a fall; a deal either adds at least 4 to a rise or makes one fall, so the
    rises hold at most (a + b) / 2 deals; the wins a penalty can stand in for are the ones the deals miss.
    """
    if a + b == 0:
        return 0 if d == 0 else None
    if 2 * d > a + b:
        return None
    return max(0, 2 * (_rises(a) + _rises(b)) - d)


def _split(ta: int, tb: int, pair: Pair, value: int) -> tuple[int, int]:
    return (ta - value, tb) if pair is Pair.A else (ta, tb - value)


def _at_table_after_n(ta: int, tb: int, n: int, d: int) -> int | None:
    """Fewest points penalties for a sheet of ``d`` deals whose last rise fell with deal ``n`` played: a
    points win, or level totals awaiting the deciding deal. None if there is none.

    The rises before the last one fell before deal N (``_fallen`` over d1 ≤ N − 1 deals); the last rise,
    below 52, was running at deal N and holds the other d2 = d − d1 deals but its fall (each adding at
    least 4); its fall is a deal or a penalty.
    """
    if d < n:
        return None
    best = None
    for pair in Pair:
        for value in range(4, min(_RISE_MAX, ta if pair is Pair.A else tb) + 1, 4):
            a1, b1 = _split(ta, tb, pair, value)
            for d2 in range(max(1, d - n + 1), min(d, value // 4 + 1) + 1):
                p = _fallen(a1, b1, d - d2)
                if p is not None and (best is None or p + max(0, 2 - d2) < best):
                    best = p + max(0, 2 - d2)  # one deal: the rise or its fall is a penalty
                    if best == 0:
                        return 0
    return best


def _running(ta: int, tb: int, n: int, d: int) -> int | None:
    """Fewest points penalties for a match still running after ``d`` deals with totals ``ta``–``tb`` (what a
    tuppi penalty or forfeit can end): at the table before deal N, a rise running (the falls before it
    came before deal N), or level totals awaiting the deciding deal."""
    candidates = []
    if d < n:
        candidates.append(_fallen(ta, tb, d))
    for pair in Pair:
        for value in range(4, min(_RISE_MAX, ta if pair is Pair.A else tb) + 1, 4):
            a1, b1 = _split(ta, tb, pair, value)
            for d_open in range(max(0, d - n + 1), min(d, value // 4) + 1):
                p = _fallen(a1, b1, d - d_open)
                if p is not None:
                    candidates.append(p + max(0, 1 - d_open))  # a rise with no deal was a penalty
                    if candidates[-1] == 0:
                        return 0
    if ta == tb:
        candidates.append(_at_table_after_n(ta, tb, n, d))
    return min((c for c in candidates if c is not None), default=None)


def _tuppi_rise(ta: int, tb: int, pair: Pair, n: int, d: int) -> int | None:
    """Fewest points penalties for a sheet of ``d`` deals ended by ``pair``'s rise reaching 52 (not as the
    deciding deal): rises that fell before deal N, then a rise r < 52 over at most r / 4 deals (running
    past deal N as long as it likes) and a deal or penalty that brings it to 52 or more."""
    total, other = (ta, tb) if pair is Pair.A else (tb, ta)
    best = None
    for r in range(0, _RISE_MAX + 1, 4):
        for deal_win, scores in ((True, _DEAL_SCORES), (False, _PENALTY_SCORES)):
            for q in scores:
                if r + q < TUPPI or r + q > total:
                    continue
                rest = total - r - q
                for d_r in range(0, r // 4 + 1):
                    d1 = d - d_r - deal_win
                    if d1 < 0 or d1 > n - 1:
                        continue
                    p = _fallen(*((rest, other) if pair is Pair.A else (other, rest)), d1)
                    if p is None:
                        continue
                    p += max(0, (r > 0) - d_r) + (not deal_win)
                    if best is None or p < best:
                        best = p
                        if best == 0:
                            return 0
    return best


def _decider_scores(tuppi: bool) -> tuple[frozenset[int], frozenset[int]]:
    """What a deciding deal can score: (as a deal, as a points penalty); with ``tuppi``, the scores that
    take a rise from the table to 52 (a nälsytuppi 56; a 52 or 56 penalty)."""
    if tuppi:
        return frozenset({max(_DEAL_SCORES)}), frozenset(q for q in _PENALTY_SCORES if q >= TUPPI)
    return (
        frozenset(q for q in _DEAL_SCORES if q < TUPPI),
        frozenset(q for q in _PENALTY_SCORES if q < TUPPI),
    )


def _deciding(total_w: int, total_l: int, n: int, d: int, *, tuppi: bool) -> int | None:
    """Fewest points penalties for a sheet of ``d`` deals whose deciding deal (or deciding penalty) was won
    for ``total_w − total_l`` after level totals ``total_l``–``total_l``."""
    margin = total_w - total_l
    deal_scores, penalty_scores = _decider_scores(tuppi)
    candidates = []
    if margin in deal_scores and d >= 1:
        candidates.append(_at_table_after_n(total_l, total_l, n, d - 1))
    if margin in penalty_scores:
        p = _at_table_after_n(total_l, total_l, n, d)
        candidates.append(None if p is None else p + 1)
    return min((c for c in candidates if c is not None), default=None)


def _low_at_table(n: int, d: int) -> int:
    """The least totals (together) of a sheet of ``d`` ≥ ``n`` deals whose last rise fell after deal N.

    Every deal adds at least 4 to a rise or makes one fall, and only a rise can fall: d deals before the
    last rise give at least 2d. Deals after N are all in the rise played out, which gains at least 4 from
    each of them but its fall.
    """
    return 4 * -(-n // 2) if d == n else 4 * (d - n) + 4 * (n // 2)


def _low_tuppi(n: int, d: int, *, level: bool) -> int:
    """The least totals (together) of a sheet of ``d`` deals ended by tuppi: a tuppi penalty or forfeit in
    a running match (awaiting the deciding deal only with ``level`` totals), a rise reaching 52, or a
    tuppi deciding deal (same reasoning as ``_low_at_table``)."""
    def block(deals: int) -> int:  # rises that fell before deal N: half the deals add 4, half fall
        return 4 * -(-deals // 2)

    lows = []
    if d < n:
        lows.append(block(d))
    for last in range(max(0, d - n + 1), min(d, _PLAYED_OUT + 1) + 1):  # deals of the last rise
        if last <= _PLAYED_OUT:  # a rise still running
            lows.append(4 * max(1, last) + block(d - last))
        lows.append(max(TUPPI, 4 * last) + block(d - last))  # the rise that reached tuppi
    if d >= n:
        lows.append(_low_at_table(n, d) + TUPPI)  # a 52-point penalty decides
        if level:
            lows.append(_low_at_table(n, d))
    if d >= n + 1:
        lows.append(_low_at_table(n, d - 1) + max(_DEAL_SCORES))  # a nälsytuppi decides
    return min(lows)


def _explain_at_table(ta: int, tb: int, n: int, d: int, budget: int, what: str) -> ScoringError | None:
    """The first bound a sheet that ended at the table after deal N (``_at_table_after_n``) breaks."""
    totals = f"{ta}–{tb}"
    if d > n + _PLAYED_OUT:
        return ScoringError(
            "paper_too_many_deals",
            f"{d} deals {what} in a match of {n}: a rise running at deal {n} stays below 52 and each deal it "
            f"survives adds at least 4, so it holds at most {_PLAYED_OUT} deals, and falls at deal "
            f"{n + _PLAYED_OUT} at the latest",
            deals_played=d, deals_planned=n, limit=n + _PLAYED_OUT,
        )
    if d > n and max(ta, tb) < 4 * (d - n):
        return ScoringError(
            "paper_played_out_rise_too_small",
            f"{d} deals {what} in a match of {n}: the deals after deal {n} were played because the rise "
            f"running at deal {n} went on, so it reached at least {4 * (d - n)} (each deal it survives adds "
            f"at least 4), but the higher total is {max(ta, tb)}",
            deals_played=d, deals_planned=n, extra=d - n, minimum=4 * (d - n), higher=max(ta, tb),
        )
    low = _low_at_table(n, d)
    if ta + tb < low:
        return ScoringError(
            "paper_totals_too_low",
            f"totals {totals} {what} after {d} deals (of {n}) are too low: each deal adds at least 4 to a "
            f"rise or makes one fall, and only a rise can fall, so they add up to at least {low}",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, minimum=low,
        )
    # Each rise needs a win and a fall; the rises but the last fell before deal N; with d > N the last
    # one holds d − N + 1 deals or more. So 2(k − 1) wins fit in the N − 1 deals before it and the penalties.
    most = (budget + d) // 2 if d == n else (budget + n + 1) // 2
    needed = _rises(ta) + _rises(tb)
    if needed > most:
        return ScoringError(
            "paper_total_too_high",
            f"totals {totals} {what} after {d} deals (of {n}) are too high: a rise that does not end in tuppi "
            f"stays below 52, so they need at least {needed} rises, each won and lost again; {d} deals and "
            f"at most {budget} points penalties allow at most {most} rises, at most {_RISE_MAX * most} points",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, rises_needed=needed,
            rises_max=most, points_max=_RISE_MAX * most, penalties_max=budget,
        )
    return None


def _unreachable(ta: int, tb: int, n: int, d: int, how: str) -> ScoringError:
    return ScoringError(
        "paper_result_unreachable",
        f"no scoresheet of {n} planned deals ends {ta}–{tb} after {d} deals{how}: each bound holds on "
        "its own, but the totals cannot be split into rises that fit the deals played",
        total_a=ta, total_b=tb, deals_played=d, deals_planned=n,
    )


def _check_deciding(
    totals: ByPair, winner: Pair, n: int, d: int, *, tuppi: bool
) -> ScoringError | None:
    """None if a sheet of ``d`` deals can end with ``winner`` winning the deciding deal (by tuppi with
    ``tuppi``); otherwise the first bound it breaks."""
    budget = _penalty_budget(d)
    total_w, total_l = totals[winner], totals[winner.other]
    p = _deciding(total_w, total_l, n, d, tuppi=tuppi)
    if p is not None and p <= budget:
        return None
    if d < n:
        return ScoringError(
            "paper_deciding_deal_too_early",
            f"a deciding deal comes only after the {n} planned deals, but {d} were played",
            deals_played=d, deals_planned=n,
        )
    if d > n + _PLAYED_OUT + 1:
        return ScoringError(
            "paper_deciding_deal_too_late",
            f"a deciding deal after {d} deals in a match of {n}: the rise running at deal {n} stays below "
            f"52, holds at most {_PLAYED_OUT} deals and falls at deal {n + _PLAYED_OUT} at the latest, so the "
            f"deciding deal is deal {n + _PLAYED_OUT + 1} at the latest",
            deals_played=d, deals_planned=n, limit=n + _PLAYED_OUT + 1,
        )
    deal_scores, penalty_scores = _decider_scores(tuppi)
    margin = total_w - total_l
    possible = (deal_scores if d >= n + 1 else frozenset()) | (
        penalty_scores if d <= n + _PLAYED_OUT else frozenset()
    )
    if margin not in possible:
        kind = "ends in tuppi: a nälsytuppi (56) or a 52 or 56 penalty" if tuppi else "scores 4 to 48"
        return ScoringError(
            "paper_deciding_deal_impossible",
            f"the totals were level before the deciding deal and its points go to its winner, so pair "
            f"{winner}'s {total_w} minus the deciding deal's points must be pair {winner.other}'s "
            f"{total_l}; a deciding deal that {kind} after {d} deals (of {n}) cannot give {margin}",
            deciding_winner=str(winner), total_a=totals.a, total_b=totals.b, margin=margin,
            deals_played=d, deals_planned=n,
        )
    # The level totals before it: after d − 1 deals if it was a deal, after d if it was a penalty.
    variants = []
    if margin in deal_scores and d >= n + 1:
        variants.append((d - 1, budget))
    if margin in penalty_scores and d <= n + _PLAYED_OUT:
        variants.append((d, budget - 1))
    causes = [(d_level, _explain_at_table(total_l, total_l, n, d_level, b, "before the deciding deal"))
              for d_level, b in variants]
    if any(cause is None for _, cause in causes):
        return _unreachable(totals.a, totals.b, n, d, f" with pair {winner} winning the deciding deal")
    d_level, cause = causes[0]
    return ScoringError(
        "paper_deciding_level_impossible",
        f"before the deciding deal the totals were level at {total_l}–{total_l} after {d_level} deals, "
        f"which no scoresheet gives: {cause.message}",
        level=total_l, deals_before=d_level, deals_played=d, deals_planned=n, cause=cause,
    )


def _check_points_win(totals: ByPair, n: int, d: int) -> ScoringError | None:
    """None if a sheet of ``d`` deals can end in a points win with these totals (also one whose deciding
    deal was left unmarked: it gives the same winner and match points); else the first bound broken."""
    budget = _penalty_budget(d)
    p = _at_table_after_n(totals.a, totals.b, n, d)
    if p is not None and p <= budget:
        return None
    if totals.a != totals.b:
        leader = Pair.A if totals.a > totals.b else Pair.B
        q = _deciding(totals[leader], totals[leader.other], n, d, tuppi=False)
        if q is not None and q <= budget:
            return None
        if d == n + _PLAYED_OUT + 1:  # this late only a deciding deal ends a match: say why it cannot
            return _check_deciding(totals, leader, n, d, tuppi=False)
    cause = _explain_at_table(totals.a, totals.b, n, d, budget, "without a deciding deal")
    return cause or _unreachable(totals.a, totals.b, n, d, "")


def _at_table_penalties(k: int, n: int, d: int) -> int:
    """Points penalties that ``k`` rises need at least, by counting, in a sheet of ``d`` ≥ ``n`` deals whose
    last rise fell after deal N: 2k wins; the rises but the last fell before deal N, in at most N − 1
    deals, and the last one holds the other deals (``_explain_at_table``'s rise count, as penalties)."""
    return max(0, 2 * k - d) if d == n else max(0, 2 * k - n - 1)


def _tuppi_wins(totals: ByPair, winner: Pair, n: int, d: int) -> tuple[int, int]:
    """(wins, points penalties) that a tuppi result needs at least, by counting: every rise below 52 is won
    and, all but the last, lost again while deal N is not yet played; the last rise (still running, or
    the tuppi one, up to 104 and two wins above 56) takes the later deals. After deal N a match awaiting
    its deciding deal (level totals) and a tuppi deciding deal (52 or 56 more) count as
    ``_at_table_penalties`` says."""
    total_w, total_l = totals[winner], totals[winner.other]
    options = []  # (wins of the rises that fell, wins of the last rise)
    k = _rises(total_w) + _rises(total_l)
    if d < n:
        options.append((2 * k, 0))  # at the table
    if k:
        options.append((2 * (k - 1), 1))  # a rise running
    for value in range(TUPPI, min(total_w, _TUPPI_RISE_MAX) + 1, 4):
        options.append((2 * (_rises(total_w - value) + _rises(total_l)), 1 if value <= _PENALTY_MAX else 2))
    best: tuple[int, int] | None = None

    def consider(wins: int, penalties: int) -> None:
        nonlocal best
        if best is None or penalties < best[1]:
            best = (wins, penalties)

    for fell, last in options:
        for d1 in range(max(0, d - _PLAYED_OUT - 1), min(d, n - 1) + 1):
            consider(fell + last, max(0, fell - d1) + max(0, last - (d - d1)))
    level = 2 * _rises(total_l)
    if d >= n and total_w == total_l:
        consider(level, _at_table_penalties(level, n, d))
    if d >= n and total_w - total_l in (TUPPI, _PENALTY_MAX):
        consider(level + 1, _at_table_penalties(level, n, d) + 1)
    if d >= n + 1 and total_w - total_l == max(_DEAL_SCORES):
        consider(level + 1, _at_table_penalties(level, n, d - 1))
    return best if best is not None else (0, 0)


def _check_tuppi(totals: ByPair, winner: Pair, n: int, d: int) -> ScoringError | None:
    """None if a sheet of ``d`` deals can end with ``winner`` winning by tuppi (a rise of 52, a tuppi
    penalty or the opponents' forfeit, also in a deciding deal); else the first bound broken."""
    budget = _penalty_budget(d)
    ta, tb = totals.a, totals.b
    running = _running(ta, tb, n, d)
    for p in (
        running,
        _tuppi_rise(ta, tb, winner, n, d),
        _deciding(totals[winner], totals[winner.other], n, d, tuppi=True),
    ):
        if p is not None and p <= budget:
            return None
    if d > n + _PLAYED_OUT + 1:
        return ScoringError(
            "paper_too_many_deals",
            f"{d} deals in a match of {n}: a rise running at deal {n} stays below 52 and each deal it "
            f"survives adds at least 4, so it falls or reaches tuppi by deal {n + _PLAYED_OUT}, and a "
            f"deciding deal is deal {n + _PLAYED_OUT + 1} at the latest",
            deals_played=d, deals_planned=n, limit=n + _PLAYED_OUT + 1,
        )
    low = _low_tuppi(n, d, level=ta == tb)
    if ta + tb < low:
        return ScoringError(
            "paper_totals_too_low",
            f"totals {ta}–{tb} after {d} deals (of {n}) are too low for a tuppi: each deal adds at least 4 "
            f"to a rise or makes one fall, and only a rise can fall"
            + (f"; deals after deal {n} are in one rise" if d > n else "")
            + f", so they add up to at least {low}",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, minimum=low,
        )
    total_w = totals[winner]
    if d == n + _PLAYED_OUT + 1:  # only a nälsytuppi deciding deal ends a match this late
        return _check_deciding(totals, winner, n, d, tuppi=True)
    wins, penalties = _tuppi_wins(totals, winner, n, d)
    if penalties > budget:
        return ScoringError(
            "paper_tuppi_total_too_high",
            f"totals {ta}–{tb} after {d} deals (of {n}) are too high: a rise stays below 52 unless it is "
            f"the tuppi (at most {_TUPPI_RISE_MAX}, two wins above 56), and every rise is won and, but the "
            f"last, lost again before deal {n}, so they need at least {wins} deals or penalties won, at "
            f"least {penalties} of them points penalties; at most {budget} go with {d} deals",
            total_a=ta, total_b=tb, deals_played=d, deals_planned=n, wins_needed=wins,
            penalties_needed=penalties, penalties_max=budget,
        )
    if (running is None or running > budget) and total_w < TUPPI:
        return ScoringError(
            "paper_tuppi_needs_rise",
            f"a tuppi penalty or forfeit ends only a running match, and none is running after {d} deals "
            f"(of {n}) with totals {ta}–{tb}; so pair {winner}'s tuppi was a rise of 52 or more, but its "
            f"total is {total_w}",
            pair=str(winner), total=total_w, total_a=ta, total_b=tb, deals_played=d, deals_planned=n,
        )
    return _unreachable(ta, tb, n, d, f" with pair {winner} winning by tuppi")


def paper_result(
    total_a: int,
    total_b: int,
    deals_planned: int,
    deals_played: int,
    *,
    tuppi: Pair | str | None = None,
    deciding_winner: Pair | str | None = None,
    overwhelming: object = None,
) -> PaperResult:
    """Winner and match points from a paper scoresheet's final figures (RULES.md §3).

    ``tuppi`` is the pair that won by tuppi (a rise of 52, a tuppi penalty or the opponents' forfeit),
    ``deciding_winner`` the winner of the deciding deal when the totals were level after the rise was
    played out. A result is accepted only if some valid scoresheet (:func:`fold`) ends with exactly
    these figures; otherwise it is refused (ScoringError, ``deal`` None) with the bound it breaks:

    - a total that is negative, not whole, or not a multiple of 4: ``paper_total_invalid``;
      deals played not a whole number ≥ 0: ``paper_deals_played_invalid``;
    - a tuppi for one pair and a deciding deal won by the other: ``paper_conflict``;
    - no tuppi and fewer deals played than planned (only tuppi ends a match early): ``paper_too_few_deals``;
    - no tuppi, equal totals, no deciding deal: ``paper_tie_needs_deciding_deal``;
    - more deals than N + 12 without a deciding deal, or N + 13 with tuppi: ``paper_too_many_deals``;
    - deals after N but no total that holds the rise played out over them:
      ``paper_played_out_rise_too_small``;
    - totals too low for the deals played: ``paper_totals_too_low``; too high: ``paper_total_too_high``
      (``paper_tuppi_total_too_high`` for a tuppi, counted in wins);
    - a deciding deal with fewer than N deals played: ``paper_deciding_deal_too_early``; after more than
      N + 13: ``paper_deciding_deal_too_late``; a difference that no deciding deal scores:
      ``paper_deciding_deal_impossible``; level totals before it that no sheet gives:
      ``paper_deciding_level_impossible`` (``values["cause"]`` is the bound those break);
    - a tuppi that only a rise of 52 can explain, from a winner's total below 52: ``paper_tuppi_needs_rise``;
    - figures that pass each bound alone but fit no scoresheet together: ``paper_result_unreachable``.

    How the bounds read the rules (RULES.md §1–3):

    - **Decision (ours): points penalties on paper.** A paper sheet does not list its points penalties,
      and each one is a deal won without a deal number (RULES.md §3): with no limit any totals would
      fit. Paper entry takes at most one points penalty per dealing turn, so at most deals played + 1
      of them (rule 2.2 gives one for a dealer's three errors in the same turn; the + 1 is the turn the
      match ended in), each worth a multiple of 4 from 4 to 56 (28 by the rules; the scoresheet form
      takes 4–56). A real sheet with more penalties than that must be entered deal by deal.
    - **Decision (ours): a rise below 52.** A rise that does not end in tuppi reached at most 48 (rises are
      multiples of 4) and took at least one deal or penalty won; every rise but a last one (ended by a
      deciding deal, a tuppi penalty or a forfeit) fell, by another win that scores nothing. A deal scores
      4..28, or 32, 40, 48, 56 (RULES.md §1); only a tuppi rise exceeds 48, at most 48 + 56 = 104.
    - **Decision (ours): the rise played out.** A rise running at deal N goes on until it falls or reaches
      tuppi; staying below 52 with each deal adding at least 4, it holds at most 12 deals, deal N
      included, so it falls by deal N + 12, and deals after N mean a rise of at least 4 per deal after N.
      A deciding deal is deal N + 13 at the latest, a tuppi (a nälsytuppi deciding deal) too.
    - **Decision (ours): the deciding deal.** The totals were level before it and its points go to its
      winner (RULES.md §3 Decision), so the winner's total minus its points is the loser's: the
      difference must be a deal's score below 52, or a penalty's (the engine lets a points penalty decide,
      so a "deciding deal" at deal N itself is accepted as such a penalty), and for a deciding deal that
      ends in tuppi 56 (nälsytuppi) or a 52/56 penalty. It needs the N planned deals first.
    - **Decision (ours): totals too low.** Every deal is won by someone: it adds at least 4 to a rise or
      makes one fall, and only a rise can fall, so d deals give totals of at least 2d; the deals after N
      are all in the rise played out, at least 4 each but its fall (12 deals of 12: at least 24; 24 deals
      of 12: 48 + 24).
    - **Decision (ours): totals too high.** Totals t need at least ⌈t / 48⌉ rises below 52 each; every rise
      is won and, but a last one, lost again (two wins); the rises before the last fell before deal N,
      so in at most N − 1 deals and the penalties. 12 deals of 12 hold at most 12 rises (12 deals and 12
      penalties), 576 points; a tuppi rise holds up to 104 (two wins above 56).
    - **Decision (ours): tuppi on paper.** A tuppi penalty or forfeit ends a running match at any score,
      and paper does not tell it from a rise of 52, so a tuppi is refused only when no running match
      has these figures and no rise of 52 (also none in a deciding deal) can give them; the winner's total
      is checked to include a rise of 52 only then. A tuppi with no deciding deal marked may still have
      come in one; a result with a deciding deal may be entered without marking it (same winner and
      match points).

    Exact where the figures tell: every scoresheet's figures are accepted and a result is refused only
    when no sheet within these Decisions fits. Conservative (accepted though no sheet may fit): a rise of
    36 or 44 in one deal (no deal scores that, a penalty could), and penalties are only counted, not
    placed one per dealing turn.
    """
    n = _check_deals_planned(deals_planned)
    rule = _rule(overwhelming)
    for pair, total in (("A", total_a), ("B", total_b)):
        if not is_whole(total) or total < 0 or total % 4:
            raise ScoringError(
                "paper_total_invalid",
                f"pair {pair}'s rise total must be a whole multiple of 4, at least 0, not {total!r}",
                pair=pair,
                total=total,
            )
    if not is_whole(deals_played) or deals_played < 0:
        raise ScoringError(
            "paper_deals_played_invalid",
            f"deals played must be a whole number of at least 0, not {deals_played!r}",
            deals_played=deals_played,
        )
    d = deals_played
    totals = ByPair(total_a, total_b)
    tuppi_pair = None if tuppi is None else as_pair(tuppi, "tuppi", None)
    decider = None if deciding_winner is None else as_pair(deciding_winner, "deciding_winner", None)
    if tuppi_pair is not None:
        if decider is not None and decider is not tuppi_pair:
            raise ScoringError(
                "paper_conflict",
                f"pair {tuppi_pair} won by tuppi, so pair {decider} cannot have won the deciding deal",
                tuppi=str(tuppi_pair),
                deciding_winner=str(decider),
            )
        if decider is not None:
            error = _check_deciding(totals, decider, n, d, tuppi=True)
        else:
            error = _check_tuppi(totals, tuppi_pair, n, d)
        if error is not None:
            raise error
        return PaperResult(
            tuppi_pair, match_points(tuppi_pair, totals, n, tuppi=True, rule=rule), True, False
        )
    if decider is not None:
        error = _check_deciding(totals, decider, n, d, tuppi=False)
        if error is not None:
            raise error
        winner = decider
    else:
        if d < n:
            raise ScoringError(
                "paper_too_few_deals",
                f"only {d} of {n} deals played: without tuppi a match ends after the planned deals",
                deals_played=d,
                deals_planned=n,
            )
        if total_a == total_b:
            raise ScoringError(
                "paper_tie_needs_deciding_deal",
                f"the totals are level ({total_a}–{total_b}): give the winner of the deciding deal",
                total=total_a,
            )
        error = _check_points_win(totals, n, d)
        if error is not None:
            raise error
        winner = Pair.A if total_a > total_b else Pair.B
    points = match_points(winner, totals, n, tuppi=False, rule=rule)
    return PaperResult(winner, points, False, points[winner] == 4)


# --- JSON in and out (RULES.md §9) -------------------------------------------------------------------

_DEAL_KEYS = frozenset({"game", "caller", "tricks", "penalised"})
_POINTS_KEYS = frozenset({"penalty", "to", "points"})
_TUPPI_KEYS = frozenset({"penalty", "to"})
_FORFEIT_KEYS = frozenset({"forfeit"})
_MATCH_KEYS = frozenset({"deals_planned", "deals", "overwhelming"})


def _check_keys(obj: dict, allowed: frozenset[str], what: str, number: int | None) -> None:
    # Decision (ours): unknown keys are refused rather than ignored, so a misspelt key (say "pionts")
    # never silently falls back to a default.
    unknown = sorted(str(k) for k in obj if k not in allowed)
    if unknown:
        raise ScoringError(
            "unknown_key",
            f"unknown key(s) {', '.join(unknown)} in {what}; allowed: {', '.join(sorted(allowed))}",
            deal=number,
            keys=unknown,
        )


def entry_from_json(obj: object, number: int) -> Entry:
    """One scoresheet entry from its RULES.md §9 JSON form (shape only; values are checked by the fold)."""
    if not isinstance(obj, dict):
        raise ScoringError("entry_not_object", f"entry {number} must be a JSON object", deal=number)
    kinds = [k for k in ("game", "penalty", "forfeit") if k in obj]
    if len(kinds) != 1:
        raise ScoringError(
            "entry_kind_unknown",
            f"entry {number} must have exactly one of 'game', 'penalty' or 'forfeit'",
            deal=number,
        )
    if kinds[0] == "game":
        _check_keys(obj, _DEAL_KEYS, "a deal", number)
        game = obj["game"]
        if game not in ("rami", "nolo"):  # Game(...) would also accept the enum's own members
            raise ScoringError(
                "game_unknown", f"unknown game {game!r}: a deal is 'rami' or 'nolo'", deal=number, game=game
            )
        tricks = obj.get("tricks")
        if not isinstance(tricks, dict) or set(tricks) != {"A", "B"}:
            raise ScoringError(
                "tricks_invalid",
                'tricks must be an object with the counts of both pairs, like {"A": 9, "B": 4}',
                deal=number,
            )
        caller = obj.get("caller")
        if caller is not None and caller not in ("A", "B"):
            raise ScoringError(
                "pair_invalid", f"caller must be pair 'A' or 'B', not {caller!r}", deal=number, field="caller"
            )
        return Deal(
            game=Game(game),
            tricks=ByPair(tricks["A"], tricks["B"]),
            caller=None if caller is None else Pair(caller),
            penalised=obj.get("penalised", False),
        )
    if kinds[0] == "penalty":
        kind = obj["penalty"]
        if kind == "points":
            _check_keys(obj, _POINTS_KEYS, "a points penalty", number)
            return PointsPenalty(_json_pair(obj.get("to"), "to", number), obj.get("points", PENALTY_POINTS))
        if kind == "tuppi":
            _check_keys(obj, _TUPPI_KEYS, "a tuppi penalty", number)
            return TuppiPenalty(_json_pair(obj.get("to"), "to", number))
        raise ScoringError(
            "penalty_unknown",
            f"unknown penalty {kind!r}: 'points' or 'tuppi'",
            deal=number,
            penalty=kind,
        )
    _check_keys(obj, _FORFEIT_KEYS, "a forfeit", number)
    return Forfeit(_json_pair(obj["forfeit"], "forfeit", number))


def _json_pair(value: object, field: str, number: int) -> Pair:
    if value not in ("A", "B"):
        raise ScoringError(
            "pair_invalid",
            f"{field} must be pair 'A' or 'B', not {value!r}",
            deal=number,
            field=field,
            value=value,
        )
    return Pair(value)


def entry_to_json(entry: Entry) -> dict:
    """One entry in its RULES.md §9 JSON form (the inverse of :func:`entry_from_json`)."""
    if isinstance(entry, Deal):
        out: dict = {"game": str(entry.game)}
        if entry.caller is not None:
            out["caller"] = str(entry.caller)
        out["tricks"] = entry.tricks.to_json()
        if entry.penalised:
            out["penalised"] = True
        return out
    if isinstance(entry, PointsPenalty):
        return {"penalty": "points", "to": str(entry.to), "points": entry.points}
    if isinstance(entry, TuppiPenalty):
        return {"penalty": "tuppi", "to": str(entry.to)}
    if isinstance(entry, Forfeit):
        return {"forfeit": str(entry.pair)}
    raise TypeError(f"not a scoresheet entry: {entry!r}")


def match_to_json(entries: Iterable[Entry], deals_planned: int) -> dict:
    """A whole scoresheet as the RULES.md §9 input document (the inverse of :func:`parse_match`)."""
    return {"deals_planned": deals_planned, "deals": [entry_to_json(e) for e in entries]}


def _parse_header(data: object) -> tuple[int, list, Overwhelming]:
    if not isinstance(data, dict):
        raise ScoringError("match_not_object", "a match must be a JSON object with deals_planned and deals")
    _check_keys(data, _MATCH_KEYS, "the match", None)
    if "deals_planned" not in data:
        raise ScoringError("deals_planned_invalid", "deals_planned is missing", deals_planned=None)
    n = _check_deals_planned(data["deals_planned"])
    deals = data.get("deals")
    if not isinstance(deals, list):
        raise ScoringError("deals_invalid", "deals must be a list of scoresheet entries")
    return n, deals, _rule(data.get("overwhelming"))


def parse_match(data: object) -> MatchInput:
    """A RULES.md §9 match document as entry values (shape only: values are checked by :func:`fold`)."""
    n, deals, rule = _parse_header(data)
    return MatchInput(n, tuple(entry_from_json(obj, i) for i, obj in enumerate(deals, 1)), rule)


def run_cli(data: object) -> dict:
    """``python -m scoring match``: the final state as RULES.md §9's JSON object.

    Entries are read and folded one by one, so the error reported is the first invalid entry in
    scoresheet order (an entry after the end is reported as such, whatever it holds). The optional
    top-level key ``overwhelming`` ("winner_total" or "margin") overrides :data:`DEFAULT_OVERWHELMING`.
    """
    n, deals, rule = _parse_header(data)
    state = start(n, overwhelming=rule)
    for number, obj in enumerate(deals, 1):
        if state.finished:
            raise after_end_error(state, number)
        state = apply(state, entry_from_json(obj, number))
    return state.to_json()
