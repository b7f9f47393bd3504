"""The pooled model of ``scoring.cup_reach`` (its module docstring argues it step by step): how many
candidates can pass X at once when every result counts and the legs left share one weight.

Pure: no Django. Needs and gains are (points, place counts) vectors encoded as integers (:func:`_encoder`).
The upper bounds and the search are here, the constructions (lower bounds) in
``scoring.cup_reach_constructions``, the fixed pairs' steps in ``scoring.cup_reach_pairs``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate, combinations_with_replacement, groupby
from operator import mul

from scoring.cup_reach_constructions import Constructions
from scoring.cup_reach_lp import lp_serves
from scoring.cup_reach_pairs import FixedPairs

POOLED_LEGS = 4  # above this many legs left the minimal patterns are not enumerated (the search decides)
LP_NODES = 2000  # nodes of the search completing the linear relaxation's rounded solution (cup_reach_lp)
# The item prices of the prices bound (docstring step 6, Prices): place p costs ceil((points * 2 + a) / k),
# (k, a) in this order (the most often binding first, as measured on the benchmark's seasons).
PRICE_FAMILIES = ((1, 0), (4, 0), (5, 0), (8, 1), (5, 1), (4, 1), (2, 1), (5, 2), (5, 3), (3, 0), (6, 0))


def pooled_for(hist, keys, weights2, best_n, table, cap, node_budget):
    """The pooled model when it applies (additive key, one weight, a non-increasing table), else None."""
    legs = len(weights2)
    # every result counts (newcomers' too), so a key is the sum of its results' (points, place counts)
    additive = best_n is None or all(len(h) + legs <= best_n for h in [*hist, ()])
    increasing = any(a < b for a, b in zip(table, table[1:], strict=False))
    if not additive or len(set(weights2)) != 1 or legs > POOLED_LEGS or increasing:
        return None
    width = len(table)
    w2 = weights2[0]
    gains = [
        (table[p - 1] * w2, tuple(1 if q == p else 0 for q in range(1, width + 1)))
        for p in range(1, width + 1)
    ]
    biggest = max([legs * table[0] * w2, legs] + [max(abs(k[0]), *k[1]) for k in keys])
    encode = _encoder(1 << (6 * biggest + 3).bit_length())  # a power of two: the same as the key grows
    values = [encode(g) for g in gains]
    return _Season(_Pooled(values, [g[0] for g in gains], legs, cap, node_budget), keys, encode)


def _encoder(base):
    """Lex order of (points, counts...) as one integer: linear, and order-preserving for vectors whose
    components stay below base / 2 in size (so ``gain > T - K`` is ``enc(gain) > enc(T) - enc(K)``)."""

    def encode(k):
        v = k[0]
        for c in k[1]:
            v = v * base + c
        return v

    return encode


class _Season(FixedPairs):
    """Per season: the candidates of every threshold key, solved once per distinct key."""

    def __init__(self, pooled, keys, encode):
        self.pooled, self.keys = pooled, keys
        self.enc = [encode(k) for k in keys]
        self.order = sorted(range(len(keys)), key=lambda j: -self.enc[j])  # best key first
        self.zero = encode((0, (0,) * pooled.width))
        self.sorted_enc = sorted(self.enc)
        self.done = {}
        self.outcomes = {}  # (key, target) -> the fixed pairs' outcome last found leg by leg
        self.last = None  # the last of them, (players, option) pairs
        self.lowered = set()  # the keys whose bound leg by leg was below the pooled one

    def _candidates(self, i, members=None, limit=None) -> list[int]:
        """The entrants that may pass entrant i, easiest first (newcomers and zero keys apart), at most
        ``limit`` (by default as many as the places can take); with ``members``, only those sharing no
        player with an easier one taken."""
        t, enc = self.enc[i], self.enc
        first = len(self.order) - bisect_right(self.sorted_enc, t)  # entrants ahead come first
        limit = self.pooled.total if limit is None else limit
        cands, seen = [], set()
        for j in self.order[first:]:
            if enc[j] == self.zero or len(cands) == limit:
                break
            if j == i:
                continue
            if members is not None:
                if seen & members[j]:
                    continue
                seen |= members[j]
            cands.append(j)
        return cands

    def worst(self, i, members) -> tuple[int, int, bool]:
        """(entrants that can be ahead of entrant i at once, a safe bound on it, exact)."""
        t = self.enc[i]
        tp = self.keys[i][0]
        free = len(self.sorted_enc) - bisect_right(self.sorted_enc, t)
        if members is None:  # level entrants are interchangeable: one answer per key
            memo = self.done.get(t)
            if memo is None:
                memo = self.done[t] = self._solve_now(t, tp, self._candidates(i))
            served, high, exact = memo
            return free + served, free + high, exact
        return self.worst_of_pair(i, members, free, t, tp)

    def _solve(self, t, tp, cands):
        memo = self.done.get((t, tuple(cands)))
        if memo is None:
            memo = self.done[(t, tuple(cands))] = self._solve_now(t, tp, cands)
        return memo

    def _solve_now(self, t, tp, cands):
        return self.pooled.max_served(*self.needs(t, tp, cands))

    def needs(self, t, tp, cands) -> tuple[list[int], list[int]]:
        """The needs (encoded, ascending) of the candidates ``cands`` and of newcomers against the key
        ``t`` (points ``tp``) that winning every leg beats, and their points."""
        pooled = self.pooled
        needs = [t - self.enc[j] for j in cands]
        needs_pts = [tp - self.keys[j][0] for j in cands]
        needs += [t - self.zero] * (pooled.total - len(needs))  # newcomers
        needs_pts += [tp] * (pooled.total - len(needs_pts))
        able = bisect_left(needs, pooled.top)  # ascending: the rest cannot pass even winning every leg
        return needs[:able], needs_pts[:able]


class _Pooled(Constructions):
    """The largest number of candidates that can pass X when the key is additive and the legs share one
    weight (the *pooled* model of the module docstring): exact, or a safe bound with ``exact`` False.

    ``values[p - 1]`` is the encoded gain (:func:`_encoder`) of place p, ``pts[p - 1]`` its points (times
    2); every place has ``cap * legs`` items and an entrant takes at most ``legs`` of them."""

    def __init__(self, values, pts, legs, cap, node_budget):
        self.values, self.pts, self.legs = values, pts, legs
        self.width = len(values)
        self.per_place = cap * legs
        self.total = self.per_place * self.width
        self.items = sorted(v for v in values for _ in range(self.per_place))
        self.item_pts = sorted(p for p in pts for _ in range(self.per_place))
        self.prefix_pts = [0]
        for p in self.item_pts:
            self.prefix_pts.append(self.prefix_pts[-1] + p)
        self.top = sum(values[0] for _ in range(legs))
        self.budget = node_budget
        self.season_left = 0
        self.tries_left = 10**9  # least-points constructions left to try this season
        self.lp_left = 10**9  # linear relaxations left to solve this season
        self.search_left = 10**9  # nodes of the fixed pairs' search leg by leg left this season
        self.exact_nodes = 0  # the fixed pairs' integer programme: its nodes a row (0: not solved)
        self._minimal = {}  # by need (this season's needs)
        self.kept = _kept(tuple(values), tuple(pts), legs, self.per_place)

    def _price_tables(self):
        """Per price family: the caps worth trying for the places' prices (see :meth:`upper_by_prices`),
        the cheapest price of a pattern from each gain on (a suffix minimum over the patterns' gains
        ascending), and the supply's price with every item capped at M, by M up to the dearest
        pattern's; with the patterns' gains ascending."""
        kept = self.kept
        if kept.prices is None:
            pats, tables = _price_shape(tuple(self.pts), self.legs, self.per_place)
            worth = [*self.values, 0]
            kept.prices = ([sum(map(worth.__getitem__, c)) for c in pats], tables)
        return kept.prices

    def upper_by_prices(self, needs, low=0) -> int:
        """The prices bound of the docstring: with item prices c and a cap M, the m easiest needs are
        served only if the sum over them of min(M, the cheapest pattern serving each) is at most the
        capped price of every item; the least such m over every family and cap. Stops once it reaches
        ``low`` (a count already reached).

        Between two caps where neither which needs cost less than M nor which items cost M or more
        changes, the count moves one way, so only the caps at the ends of such stretches are tried: each
        price of an item or of a need's cheapest pattern, and the first and the last cap (one more than
        a price ends no stretch: the capped sums are continuous there, so the count at it is the
        count's extension from the next stretch). The needs ascend, so do their cheapest prices: they
        are taken in runs of one cheapest pattern, cumulated once a family and bisected at each cap."""
        gains, tables = self._price_tables()
        n = len(needs)
        best = n
        # runs of needs whose cheapest pattern starts at one gain: that gain's index, the needs up to it
        at = [(j, len(list(run))) for j, run in groupby(bisect_right(gains, d) for d in needs)]
        starts = [j for j, _ in at]
        counts = [times for _, times in at]
        upto = [0, *accumulate(counts)]
        for cost_caps, cheapest, supply in tables:
            prices = list(map(cheapest.__getitem__, starts))  # non-decreasing: the needs ascend
            sums = [0, *accumulate(map(mul, prices, counts))]
            top = len(supply) - 1
            for m in sorted(cost_caps.union(prices)):
                if m < 1 or m > top:
                    continue
                r = bisect_left(prices, m)  # the runs costing less than M
                budget = supply[m]
                if sums[r] > budget:  # the most of the easiest needs whose prices fit the budget
                    q = bisect_right(sums, budget) - 1  # runs whole within it; the next is dearer than 0
                    got = upto[q] + (budget - sums[q]) // prices[q]
                else:
                    got = min(n, upto[r] + (budget - sums[r]) // m)
                if got < best:
                    best = got
                    if best <= low:
                        return best
        return best

    def max_served(self, needs, needs_pts) -> tuple[int, int, bool]:
        """``needs`` ascending (encoded), ``needs_pts`` their points: (served, upper bound, exact)."""
        high = min(self.upper(needs_pts), self.upper_by_split(needs))
        low = self.greedy(needs, high)
        if low < high:
            high = min(high, self.upper_by_prices(needs, low))
        if low < high and self.constructs(needs, high):
            low = high
        if low < high and self.lp_left > 0:
            self.lp_left -= 1
            got = lp_serves(self, needs, LP_NODES)
            if got is not None:
                low, high = max(low, got[0]), min(high, got[1])
        while low < high:
            ok = self.feasible(needs[: low + 1], needs_pts[: low + 1])
            if ok is None:
                return low, high, False
            if ok:
                low += 1
            else:
                high = low
        return low, high, True

    def upper(self, needs_pts) -> int:
        """The fractional bound of the docstring (Upper bound), over every split k."""
        n = min(len(needs_pts), self.total)
        best = n
        items, pre = self.item_pts, self.prefix_pts
        done = 0  # sum of the needs before k
        for k in range(n):
            need = needs_pts[k]
            if need > 0 and (k == 0 or need != needs_pts[k - 1]):
                below = bisect_right(items, need - 1)  # items worth less than the need
                supply = pre[below] + (len(items) - below) * need  # sum of min(need, v)
                smallest = pre[min(k, below)] + max(0, k - below) * need
                bound = k + (supply - max(done, smallest)) // need
                if bound < best:
                    best = bound
                if best <= k:
                    break
            done += max(need, 0)
        return best

    def upper_by_split(self, needs, after=0) -> int:
        """The split bound of the docstring over the places after ``after``: for every q, a served
        entrant holds an item of places after..q, or only worse items, at least as many as its need
        takes of the best of them."""
        val, legs, width = self.values, self.legs, self.width
        best = min(len(needs), self.per_place * (width - after))
        for q in range(after + 1, width):
            small, big = self.per_place * (width - q), self.per_place * (q - after)
            # s small items are enough from this need on: the needs are ascending, so are the costs
            starts = [0] + [bisect_left(needs, s * val[q]) for s in range(1, legs + 1)]
            served = cost = 0
            for s in range(1, legs + 1):  # the needs starts[s - 1]..starts[s] take s small items
                count = starts[s] - starts[s - 1]
                take = min(count, (small - cost) // s)
                served += take
                cost += take * s
                if take < count:
                    break
            best = min(best, big + served)
        return best

    def upper_by_singles(self, needs, after=0) -> int:
        """The singles bound of the docstring over the places after ``after``: with mu needs served by
        one item each at most (a matching), the others hold two items or more, so
        m <= (items + mu) // 2."""
        items = sorted(v for v in self.values[after:] for _ in range(self.per_place))
        mu = 0
        for v in items:  # ascending items against ascending needs: the greedy matching is a largest one
            if mu < len(needs) and v > needs[mu]:
                mu += 1
        return (len(items) + mu) // 2

    def minimal(self, d) -> list[tuple[int, ...]]:
        """The minimal patterns (ascending places, at most ``legs``) whose gain exceeds ``d``, fewest items
        first, then the worst places first. A pattern is minimal for exactly the needs from the largest
        gain one of its items worsened by a place gives (a place-``width`` item dropped) up to, not
        including, its own gain; that span is at most the largest step between two places' values, so
        only the patterns whose gain is within that step above ``d`` are looked at. Kept per class of
        :meth:`minimal_class` (every need of a class has the same minimal patterns)."""
        got = self._minimal.get(d)
        if got is None:
            c = self.minimal_class(d)
            got = self.kept.by_class.get(c)
            if got is None:
                gains, spans, step, _ = self._minimal_table()
                places, rank = _minimal_shape(tuple(self.pts), self.legs, self.per_place)[:2]
                found = [
                    j for j in range(bisect_right(gains, d), bisect_right(gains, d + step)) if spans[j] <= d
                ]
                got = self.kept.by_class[c] = [places[j] for j in sorted(found, key=rank.__getitem__)]
            self._minimal[d] = got
        return got

    def minimal_class(self, d) -> int:
        """The class of need ``d``: needs have the same minimal patterns iff they are in one class. A
        pattern is minimal for the needs from its span up to, not including, its gain, so the set changes
        at every span and gain (a pattern enters or leaves there) and nowhere else: the class is the
        number of those values at or below ``d``."""
        return bisect_right(self._minimal_table()[3], d)

    def _minimal_table(self):
        """The season's patterns ascending by gain: (gains, the largest gain of one item worsened by a
        place, the largest step between neighbouring places' values, the spans and gains ascending)."""
        kept = self.kept
        if kept.span is None:
            gains = self._price_tables()[0]
            worth = [*self.values, 0]
            steps = [a - b for a, b in zip(worth, worth[1:], strict=False)]
            smallest = _minimal_shape(tuple(self.pts), self.legs, self.per_place)[2]
            spans = [g - steps[p] for g, p in zip(gains, smallest, strict=True)]
            kept.span = (gains, spans, max(steps), sorted({*gains, *spans}))
        return kept.span

    def class_block(self, d):
        """The columns of need ``d``'s class in the linear relaxation (``scoring.cup_reach_lp``), kept per
        class: its minimal patterns, and for each one after the other its rows of places (0-based) and
        -1 for the need's row, their values (items of each place, 1 for the need) and lengths."""
        c = self.minimal_class(d)
        got = self.kept.blocks.get(c)
        if got is None:
            import numpy as np

            column = _minimal_shape(tuple(self.pts), self.legs, self.per_place)[3]
            pats, index, value = self.minimal(d), [], []
            for pattern in pats:
                places, times = column[pattern]
                index += [*places, -1]
                value += [*times, 1.0]
            lengths = np.array([len(column[pattern][0]) + 1 for pattern in pats], np.int32)
            got = self.kept.blocks[c] = (pats, np.array(index, np.int32), np.array(value), lengths)
        return got

    def feasible(self, needs, needs_pts) -> bool | None:
        """Can every need (ascending) be served at once? None when the node budget runs out.

        Reduction (docstring, Single items): while the best free places each serve any need alone,
        they serve the hardest needs one item each; the rest is searched on the worse places only."""
        val, width, per_place = self.values, self.width, self.per_place
        q, n = 0, len(needs)
        while n:
            alone = q
            while alone < width and val[alone] > needs[n - 1]:
                alone += 1
            if alone == q:
                break
            n = max(0, n - per_place * (alone - q))
            q = alone
        if n == 0:
            return True
        needs, needs_pts = needs[:n], needs_pts[:n]
        if n > self.upper_by_split(needs, q) or n > self.upper_by_singles(needs, q):
            return False
        if self._greedy_serves(needs, q):
            return True
        return self._search(needs, needs_pts, q)

    def _search(self, needs, needs_pts, q) -> bool | None:
        """Depth-first over minimal patterns of the places after q (hardest need first) under the
        prefix condition, cut by the upper bound of what is left."""
        width, per_place = self.width, self.per_place
        pts = self.pts[q:]
        items = sorted(p for p in pts for _ in range(per_place))
        prefix = [0]
        for v in items:
            prefix.append(prefix[-1] + v)
        total = len(items)
        n = len(needs)
        order = needs[::-1]
        # the bound's groups over the ascending needs: (k, points, needs below k, sum of min(points, v))
        groups, done = [], 0
        for k, need in enumerate(needs_pts):
            if need > 0 and (k == 0 or need != needs_pts[k - 1]):
                below = bisect_right(items, need - 1)
                groups.append((k, need, done, prefix[below] + (total - below) * need))
            done += max(need, 0)
        demand = [0] * (width + 1)
        seen = {}
        nodes = 0

        def fits(place):
            used = sum(demand[q + 1 : place])
            for r in range(place, width + 1):
                used += demand[r]
                if used > per_place * (r - q):
                    return False
            return True

        def hopeless(left, used):
            if left > total - used:
                return True
            for k, need, below, supply in groups:
                if k >= left:
                    break
                spent = sum(c * min(need, v) for c, v in zip(demand[q + 1 :], pts, strict=True) if c)
                if left > k + (supply - spent - below) // need:
                    return True
            return False

        def dfs(i, last, used):
            nonlocal nodes
            if i == n:
                return True
            nodes += 1
            if nodes > self.budget or nodes > self.season_left:
                raise _OutOfBudget
            d = order[i]
            # level needs are interchangeable: their patterns in a fixed order (symmetry), so a state
            # that failed from pattern k on fails from any later k too
            first = last if i and order[i - 1] == d else 0
            state = (i, tuple(demand))
            if seen.get(state, len(needs) + 99) <= first or hopeless(n - i, used):
                return False
            seen[state] = first
            patterns = [t for t in self.minimal(d) if t[0] > q]
            for k in range(first, len(patterns)):
                pattern = patterns[k]
                for p in pattern:
                    demand[p] += 1
                if fits(pattern[0]) and dfs(i + 1, k, used + len(pattern)):
                    return True
                for p in pattern:
                    demand[p] -= 1
            return False

        try:
            return dfs(0, 0, 0)
        except _OutOfBudget:
            return None
        finally:
            self.season_left -= nodes


