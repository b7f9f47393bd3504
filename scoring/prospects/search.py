"""The search of :mod:`scoring.prospects` for one pair's best or worst place: iterative deepening on the
answer, each try a depth-first enumeration of the open matches that can still decide it.

A node fixes one open match between two pairs that can both still end level with p on step 1 (p's own
first, then the rivals' busiest), trying its outcomes most promising first and merging the splits that no
longer matter (:meth:`Search.children`). Each node is bounded by step 1 alone
(:class:`scoring.prospects.bounds.MatchPointBounds`) and looked up in a memo of states that cannot do
better; a node with no such match left is a leaf (:class:`scoring.prospects.ties.Ties`).
"""

from __future__ import annotations

from scoring.prospects.bounds import MatchPointBounds
from scoring.prospects.outcomes import Assignment, Group, Outcome
from scoring.prospects.ties import Ties


class _Stop(Exception):
    """A completion reaches the place being tried: the search for it is over."""


class Search:
    """The search for one pair's (``centre``) best or worst place (``mode`` ``"best"`` / ``"worst"``)."""

    def __init__(self, group: Group, centre: int, mode: str) -> None:
        self.g = group
        self.p = centre
        self.best_mode = mode == "best"
        self.done = Assignment(group)
        self.key = self.done.key
        self.spread = self.done.spread
        self.bounds = MatchPointBounds(group, centre, self.best_mode, self.done)
        self.ties = Ties(group, centre, self.best_mode, self.done)
        self.value = group.n + 1 if self.best_mode else 0
        self.target = 0
        self.memo: dict[tuple, int] = {}

    def run(self) -> int:
        """Iterative deepening on the answer: try the bound at the root first, then one place worse,
        until a completion reaches it (each failed try proves that place unreachable; the memo keeps
        what it learnt for the next)."""
        p_lo, p_hi, above, below, relevant, inner, bound = self.bounds.classify(self.value)
        if self.bounds.alone(relevant, inner, p_lo, p_hi):
            return bound
        # A tighter start: how many rivals at most can stay on p's side of its best value (best mode)
        # or get to p's worst value (worst mode) all at once.
        rivals = sum(relevant) - 1
        most = self.bounds.most_rivals(relevant, inner, p_lo, p_hi)
        if self.best_mode:
            bound = max(bound, 1 + above + rivals - most)
        else:
            bound = min(bound, 1 + above + most)
        targets = range(bound, self.g.n + 1) if self.best_mode else range(bound, 0, -1)
        for target in targets:
            self.target = target
            self.value = target + 1 if self.best_mode else target - 1
            try:
                self.node()
            except _Stop:
                return self.value
        raise AssertionError("every group order has a place for every pair")  # pragma: no cover

    def node(self) -> None:
        """One node: bound it, look it up in the memo, then place p at a leaf or fix one more open match."""
        g, p, done = self.g, self.p, self.done
        p_lo, p_hi, above, below, relevant, inner, bound = self.bounds.classify(self.value)
        if bound >= self.value if self.best_mode else bound <= self.value:
            return
        state = self.state(relevant, above, below, inner)
        known = self.memo.get(state)
        if known is not None and (known >= self.value if self.best_mode else known <= self.value):
            return
        if not inner:
            self.value = self.ties.leaf(relevant, above, self.value)
            if self.value <= self.target if self.best_mode else self.value >= self.target:
                raise _Stop
        else:
            m = self.choose(inner)
            a, b = g.ends[m]
            for outcome in self.order(self.children(m, p_lo, p_hi)):
                if p != a and p != b and self.bounds.child_pruned(outcome, p_lo, p_hi, above, below, self.value):
                    continue
                done.apply(m, outcome)
                self.node()
                done.undo(m, outcome)
        # Memo: no completion below this state does better than ``self.value`` (what was pruned was no
        # better than the value at the time, and the value only improves).
        self.memo[state] = self.value

    def state(self, relevant: list[bool], above: int, below: int, inner: list[int]) -> tuple:
        """What the rest of the search depends on: the certain counts, each pair that can still meet p
        with its step-1 value and matches left, the open matches between two such pairs, the fixed results
        between two such pairs (tie-breaks, totals), and for each such pair the fixed results against the
        others (they only make it free on totals and may force gains)."""
        done = self.done
        ends, assigned, key, unfixed = self.g.ends, done.assigned, done.key, done.unfixed
        outside = [0] * self.g.n
        fixed_inside = []
        for m in done.fixed:
            a, b = ends[m]
            o = assigned[m]
            if o.flex >= 0 or o.code >= 6:  # type: ignore[union-attr]
                continue  # merged: one side is certain, the other's part is in its flex counts
            if relevant[a]:
                if relevant[b]:
                    fixed_inside.append(m * 8 + o.code)  # type: ignore[union-attr]
                else:
                    outside[a] += 1 + 64 * (o.winner == a and o.points_win)  # type: ignore[union-attr]
            elif relevant[b]:
                outside[b] += 1 + 64 * (o.winner == b and o.points_win)  # type: ignore[union-attr]
        pairs = tuple(
            (key[x], unfixed[x], outside[x], done.flex_loss[x], done.flex_win[x]) if rel else None
            for x, rel in enumerate(relevant)
        )
        return (above, below, pairs, tuple(inner), tuple(sorted(fixed_inside)))

    def choose(self, inner: list[int]) -> int:
        """p's own matches first; then a match of the rivals with the most matches still open among
        them, whose results move the most rivals at once."""
        g, p = self.g, self.p
        for m in inner:
            if p in g.ends[m]:
                return m
        degree = [0] * g.n
        for m in inner:
            a, b = g.ends[m]
            degree[a] += 1
            degree[b] += 1
        return max(inner, key=lambda m: degree[g.ends[m][0]] + degree[g.ends[m][1]])

    def children(self, m: int, p_lo: int, p_hi: int) -> list[Outcome]:
        """The outcomes of open match m worth telling apart. When, for one winner, one of the two pairs is
        certainly above p (or certainly below) whichever of the three splits it is, that pair no longer
        matters and the three splits differ only in the other pair's gain: they become one merged outcome
        whose other pair keeps that gain open (a loser 0–2 more, a winner 3–5), like an open match."""
        g, p = self.g, self.p
        a, b = g.ends[m]
        ways = g.outcomes[m]
        if p in (a, b):
            return list(ways)
        step = g.step

        def side(x: int, gain: int) -> int:
            lo = self.key[x] + gain
            if lo > p_hi:
                return 1
            if lo + self.spread[x] - step < p_lo:
                return -1
            return 0

        result: list[Outcome] = []
        for w, lose in ((a, b), (b, a)):
            splits = [o for o in ways if o.winner == w]
            winner_sides = {side(w, o.gain_winner) for o in splits}
            loser_sides = {side(lose, o.gain_loser) for o in splits}
            most, least = max(splits, key=lambda o: o.gain_winner), min(splits, key=lambda o: o.gain_winner)
            if len(winner_sides) == 1 and 0 not in winner_sides:
                gain_w = least.gain_winner if 1 in winner_sides else most.gain_winner
                if len(loser_sides) == 1 and 0 not in loser_sides:
                    gain_l = most.gain_loser if 1 in loser_sides else least.gain_loser
                    result.append(Outcome(w, lose, gain_w, gain_l, False, most.result, 8))
                else:
                    result.append(Outcome(w, lose, gain_w, most.gain_loser, False, most.result, 6, lose, False))
            elif len(loser_sides) == 1 and 0 not in loser_sides:
                gain_l = most.gain_loser if 1 in loser_sides else least.gain_loser
                result.append(Outcome(w, lose, least.gain_winner, gain_l, False, most.result, 7, w, True))
            else:
                result.extend(splits)
        return result

    def order(self, ways: list[Outcome]) -> list[Outcome]:
        """Outcomes most promising first, so that a good bound is found early."""
        p = self.p

        def score(o: Outcome) -> tuple:
            if p == o.winner:
                return (-o.gain_winner,) if self.best_mode else (o.gain_winner,)
            if p == o.loser:
                return (-o.gain_loser,) if self.best_mode else (o.gain_loser,)
            new_w = self.key[o.winner] + o.gain_winner
            new_l = self.key[o.loser] + o.gain_loser
            # Best mode keeps both rivals as low as it can, worst mode both as high.
            return (max(new_w, new_l),) if self.best_mode else (-min(new_w, new_l),)

        ways.sort(key=score)
        return ways
