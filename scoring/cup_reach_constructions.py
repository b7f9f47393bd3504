"""The constructions of the pooled model (``scoring.cup_reach`` docstring, step 7): ways of serving the
needs that are real outcomes, so each count they serve is a lower bound on the most that can pass X.

Pure: no Django. :class:`Constructions` is mixed into ``scoring.cup_reach_pool._Pooled`` and reads its
attributes (``values``, ``pts``, ``legs``, ``width``, ``per_place``, ``items``, the budgets) and its
prices (``price_guide``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import combinations_with_replacement, groupby

# The least-points constructions (docstring step 7), tried in this order: (the points an item after
# the first counts, the share of the hardest needs served first and hardest first, the points an item
# after the first counts for them); the order that decided most rows on the benchmark's seasons.
LEAST_POINTS = ((0, 0, 0), (2, 1 / 2, 100), (-1, 0, 0), (2, 0, 0), (0, 1 / 16, 0), (-4, 0, 0))


class Constructions:
    """The greedy, least-points, fewest-items and priced constructions of ``_Pooled``."""

    def greedy(self, needs, high) -> int:
        """A served count reached by one construction (hardest first), by bisection: a lower bound."""
        lo, hi = 0, min(len(needs), high)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self._greedy_serves(needs[:mid]):
                lo = mid
            else:
                hi = mid - 1
        return lo

    def _greedy_serves(self, needs, after=0) -> bool:
        pool = (
            list(self.items)
            if not after
            else sorted(v for v in self.values[after:] for _ in range(self.per_place))
        )
        for d, k in _runs(reversed(needs)):
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

    def constructs(self, needs, m=None, all_of_them=True, guide=None) -> bool:
        """Does one of the constructions serve the ``m`` easiest needs (all by default)? The least
        points, the fewest items, with ``all_of_them`` (the caller passes it when its bounds are one
        apart) the other least-points variants, then the priced construction under the prices nearest
        the linear relaxation's on all the ``needs`` (``guide``, else :meth:`price_guide`). Each
        least-points try spends one of ``tries_left`` and each priced try one of ``priced_left``, the
        season's budgets; with none left they are not tried."""
        needs, every = needs[:m], needs
        tries = [(extra, round(share * len(needs)), hard) for extra, share, hard in LEAST_POINTS]
        if self._tried() and self.least_points_serves(needs, *tries[0]):
            return True
        if self.fewest_items_serves(needs):
            return True
        if all_of_them and any(self._tried() and self.least_points_serves(needs, *t) for t in tries[1:]):
            return True
        if self.priced_left <= 0:
            return False
        self.priced_left -= 1
        return self.priced_serves(needs, guide or self.price_guide(every))

    def _tried(self) -> bool:
        """Spend one try of the season's budget: False when none is left."""
        if self.tries_left <= 0:
            return False
        self.tries_left -= 1
        return True

    def priced_serves(self, needs, cost) -> bool:
        """A fourth construction, guided by item prices (``cost[p]``, non-increasing over the places as
        the prices bound's are): each need, hardest first, takes from the items left the pattern
        beating it of the least price, of those the fewest items, then the smallest gain. Under prices
        near the linear relaxation's it serves needs as the relaxation does, each at its cheapest
        pattern. True: every need is served (a lower bound)."""
        legs, width = self.legs, self.width
        left = [self.per_place] * width
        worst = width - 1  # the worst place with items left: the cheapest item
        for d, k in _runs(reversed(needs)):
            while k:
                best = None  # ((price, size, gain), places)
                for size in range(1, legs + 1):
                    # a pattern of more items costs at least size times the cheapest item: not less
                    if best is not None and best[0][0] <= size * cost[worst]:
                        break
                    best = self._priced_pick(d, size, left, cost, best, cost[worst]) or best
                if best is None:
                    return False
                k -= _take(best[1], k, left)
                while worst >= 0 and not left[worst]:
                    worst -= 1
        return True

    def _priced_pick(self, d, size, left, cost, best, cheapest):
        """The ``size`` available places of the least (price, size, gain) above ``d`` if it beats
        ``best`` (``cheapest``: the least price of an item left), else None (``left`` restored)."""
        val, width, below = self.values, self.width, self._below
        found = best

        def last(start, chosen, gain, price):
            """The worst available place from start on that completes the gain: the cheapest."""
            nonlocal found
            p = bisect_left(below, gain - d) - 1  # the worst place whose value beats d - gain
            while p >= start and not left[p]:
                p -= 1
            if p >= start:
                rank = (price + cost[p], size, gain + val[p])
                if found is None or rank < found[0]:
                    found = (rank, (*chosen, p))

        def pick(start, chosen, gain, price):
            more = size - len(chosen)
            for p in range(start, width):
                if gain + more * val[p] <= d:
                    return  # the places after p are worth less still
                # cannot cost less (or, as few items, as much with a smaller gain)
                if not left[p] or (
                    found is not None
                    and price + cost[p] + (more - 1) * cheapest >= found[0][0] + (found[0][1] >= size)
                ):
                    continue
                left[p] -= 1
                if more == 2:
                    last(p, (*chosen, p), gain + val[p], price + cost[p])
                else:
                    pick(p, (*chosen, p), gain + val[p], price + cost[p])
                left[p] += 1

        if size == 1:
            last(0, (), 0, 0)
        else:
            pick(0, (), 0, 0)
        return None if found is best else found

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

    def least_points_serves(self, needs, extra, hardest=0, hardest_extra=0) -> bool:
        """A third construction (easiest need first): each need takes, from the items left, the pattern
        beating it whose points plus ``extra`` for each item after the first are the fewest (of those
        the fewest items, then the smallest gain). With ``hardest``, that many of the hardest needs go
        first, hardest first, their extra items counted as ``hardest_extra`` each. True: every need is
        served (a lower bound).

        Of the patterns of one size the fewest points are the smallest gain, so each size's patterns
        ascend by gain, and the first one still possible above the need is that size's best."""
        sizes = self._pattern_table()
        left = [self.per_place] * self.width
        # after[s][j]: a pattern of size s + 1 at or after j still possible (links, compressed on use)
        after = [list(range(len(gains) + 1)) for gains, _, _ in sizes]
        split = len(needs) - hardest
        order = [(d, hardest_extra) for d in reversed(needs[split:])] + [(d, extra) for d in needs[:split]]
        for (d, extra), k in _runs(order):
            while k:
                uses = self._least_pick(d, extra, sizes, after, left)
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
    def _least_pick(d, extra, sizes, after, left):
        """The pattern (((place, count), ...)) of :meth:`least_points_serves` for need ``d``, or None."""
        best = uses = None
        for size, (gains, rows, _) in enumerate(sizes):
            nxt, n = after[size], len(gains)
            j = bisect_right(gains, d)
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
                    score = points + extra * size
                    if best is None or score < best:
                        best, uses = score, pattern
                    break
                j += 1
        return uses

    def _pattern_table(self):
        """For each size 1..``legs``, every multiset of that many places ascending by gain: (gains,
        [(points, ((place, count), ...), a place held twice or more)], for each place the indexes of
        the patterns holding it)."""
        if self._patterns is None:
            val = self.values
            self._patterns = [
                ([sum(map(val.__getitem__, c)) for c in combos], rows, holding)
                for combos, rows, holding in _pattern_shape(tuple(self.pts), self.legs)
            ]
        return self._patterns

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
