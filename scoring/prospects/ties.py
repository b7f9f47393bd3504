"""The leaf of the search of :mod:`scoring.prospects`: no open match is left between two pairs that can still
end level with p on step 1, so each such pair's step-1 value can be anything in its range independently of
the others. :class:`Ties` tries each value of p's and each choice of who ends level with p, and places p
among the level pairs by the rest of RULES §4 "Group order": the tie-breaks of steps 2–3
(:func:`scoring.standings.resolve_level`), the rise totals of step 4 that the model allows
(:func:`scoring.prospects.totals.totals_orders`) and the recorded play-offs of step 5.
"""

from __future__ import annotations

from scoring.prospects.outcomes import Assignment, Group
from scoring.prospects.totals import totals_orders
from scoring.standings import resolve_level


class Ties:
    """p's best (best mode) or worst (worst mode) place at a leaf, reading the search's :class:`Assignment`
    (the same lists and results, changed in place as the search fixes matches). The places of each level
    set are cached for the whole search."""

    def __init__(self, group: Group, centre: int, best_mode: bool, done: Assignment) -> None:
        self.g = group
        self.p = centre
        self.best_mode = best_mode
        self.key = done.key
        self.spread = done.spread
        self.unfixed = done.unfixed
        self.flex_loss = done.flex_loss
        self.flex_win = done.flex_win
        self.assigned = done.assigned
        self.mutual = done.mutual
        self.cache: dict[tuple, int] = {}

    def leaf(self, relevant: list[bool], above: int, value: int) -> int:
        """The best (best mode: least) or worst (worst mode: greatest) of ``value`` and every place p reaches
        at this leaf; ``relevant`` are the pairs that can still meet p, ``above`` how many are certainly
        above it."""
        g, p = self.g, self.p
        others = [x for x in range(g.n) if relevant[x] and x != p]
        memo: dict[tuple[frozenset, int], int] = {}
        lo_p = self.key[p]
        for level_value in range(lo_p, lo_p + self.spread[p] + 1):
            count, fixed_level, optional = self.sides(others, above, level_value)
            for mask in range(1 << len(optional)):
                level = list(fixed_level)
                extra = count
                for bit, (x, other_above) in enumerate(optional):
                    if mask >> bit & 1:
                        level.append(x)
                    else:
                        extra += other_above
                if self.best_mode and extra + 1 >= value:
                    continue
                if not self.best_mode and extra + len(level) <= value:
                    continue
                key = (frozenset(level), level_value)
                if key not in memo:
                    memo[key] = self.within(level, level_value)
                if self.best_mode:
                    value = min(value, extra + memo[key])
                else:
                    value = max(value, extra + memo[key])
        return value

    def sides(self, others: list[int], above: int, level_value: int) -> tuple[int, list[int], list[tuple[int, int]]]:
        """With p's step-1 value ``level_value``: how many pairs the mode puts on the far side of p (above it
        in best mode, at least ``above``; below it in worst mode they do not count), the pairs that must
        end level with p (p first), and the pairs that may (each with 1 if its other choice is above p)."""
        count = above
        fixed_level = [self.p]
        optional: list[tuple[int, int]] = []  # (pair, 1 if its other choice is above p else 0)
        for x in others:
            lo = self.key[x]
            hi = lo + self.spread[x]
            can_above, can_level, can_below = hi > level_value, lo <= level_value <= hi, lo < level_value
            if self.best_mode:
                if can_below:
                    if can_level:
                        optional.append((x, 0))
                elif can_level:
                    if can_above:
                        optional.append((x, 1))
                    else:
                        fixed_level.append(x)
                else:
                    count += 1
            else:
                if can_above:
                    if can_level:
                        optional.append((x, 1))
                    else:
                        count += 1
                elif can_level:
                    if can_below:
                        optional.append((x, 0))
                    else:
                        fixed_level.append(x)
        return count, fixed_level, optional

    def within(self, level: list[int], level_value: int) -> int:
        """p's best (best mode) or worst (worst mode) place inside ``level``, the pairs level with it on
        step 1 when its step-1 value is ``level_value``, 1-based."""
        if len(level) == 1:
            return 1
        # The answer depends only on the results among ``level`` and, for each of its pairs, its step-1
        # value, its matches left and its fixed results against the others (totals facts): cache on that.
        g = self.g
        inside = set(level)
        among = []
        facts = dict.fromkeys(level, 0)
        for m, o in enumerate(self.assigned):
            if o is None:
                continue
            a, b = g.ends[m]
            if o.code >= 6:
                continue  # merged: one side is certain (not in ``level``), the other's flex counts below
            if a in inside and b in inside:
                among.append((m, o.winner, o.result.match_points[o.result.winner]))
            elif a in inside or b in inside:
                q = a if a in inside else b
                facts[q] += 1 + 64 * (o.winner == q and o.points_win)
        key = (
            frozenset(level),
            level_value,
            tuple(among),
            tuple(
                (q, self.key[q], self.unfixed[q], facts[q], self.flex_loss[q], self.flex_win[q])
                for q in sorted(level)
            ),
        )
        known = self.cache.get(key)
        if known is None:
            known = self.cache[key] = self.place_within(level, level_value)
        return known

    def place_within(self, level: list[int], level_value: int) -> int:
        """:meth:`within` uncached: steps 2–3 among ``level``, then steps 4–5 among the pairs still level
        with p (:meth:`by_totals`)."""
        g = self.g
        centre = g.pairs[self.p]
        blocks = resolve_level([g.pairs[x] for x in level], self.mutual, g.zeros)
        offset = 0
        for block, _how in blocks:
            if centre in block:
                break
            offset += len(block)
        if len(block) == 1:
            return offset + 1
        # With equal totals p shares a place with ``block``: these pairs reach step 4 together.
        return offset + self.by_totals([g.index[x] for x in block], level_value)

    def least_points_wins(self, full: int, losses: int, wins: int, gain: int) -> int:
        """The fewest 4–1 / 3–2 wins with which ``full`` open matches (0–5 each), ``losses`` merged losses
        (0–2 more each, never a win) and ``wins`` merged wins (3–5 each, where only 5 is a tuppi) give
        ``gain`` more step-1 points (merged wins counted from 3)."""
        g = self.g
        if g.primary == "wins":
            return 0  # every win may be a 5–0
        best = None
        for from_wins in range(0, min(gain, 2 * wins) + 1):
            cost_wins = wins - from_wins // 2
            rest = gain - from_wins
            for from_losses in range(0, min(rest, 2 * losses) + 1):
                left = rest - from_losses
                if 0 <= left <= 5 * full:
                    cost = cost_wins + g.kappa[full][left]
                    best = cost if best is None else min(best, cost)
        return best if best is not None else 0

    def by_totals(self, members: list[int], level_value: int) -> int:
        """Steps 4–5 for the pairs ``members`` (p among them): p's best place (best mode: the top of its
        shared place) or worst place (worst mode: the bottom of it) inside them, 1-based, over every order
        of the final rise totals that the model allows (:func:`scoring.prospects.totals.totals_orders`)."""
        g, p = self.g, self.p
        forced, bound_to = self.totals_facts(members, level_value)
        fixed = {q: g.fixed_totals[q] for q in members}
        # Pairs that cannot gain first: they have the fewest choices, so dead ends show early.
        others = sorted((q for q in members if q != p), key=lambda q: bound_to[q] is None)
        size = len(members)
        # Best mode tries "below" first (it never puts p lower than "above" does), worst mode "above".
        choices = ("B", "E", "A") if self.best_mode else ("A", "E", "B")
        relation: dict[int, str] = {}
        found = [size + 1 if self.best_mode else 0]

        def place() -> None:
            offset, size_of_block = self.place_by_order(members, others, relation)
            if self.best_mode:
                found[0] = min(found[0], offset + 1)
            else:
                found[0] = max(found[0], offset + size_of_block)

        def extend(i: int, above: int, below: int) -> None:
            if self.best_mode and above + 1 >= found[0]:
                return
            if not self.best_mode and size - below <= found[0]:
                return
            if not totals_orders(p, members, fixed, forced, bound_to, relation):
                return
            if i == len(others):
                place()
                return
            q = others[i]
            for rel in choices:
                relation[q] = rel
                extend(i + 1, above + (rel == "A"), below + (rel == "B"))
            del relation[q]

        extend(0, 0, 0)
        return found[0]

    def totals_facts(
        self, members: list[int], level_value: int
    ) -> tuple[dict[int, int], dict[int, tuple[int, ...] | None]]:
        """For each of ``members`` (level with p on steps 1–3 when p's step-1 value is ``level_value``): how
        many of its open matches it wins on points at least (``forced``), and ``bound_to`` — None for a pair
        free to raise its total, else the members it lost to on points (see
        :func:`scoring.prospects.totals.totals_orders`)."""
        g = self.g
        inside = set(members)
        forced: dict[int, int] = {}
        bound_to: dict[int, tuple[int, ...] | None] = {}
        for q in members:
            u, nl, nw = self.unfixed[q], self.flex_loss[q], self.flex_win[q]
            # A match against a pair that cannot meet p (open, or merged) gives a free share.
            free = u + nl + nw > 0
            # Decision (points win): only 4–1 and 3–2 force a gain; take the fewest the key allows.
            wins = self.least_points_wins(u, nl, nw, level_value - self.key[q]) if free else 0
            winners: list[int] = []
            for m in g.matches_of[q]:
                o = self.assigned[m]
                if o is None or o.code >= 6:
                    continue
                if o.winner == q:
                    free = True
                    wins += o.points_win
                elif not o.points_win or o.winner not in inside:
                    free = True
                else:
                    winners.append(o.winner)
            forced[q] = wins
            bound_to[q] = None if free else tuple(winners)
        return forced, bound_to

    def place_by_order(self, members: list[int], others: list[int], relation: dict[int, str]) -> tuple[int, int]:
        """Steps 4–5 with one order of the rise totals (``relation``: each other member above, level with or
        below p): how many of ``members`` rank before p, and the size of p's shared place, with the recorded
        play-offs applied where they fit (:func:`scoring.standings.resolve_level`)."""
        g = self.g
        centre = g.pairs[self.p]
        # Representative totals with this order: above 2, level 1, below 0 (only the order counts).
        totals = {g.pairs[q]: {"A": 2, "E": 1, "B": 0}[relation[q]] for q in others}
        totals[centre] = 1
        blocks = resolve_level([g.pairs[q] for q in members], self.mutual, totals, g.playoffs)
        offset = 0
        for block, _how in blocks:
            if centre in block:
                break
            offset += len(block)
        return offset, len(block)
