"""What the open matches of a group can still bring (the model of :mod:`scoring.prospects`): the group
prepared for the search, each open match's six outcomes (a win 5–0, 4–1 or 3–2 for either pair), and the
open matches the search has fixed so far (:class:`Assignment`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import ScoringError
from scoring.standings import MatchResult, Pair, Primary

# RULES §3: the winner's match points in the three kinds of win; the loser gets 5 minus them.
_WIN_POINTS = (5, 4, 3)


def check_remaining(remaining: Iterable[Any], pairs: tuple[Pair, ...], played: Mapping[frozenset, Any]
                    ) -> list[tuple[Pair, Pair]]:
    """The open matches as pairs of pair ids, checked (``bad_input``, ``unknown_pair``, ``self_match``,
    ``duplicate_match``; see the module docstring of :mod:`scoring.prospects`)."""
    if isinstance(remaining, str | bytes) or not isinstance(remaining, Iterable):
        raise ScoringError("bad_input", "remaining must be a list of two-pair matches")
    known = set(pairs)
    seen: set[frozenset] = set()
    opens: list[tuple[Pair, Pair]] = []
    for index, item in enumerate(remaining, start=1):
        if isinstance(item, str | bytes) or not isinstance(item, Iterable):
            raise ScoringError("bad_input", f"open match {index} must be two pair ids", remaining=index)
        sides = tuple(item)
        if len(sides) != 2:
            raise ScoringError("bad_input", f"open match {index} must be two pair ids", remaining=index)
        for pair in sides:
            if pair not in known:
                raise ScoringError(
                    "unknown_pair",
                    f"open match {index} names pair {pair!r}, which is not in this group",
                    remaining=index,
                    pair=pair,
                )
        a, b = sides
        if a == b:
            raise ScoringError(
                "self_match", f"open match {index}: pair {a!r} cannot play itself", remaining=index, pair=a
            )
        key = frozenset(sides)
        if key in played or key in seen:
            raise ScoringError(
                "duplicate_match",
                f"open match {index}: {a!r} and {b!r} have already met or are listed twice",
                remaining=index,
                a=a,
                b=b,
            )
        seen.add(key)
        opens.append((a, b))
    return opens


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way an open match can end: key gains on step 1, whether it is a points win, the result."""

    winner: int
    loser: int
    gain_winner: int
    gain_loser: int
    points_win: bool  # 4–1 or 3–2 (the winner's share is greater); False for a tuppi 5–0
    result: MatchResult
    code: int  # 0..5, which of the six outcomes of its match; 6.. for a merged one (below)
    # A merged outcome stands for the three splits of one winner when one of the two pairs is certainly
    # above or below p whichever split it is: ``flex`` is the other pair, whose gain is then anything from
    # its gain here up to 2 more under match points (a loser 0–2, a winner 3–5; under wins the splits
    # gain alike); -1 when there is none to track.
    flex: int = -1
    flex_win: bool = False


def points_wins_needed(primary: Primary, most: int) -> list[list[int]]:
    """``table[j][d]``: the fewest points wins (4–1, 3–2) among j open matches that give d match points.

    Under ``primary="wins"`` step 1 counts wins and every win may be a 5–0, so it is always 0. Under match
    points a match gives 0, 1, 2 or 5 without a points win and 3 or 4 only with one.
    """
    table = [[0]]
    for j in range(1, most + 1):
        row = []
        for d in range(5 * j + 1):
            if primary == "wins":
                row.append(0)
                continue
            best = None
            for gain in range(6):
                if 0 <= d - gain <= 5 * (j - 1):
                    cost = table[j - 1][d - gain] + (1 if gain in (3, 4) else 0)
                    best = cost if best is None else min(best, cost)
            row.append(best if best is not None else 0)
        table.append(row)
    return table


