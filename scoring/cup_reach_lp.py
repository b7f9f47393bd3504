"""The linear relaxation of the pooled model (``scoring.cup_reach`` docstring, step 8): where the bounds and
the constructions of ``scoring.cup_reach_pool`` leave a gap, the relaxation, solved by HiGHS (``highspy``),
gives both sides at once.

Pure: no Django. The solver's floating-point answer is only a guide, never trusted as a count:

* the upper bound is the prices bound of step 6 under the relaxation's dual prices, rounded to integers
  and checked in integer arithmetic (any prices give a true bound, so rounding cannot make it wrong);
* the lower bound is a real outcome: the relaxation's solution rounded down (its asks checked against the
  prefix condition of step 4) and the needs it leaves served by its fractional columns asked once more
  each, the largest fractions first, where they keep that condition (:func:`_rounded_up`), else by a
  depth-first search over minimal patterns (:func:`_completes`, ``SHORT_NODES`` nodes); where that
  search fails, a *dive* (:func:`_dive`): fix the whole amounts of the solution, or if there are none
  its largest amount as one, and solve the relaxation again on the needs and items left, until the upper
  bound is served or the relaxation says it cannot be; where that fails too, the search again with all
  its nodes.

The relaxation is solved first over classes of needs (:func:`_classes`), then, where that falls short,
with a row for each need value. On the benchmark's seasons (``bench/cup_reach_speed.py``, and twenty
seeds of it tried) the relaxation's value, rounded down, was the most that can pass every time it was
needed, and one of these ways reached it; where none does, the row keeps its bounds and says it is not
exact.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import Counter
from functools import lru_cache
from itertools import accumulate, groupby

SCALE = 10**6  # the prices' unit: a pattern of price SCALE or more serves no need at a profit
SHORT_NODES = 600  # nodes of the first, short completing search
DIVES = 30  # relaxations solved at most by one dive
# HiGHS quiet; no presolve: on these small problems it costs more than it saves; one thread: a simplex of
# a problem this size is serial anyway, and a web worker should not start a pool of threads; the primal
# simplex (strategy 4): on the benchmark's relaxations it takes about 60 % of the dual's iterations and
# half its time, and with the classes and the dive every row of twenty seasons stays exact; at most
# ITERATIONS simplex iterations (the benchmark's seasons take 124 at most, 37 as a rule): a solve that
# would go on (a cycling simplex) ends without an optimum, which leaves the row to the search and the
# safe bound instead of holding a web worker
ITERATIONS = 5000
OPTIONS = (
    ("output_flag", False),
    ("presolve", "off"),
    ("threads", 1),
    ("simplex_strategy", 4),
    ("simplex_iteration_limit", ITERATIONS),
)


def lp_serves(pooled, needs, budget) -> tuple[int, int] | None:
    """(a count a real outcome serves, a count none passes) for ``needs`` (ascending, encoded) from the
    relaxation, or None when the solver finds no optimum. ``budget``: nodes of the completing search.

    The relaxation over the needs' classes (:func:`_classes`) first: the same linear programme, smaller.
    Where its solution, rounded and completed, does not reach its bound, the relaxation with a row for
    each need value: the same optimum, reached at another solution that rounds otherwise."""
    merged = _classes(pooled, needs)
    got = _serves(pooled, needs, merged, budget)
    if got is not None and got[0] < got[1] and len(merged) < len(set(needs)):
        again = _serves(pooled, needs, Counter(needs), budget)
        if again is not None:
            got = max(got[0], again[0]), min(got[1], again[1])
    return got


def _serves(pooled, needs, classes, budget) -> tuple[int, int] | None:
    solved = _relaxation(pooled, classes)
    if solved is None:
        return None
    columns, amounts, prices, cheapest = solved
    high = _bound(pooled.per_place * sum(prices), [classes[d] for d in columns.needs], cheapest)
    served, asked, rest = _rounded_down(pooled, classes, columns, amounts)
    # the fractional columns rounded up where they fit; else a short search from the rounded-down
    # solution: where it fails, the dive mostly succeeds for less than the long search costs
    if served >= high or _rounded_up(pooled, columns, amounts, asked, high - served, rest):
        return high, high
    rest = rest[: high - served]
    if _completes(pooled, rest, asked, SHORT_NODES):
        return high, high
    dived = _dive(pooled, classes, high)
    if dived >= high or _completes(pooled, rest, asked, budget):
        return high, high
    return max(served, dived), high


def _rounded_up(pooled, columns, amounts, asked, more, rest) -> bool:
    """Can ``more`` of the needs ``rest`` be served besides the rounded-down solution (its asks per place
    in ``asked``, left unchanged) by asking the columns with a fractional amount, the largest part first,
    once more each while their need has needs left and the prefix condition of step 4 holds?"""
    import numpy as np

    left_of = Counter(rest)
    asked = list(asked)
    amounts = np.asarray(amounts)
    fractions = amounts - np.floor(amounts + 1e-7)
    some = np.flatnonzero(fractions > 1e-6)
    for j in some[np.lexsort((-some, -fractions[some]))].tolist():  # the largest first (of two, the later)
        d, pattern = columns[j]
        if not left_of[d]:
            continue
        for place in pattern:
            asked[place] += 1
        if _meets(asked, pooled.per_place):
            left_of[d] -= 1
            more -= 1
            if not more:
                return True
        else:
            for place in pattern:
                asked[place] -= 1
    return False


def _classes(pooled, needs) -> Counter:
    """The needs as the relaxation's classes: needs with the same minimal patterns (one
    ``pooled.minimal_class``) have the same columns, so they are one row, counted under the hardest of
    them (any pattern serving one serves all). The needs ascend: so do their classes."""
    count = Counter()
    for _, run in groupby(needs, pooled.minimal_class):
        run = list(run)
        count[run[-1]] = len(run)
    return count


def _dive(pooled, classes, high) -> int:
    """Needs served by fixing the relaxation's whole amounts (or, if none, its largest amount as one) and
    solving it again on the needs and items left, until ``high`` are served, the relaxation says they
    cannot be, or ``DIVES`` relaxations are solved. Each step keeps the prefix condition: a real outcome."""
    left_of = Counter(classes)
    asked = [0] * (pooled.width + 1)
    served = 0
    for _ in range(DIVES):
        if served >= high:
            break
        solved = _relaxation(pooled, +left_of, asked, priced=False)
        if solved is None:
            break
        columns, amounts = solved[:2]
        if served + int(amounts.sum() + 1e-6) < high:
            break
        got = _take_whole(columns, amounts, left_of, asked)
        if not got:
            j = int(amounts.argmax())  # the first of the largest
            got = _take_whole([columns[j]], [1.0], left_of, asked)
        if not _meets(asked, pooled.per_place):  # the solver's amounts broke it: not taken
            break
        served += got
    return served


def _relaxation(pooled, classes, asked=None, priced=True):
    """Solve max sum x over (need, minimal pattern) columns under each need's count and each place's
    items (a place's items may stand in for a worse place's: the shift columns), by HiGHS. Returns the
    columns (:class:`_Columns`), their amounts, the places' dual prices (integers, SCALE the unit,
    non-increasing) and for each row of a need the cheapest price under them of its columns' patterns
    (for :func:`_bound`; both None unless ``priced``), or None."""
    import highspy  # imported when first needed: most seasons are decided without it
    import numpy as np

    width, per_place = pooled.width, pooled.per_place
    needs = sorted(classes)
    k = len(needs)
    # rows: the places' items (0 .. width - 1), then the needs' counts (width ..): each class's columns
    # kept ready once a season (:meth:`_Pooled.class_block`), the need's row put in where it says -1
    pats_of, index, value, length, patterns = [], [], [], [], []
    for d in needs:
        pats, idx, val, lens = pooled.class_block(d)
        pats_of.append(pats)
        index.append(idx)
        value.append(val)
        length.append(lens)
        patterns.append(len(pats))
    columns = _Columns(needs, pats_of)
    n = len(columns)
    shift, shift_index, shift_value, shift_length = _shift_columns(width)
    index = np.concatenate([*index, shift_index])
    index[index < 0] = np.repeat(np.arange(width, width + k, dtype=np.int32), patterns)
    start = np.zeros(n + shift + 1, np.int32)
    np.cumsum(np.concatenate([*length, shift_length]), out=start[1:])
    total, rows = n + shift, width + k
    cost = np.zeros(total)
    cost[:n] = -1.0
    taken = asked[1:] if asked else [0] * width
    row_upper = np.array([per_place - t for t in taken] + [classes[d] for d in needs], dtype=np.float64)
    values = np.concatenate([*value, shift_value])
    solver = _solver()
    inf = highspy.kHighsInf
    solver.passModel(
        total, rows, len(index), int(highspy.MatrixFormat.kColwise), int(highspy.ObjSense.kMinimize), 0.0,
        cost, np.zeros(total), np.full(total, inf), np.full(rows, -inf), row_upper,
        start[:-1], index, values, np.zeros(total, np.int32),
    )  # fmt: skip
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    solution = solver.getSolution()
    amounts = np.asarray(solution.col_value[:n])
    if not priced:
        return columns, amounts, None, None
    prices = [min(SCALE, max(0, round(-SCALE * y))) for y in solution.row_dual[:width]]
    for place in range(width - 2, -1, -1):  # a better place never costs less (rounding kept so)
        prices[place] = max(prices[place], prices[place + 1])
    # each column's price (its items' prices, its need's row at 0), then each need's cheapest column: sums
    # of whole numbers far below 2**53, so exact in floating point
    by_row = np.zeros(rows)
    by_row[:width] = prices
    cheapest = []
    if n:  # every need has a pattern (a need only a pattern beats is a candidate)
        priced = np.add.reduceat(values[: start[n]] * by_row[index[: start[n]]], start[:n])
        cheapest = np.minimum.reduceat(priced, columns.starts[:-1]).round().astype(np.int64).tolist()
    return columns, amounts, prices, cheapest


class _Columns:
    """The relaxation's columns, (need, minimal pattern), needs ascending, each need's patterns in the order
    of ``_Pooled.minimal``: ``columns[j]`` looked up where it is read (few are: those in the solution)."""

    __slots__ = ("needs", "patterns", "starts")

    def __init__(self, needs, patterns):
        self.needs, self.patterns = needs, patterns  # the need of each row; its patterns
        self.starts = [0, *accumulate(map(len, patterns))]  # each row's first column

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, j):
        r = bisect_right(self.starts, j) - 1
        return self.needs[r], self.patterns[r][j - self.starts[r]]


_local = threading.local()


def _solver():
    """A HiGHS solver with ``OPTIONS`` set, one a thread (made once, and again if ``OPTIONS`` is another
    tuple: a model passed replaces the last). The solver's core: the public ``highspy.Highs`` prints a
    banner to standard output when first made, and adds callbacks nothing here uses."""
    made = getattr(_local, "solver", None)
    if made is None or made[0] is not OPTIONS:
        import highspy

        made = _local.solver = (OPTIONS, highspy._core._Highs())
        for option, value in OPTIONS:
            made[1].setOptionValue(option, value)
    return made[1]


@lru_cache(maxsize=8)
def _shift_columns(width):
    """The shift columns (an item of a place used as one of the next place): how many, their rows, values
    and lengths."""
    import numpy as np

    shift = width - 1
    index = np.array([r for place in range(shift) for r in (place, place + 1)], np.int32)
    value = np.array([1.0, -1.0] * shift)
    return shift, index, value, np.full(shift, 2, np.int32)


def _bound(budget, counts, cheapest) -> int:
    """The prices bound of the docstring (step 6): the m easiest needs are served only if the sum over
    them of the cheapest pattern serving each (capped at SCALE) is at most the price of every item. Over
    rows of needs ascending, ``counts`` needs a row, each row's cheapest pattern ``cheapest``
    (non-decreasing; capped here), the items' price ``budget``. In integers: exact."""
    spent = served = 0
    for count, price in zip(counts, cheapest, strict=True):
        price = min(SCALE, price)
        if spent + price * count > budget:  # then price > 0
            return served + (budget - spent) // price
        spent += price * count
        served += count
    return served


