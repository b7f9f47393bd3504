"""A tournament match (*ottelu*): the scoresheet's entries folded into the match state.

Implements RULES.md §2 (the rise and the table, tuppi) and §3 (planned deals, the rise played to its end,
the deciding deal, match points, penalties, forfeit). Pure and Django-free: the web layer stores the
entries and recomputes everything with :func:`fold` or :func:`lines`. A result entered from a paper
scoresheet's totals is checked against this fold in :mod:`scoring.plausibility`; the ``match`` command
of RULES.md §9 (the JSON in and out) is :mod:`scoring.match_cli`.

Public API::

    start(deals_planned, *, overwhelming=None) -> MatchState
    apply(state, entry) -> MatchState                       # one scoresheet entry
    fold(entries, deals_planned, *, overwhelming=None) -> MatchState
    lines(entries, deals_planned, *, overwhelming=None) -> tuple[Line, ...]
    sheet(entries, deals_planned, *, overwhelming=None) -> (tuple[Line, ...], MatchState)  # one fold
    overwhelming_threshold(deals_planned) -> int
    is_overwhelming(winner_total, loser_total, deals_planned, rule=None) -> bool
    match_points(winner, totals, deals_planned, *, tuppi, rule=None) -> ByPair
    check_deals_planned(value) -> int / check_rule(value) -> Overwhelming   # the two settings, checked
    pair_of_seat(seat) -> Pair
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
    "MatchState",
    "Overwhelming",
    "Pair",
    "PointsPenalty",
    "Rise",
    "RiseEnd",
    "TuppiPenalty",
    "after_end_error",
    "apply",
    "check_deals_planned",
    "check_rule",
    "fold",
    "is_overwhelming",
    "lines",
    "match_points",
    "overwhelming_threshold",
    "pair_of_seat",
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


# --- match points ------------------------------------------------------------------------------------


def check_rule(value: object) -> Overwhelming:
    """The overwhelming rule named by ``value`` (None: :data:`DEFAULT_OVERWHELMING`); refuses any other."""
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
    n = check_deals_planned(deals_planned)
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
    if check_rule(rule) is Overwhelming.MARGIN:
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


def check_deals_planned(value: object) -> int:
    """``value`` if it is a planned deal count N (a whole number of at least 1); refuses anything else."""
    if not is_whole(value) or value < 1:
        raise ScoringError(
            "deals_planned_invalid",
            f"deals_planned must be a whole number of at least 1, not {value!r}",
            deals_planned=value,
        )
    return value


def start(deals_planned: int, *, overwhelming: object = None) -> MatchState:
    """The empty scoresheet: at the table, 0–0, no deal played (RULES.md §2–3)."""
    return MatchState(deals_planned=check_deals_planned(deals_planned), overwhelming=check_rule(overwhelming))


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