class Group:
    """One group prepared for the searches: pairs by index, step-1 values, open matches and outcomes."""

    def __init__(
        self,
        pairs: tuple[Pair, ...],
        results_by_pair: Mapping[frozenset, MatchResult],
        key: Mapping[Pair, int],
        totals: Mapping[Pair, int],
        opens: list[tuple[Pair, Pair]],
        playoffs: Mapping[frozenset, tuple[Pair, ...]],
        primary: Primary,
    ) -> None:
        self.pairs = pairs
        self.n = len(pairs)
        self.index = {pair: i for i, pair in enumerate(pairs)}
        self.finished = dict(results_by_pair)
        self.base_key = [key[pair] for pair in pairs]
        self.fixed_totals = [totals[pair] for pair in pairs]
        self.playoffs = playoffs
        self.primary = primary
        # Step 1 gains: match points, or wins (Decision (RULES §4, step 1) in scoring.standings).
        self.step = 5 if primary == "match_points" else 1
        self.winner_least = 3 if primary == "match_points" else 1  # what a winner gains at least
        self.flex = 2 if primary == "match_points" else 0  # how far the three splits of a win differ
        self.loser_most = 2 if primary == "match_points" else 0  # what a loser gains at most
        self.ends: list[tuple[int, int]] = []
        self.outcomes: list[tuple[Outcome, ...]] = []
        self.matches_of: list[list[int]] = [[] for _ in pairs]
        for number, (a, b) in enumerate(opens):
            i, j = self.index[a], self.index[b]
            self.ends.append((i, j))
            self.matches_of[i].append(number)
            self.matches_of[j].append(number)
            ways = []
            for w, lose in ((i, j), (j, i)):
                for points in _WIN_POINTS:
                    wp, lp = pairs[w], pairs[lose]
                    result = MatchResult(wp, lp, wp, {wp: points, lp: 5 - points}, {wp: 0, lp: 0})
                    if primary == "match_points":
                        gains = (points, 5 - points)
                    else:
                        gains = (1, 0)
                    ways.append(Outcome(w, lose, gains[0], gains[1], points != 5, result, len(ways)))
            self.outcomes.append(tuple(ways))
        self.kappa = points_wins_needed(primary, max((len(m) for m in self.matches_of), default=0))
        self.zeros = dict.fromkeys(pairs, 0)


class Assignment:
    """The open matches fixed so far on one branch of a search, and what they make of the group: each pair's
    least step-1 value (``key``), how much more it can still gain (``spread``), its matches still open
    (``unfixed``) and merged (``flex_loss``, ``flex_win``), and the results between pairs (``mutual``) that
    the tie-breaks read. :meth:`apply` and :meth:`undo` change it in place, so the parts of the search that
    read it hold the same lists."""

    def __init__(self, group: Group) -> None:
        self.g = group
        self.key = list(group.base_key)
        self.unfixed = [len(ms) for ms in group.matches_of]
        # How much more each pair can still gain: its open matches and its merged ones.
        self.spread = [group.step * len(ms) for ms in group.matches_of]
        self.flex_loss = [0] * group.n
        self.flex_win = [0] * group.n
        self.assigned: list[Outcome | None] = [None] * len(group.ends)
        self.fixed: list[int] = []  # the assigned matches, in order
        self.mutual = dict(group.finished)

    def apply(self, m: int, o: Outcome) -> None:
        """Open match ``m`` ends with outcome ``o``."""
        self.assigned[m] = o
        self.fixed.append(m)
        self.key[o.winner] += o.gain_winner
        self.key[o.loser] += o.gain_loser
        self.unfixed[o.winner] -= 1
        self.unfixed[o.loser] -= 1
        step = self.g.step
        self.spread[o.winner] -= step
        self.spread[o.loser] -= step
        if o.code >= 6:
            if o.flex >= 0:
                self.spread[o.flex] += self.g.flex
                (self.flex_win if o.flex_win else self.flex_loss)[o.flex] += 1
            return  # a certain pair is never level with p: its result is never looked up
        self.mutual[frozenset((self.g.pairs[o.winner], self.g.pairs[o.loser]))] = o.result

    def undo(self, m: int, o: Outcome) -> None:
        """Open match ``m`` is open again (``o`` was the last outcome applied)."""
        self.assigned[m] = None
        self.fixed.pop()
        self.key[o.winner] -= o.gain_winner
        self.key[o.loser] -= o.gain_loser
        self.unfixed[o.winner] += 1
        self.unfixed[o.loser] += 1
        step = self.g.step
        self.spread[o.winner] += step
        self.spread[o.loser] += step
        if o.code >= 6:
            if o.flex >= 0:
                self.spread[o.flex] -= self.g.flex
                (self.flex_win if o.flex_win else self.flex_loss)[o.flex] -= 1
            return
        del self.mutual[frozenset((self.g.pairs[o.winner], self.g.pairs[o.loser]))]