class _Kept:
    """What :class:`_Pooled` derives from its values, points, legs and items a place alone, filled as it is
    first needed: the minimal patterns and the relaxation's columns by class, the price, span and pattern
    tables. Kept once a process by :func:`_kept`: a season's next version (after a result) mostly has
    the same values (:func:`pooled_for` rounds the encoding's base up to a power of two), and a worker
    computing it again starts from them (on the benchmark's season, 6 % of the time of a run)."""

    __slots__ = ("by_class", "blocks", "prices", "span", "patterns")

    def __init__(self):
        self.by_class, self.blocks = {}, {}
        self.prices = self.span = self.patterns = None


@lru_cache(maxsize=16)
def _kept(values, pts, legs, per_place) -> _Kept:
    return _Kept()


@lru_cache(maxsize=16)
def _price_shape(pts, legs, per_place):
    """What the price tables hold that is the same for every season of one points table, number of legs
    and items a place (kept once a process): every multiset of at most ``legs`` places, padded with
    ``width`` (worth nothing, free), ascending by gain, that is by points and then place counts (the
    order of the encoded gains), and per family of ``PRICE_FAMILIES`` (the caps the places' prices
    make worth trying: each price, and the first and last caps; the cheapest price from each pattern
    on; the supply's capped price by M)."""
    width = len(pts)
    pats = [c for c in combinations_with_replacement(range(width + 1), legs) if c[0] < width]
    pats.sort(key=lambda c: (sum(pts[p] for p in c if p < width), tuple(c.count(q) for q in range(width))))
    columns = [[c[i] for c in pats] for i in range(legs)]
    tables = []
    for k, a in PRICE_FAMILIES:
        cost = [-(-(v + a) // k) for v in pts] + [0]
        prices = list(map(sum, zip(*(map(cost.__getitem__, col) for col in columns), strict=True)))
        dearest = legs * max(cost) + 1
        cheapest = list(accumulate(reversed(prices), min, initial=dearest))[::-1]
        supply = [per_place * sum(min(m, c) for c in cost) for m in range(dearest + 1)]
        caps = frozenset({1, dearest, *cost[:width]})
        tables.append((caps, cheapest, supply))
    return pats, tables


@lru_cache(maxsize=16)
def _minimal_shape(pts, legs, per_place):
    """What :meth:`_Pooled.minimal` reads that is the same for every season of one points table (kept once
    a process), per pattern in the order of :func:`_price_shape`: its places (1-based), its rank in the
    order of ``minimal`` (fewest items, then the worst places first), the place (0-based) of its item
    whose worsening by a place costs the least gain (the smallest points step, and of equal steps the
    worst place: the encoded value's place counts step less there), and its column of
    :meth:`_Pooled.class_block`."""
    width = len(pts)
    pats = _price_shape(pts, legs, per_place)[0]
    places = [tuple(p + 1 for p in c if p < width) for c in pats]
    order = sorted(range(len(places)), key=lambda j: (len(places[j]), -sum(places[j]), places[j]))
    rank = [0] * len(places)
    for r, j in enumerate(order):
        rank[j] = r
    after = [*pts, 0]
    smallest = [max((p - 1 for p in t), key=lambda p: (after[p + 1] - after[p], p)) for t in places]
    columns = {
        t: ([p - 1 for p in sorted(set(t))], [float(t.count(p)) for p in sorted(set(t))]) for t in places
    }
    return places, rank, smallest, columns


class _OutOfBudget(Exception):
    pass
