"""The constructions of the pooled model (``scoring.cup_reach`` docstring, step 7): ways of serving the
needs that are real outcomes, so each count they serve is a lower bound on the most that can pass X.

Pure: no Django. :class:`Constructions` is mixed into ``scoring.cup_reach_pool._Pooled`` and reads its
attributes (``values``, ``pts``, ``legs``, ``width``, ``per_place``, ``items``, ``tries_left``, ``kept``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate, combinations_with_replacement, groupby


class Constructions:
    """The greedy, least-points and fewest-items constructions of ``_Pooled``."""

    def greedy(self, needs, high) -> int:
        """A served count reached by one construction (hardest first): a lower bound. It mostly lands at
        or a few below ``high``, so the counts high, high - 1, high - 3, high - 7, ... are tried first,
        then bisection between the last two."""
        top = min(len(needs), high)
        runs = _runs(needs)  # once: each count tried is a prefix of them
        ends = list(accumulate(k for _, k in runs))

        def serves(m) -> bool:
            r = bisect_left(ends, m)
            prefix = [*runs[:r], (runs[r][0], m - (ends[r - 1] if r else 0))] if m else []
            return self._greedy_on(reversed(prefix))

        lo, step = 0, 1
        while top > lo:
            probe = min(top, max(high - step + 1, 1))
            if serves(probe):
                lo = probe
                break
            top, step = probe - 1, step * 2
        while lo < top:
            mid = (lo + top + 1) // 2
            if serves(mid):
                lo = mid
            else:
                top = mid - 1
        return lo

    def _greedy_serves(self, needs, after=0) -> bool:
        """Does the greedy serve every need (ascending), from the places after ``after``?"""
        return self._greedy_on(reversed(_runs(needs)), after)

    def _greedy_on(self, runs, after=0) -> bool:
        """The greedy over ``runs`` of needs, (need, how many), the hardest first."""
        pool = (
            list(self.items)
            if not after
            else sorted(v for v in self.values[after:] for _ in range(self.per_place))
        )
        for d, k in runs:
            j = bisect_right(pool, d)
            singles = min(k, len(pool) - j)
            del pool[j : j + singles]  # the worst single items that are enough, one a need
            for _ in range(k - singles):
                if not pool:
                    return False
                got, taken = pool.pop(), 1  # no single is enough: the best item, then the worst completing
                while True:
                    if taken == self.legs or not pool:
                        return False
                    j = bisect_right(pool, d - got)
                    if j < len(pool):
                        pool.pop(j)
                        break
                    got += pool.pop()
                    taken += 1
        return True

    def constructs(self, needs, m=None) -> bool:
        """Does one of the constructions serve the ``m`` easiest needs (all by default)? The fewest items,
        then the least points (while the season's ``tries_left`` lasts: one a try). The least points
        serve more fields, but the fewest items cost less and serve enough of them to go first (on the
        benchmark's seasons, 4 % less time)."""
        needs = needs[:m]
        if self.fewest_items_serves(needs):
            return True
        if self.tries_left > 0:
            self.tries_left -= 1
            return self.least_points_serves(needs)
        return False

    def fewest_items_serves(self, needs) -> bool:
        """A second construction (hardest need first): the fewest items that beat the need, and of
        those the smallest gain, from what is left. True: every need is served (a lower bound)."""
        legs, width = self.legs, self.width
        left = [self.per_place] * width
        for d, k in _runs(reversed(needs)):
            while k:
                found = None
                for size in range(1, legs + 1):
                    found = self._cheapest_pick(d, size, left)
                    if found is not None:
                        break
                if found is None:
                    return False
                k -= _take(found, k, left)
        return True

    def least_points_serves(self, needs) -> bool:
        """A third construction (easiest need first): each need takes, from the items left, the pattern
        beating it of the fewest points (of those the fewest items, then the smallest gain): it keeps the
        better places for the harder needs and combines the cheap items. True: every need is served (a
        lower bound).

        Of the patterns of one size the fewest points are the smallest gain, so each size's patterns
        ascend by gain, and the first one still possible above the need is that size's best."""
        sizes = self._pattern_table()
        left = [self.per_place] * self.width
        # after[s][j]: a pattern of size s + 1 at or after j still possible (links, compressed on use)
        after = [list(range(len(gains) + 1)) for gains, _, _ in sizes]
        for d, k in _runs(needs):
            while k:
                uses = self._least_pick(d, sizes, after, left)
                if uses is None:
                    return False
                times = min(k, *(left[p] // c for p, c in uses))
                k -= times
                for p, c in uses:
                    left[p] -= c * times
                    if not left[p]:  # the place is used up: so is every pattern holding it
                        for nxt, (_, _, holding) in zip(after, sizes, strict=True):
                            for i in holding[p]:
                                nxt[i] = i + 1
        return True

    @staticmethod
    def _least_pick(d, sizes, after, left):
        """The pattern (((place, count), ...)) of :meth:`least_points_serves` for need ``d``, or None."""
        best = uses = None
        for size, (gains, rows, _) in enumerate(sizes):
            nxt, n = after[size], len(gains)
            j = bisect_right(gains, d)
            if best is not None and j < n and rows[j][0] >= best:
                continue  # the size's patterns ascend by points: none has fewer than the best's
            while True:
                root = j
                while nxt[root] != root:
                    root = nxt[root]
                while j != root:  # every link on the way now points at the root
                    nxt[j], j = root, nxt[j]
                if j == n:
                    break
                points, pattern, repeats = rows[j]
                # a pattern holding a place twice or more may ask more than is left of it
                if not repeats or all(left[p] >= c for p, c in pattern):
                    if best is None or points < best:
                        best, uses = points, pattern
                    break
                j += 1
        return uses

    def _pattern_table(self):
        """For each size 1..``legs``, every multiset of that many places ascending by gain: (gains,
        [(points, ((place, count), ...), a place held twice or more)], for each place the indexes of
        the patterns holding it)."""
        kept = self.kept
        if kept.patterns is None:
            val = self.values
            kept.patterns = [
                ([sum(map(val.__getitem__, c)) for c in combos], rows, holding)
                for combos, rows, holding in _pattern_shape(tuple(self.pts), self.legs)
            ]
        return kept.patterns

    def _cheapest_pick(self, d, size, left):
        """The ``size`` available places (indexes, best first) of the smallest gain above ``d``
        (``left``: the items left of each place, restored on return)."""
        val, width = self.values, self.width
        best = None

        def pick(start, chosen, gain):
            nonlocal best
            more = size - len(chosen)
            if more == 1:
                # the worst available place from start on that completes the gain
                for p in range(width - 1, start - 1, -1):
                    if left[p] and gain + val[p] > d:
                        if best is None or gain + val[p] < best[0]:
                            best = (gain + val[p], (*chosen, p))
                        return
                return
            for p in range(start, width):
                if gain + more * val[p] <= d:
                    return  # the places after p are worth less still
                if left[p]:
                    left[p] -= 1
                    pick(p, (*chosen, p), gain + val[p])
                    left[p] += 1

        pick(0, (), 0)
        return None if best is None else best[1]


@lru_cache(maxsize=16)
def _pattern_shape(pts, legs):
    """What :meth:`Constructions._pattern_table` holds that is the same for every season of one points
    table and number of legs (kept once a process): for each size, the multisets of that many places
    ascending by gain, that is by points and then place counts (the order of the encoded gains), their
    rows and, for each place, the indexes of the patterns holding it."""
    width = len(pts)
    out = []
    for size in range(1, legs + 1):
        combos = list(combinations_with_replacement(range(width), size))
        combos.sort(key=lambda c: (sum(pts[p] for p in c), tuple(c.count(q) for q in range(width))))
        rows = []
        holding = [[] for _ in range(width)]
        for j, c in enumerate(combos):
            uses = tuple((p, c.count(p)) for p in sorted(set(c)))
            rows.append((sum(pts[p] for p in c), uses, len(uses) < size))
            for p, _ in uses:
                holding[p].append(j)
        out.append((combos, rows, holding))
    return out


def _runs(needs):
    """(need, how many times in a row) over ``needs``: a pattern that is a need's best stays its best
    while all of it is left (items only go), so a construction takes it for the whole run at once."""
    return [(d, len(list(run))) for d, run in groupby(needs)]


def _take(places, k, left) -> int:
    """Take the pattern ``places`` (a place once per item) for up to ``k`` needs from ``left``: how many."""
    times = min(k, *(left[p] // places.count(p) for p in places))
    for p in places:
        left[p] -= times
    return times