def _rounded_down(pooled, classes, columns, amounts):
    """The relaxation's solution rounded down, as a real outcome: (needs served, the items asked of each
    place, 1-based, the needs not served, ascending). None served if the solver's amounts break the
    prefix condition of step 4."""
    left_of = Counter(classes)
    asked = [0] * (pooled.width + 1)
    served = _take_whole(columns, amounts, left_of, asked)
    if not _meets(asked, pooled.per_place):
        return 0, [0] * (pooled.width + 1), sorted(classes.elements())
    return served, asked, sorted(left_of.elements())


def _take_whole(columns, amounts, left_of, asked) -> int:
    """Ask each column's pattern for the whole of its amount (at most its need's count left in
    ``left_of``), into ``asked``: how many needs that serves."""
    import numpy as np

    served = 0
    amounts = np.asarray(amounts)
    for j in np.flatnonzero(amounts >= 0.999999).tolist():  # most columns are not in the solution
        amount = amounts[j]
        d, pattern = columns[j]
        times = min(int(amount + 1e-7), left_of[d])
        if times > 0:
            left_of[d] -= times
            served += times
            for place in pattern:
                asked[place] += times
    return served


def _meets(asked, per_place) -> bool:
    """The prefix condition of step 4: at most ``per_place * q`` asks for the places 1..q, every q."""
    used = 0
    for q, count in enumerate(asked):
        used += count
        if used > per_place * q:
            return False
    return True


def _completes(pooled, needs, asked, budget) -> bool:
    """Can every need (ascending) be served besides the items ``asked`` (per place, 1-based, meeting the
    prefix condition)? Depth-first, hardest need first, over its minimal patterns; level needs take their
    patterns in a fixed order and failed states are remembered. False also when ``budget`` nodes pass."""
    width, per_place = pooled.width, pooled.per_place
    order = needs[::-1]
    asked = list(asked)
    failed = set()
    nodes = 0

    def fits(first) -> bool:
        used = sum(asked[:first])
        for place in range(first, width + 1):
            used += asked[place]
            if used > per_place * place:
                return False
        return True

    def dfs(i, last) -> bool:
        nonlocal nodes
        if i == len(order):
            return True
        nodes += 1
        if nodes > budget:
            return False
        d = order[i]
        start = last if i and order[i - 1] == d else 0
        state = (i, start, tuple(asked))
        if state in failed:
            return False
        patterns = pooled.minimal(d)
        for k in range(start, len(patterns)):
            pattern = patterns[k]
            for place in pattern:
                asked[place] += 1
            if fits(pattern[0]) and dfs(i + 1, k):
                return True
            for place in pattern:
                asked[place] -= 1
        failed.add(state)
        return False

    return dfs(0, 0)
