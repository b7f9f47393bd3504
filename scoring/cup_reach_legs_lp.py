"""The fixed pairs' outcome and bound from a linear relaxation leg by leg (``scoring.cup_reach`` docstring,
step 10): where the construction of ``scoring.cup_reach_legs`` falls short of the pooled model's upper
bound, the relaxation below, solved by HiGHS (``highspy``), finds an outcome that reaches it, or a bound
that knows the players.

Pure: no Django. Its columns are the entrants' *options*: one of an entrant's minimal patterns with each of
its items in a leg of its own (a leg's demand of place p is met by place p or a better one), and for the
newcomers of one need (new players: no one to share a leg with) one column an option counting how many of
them take it. Its rows:

* an entrant takes at most one option (the newcomers of a need: at most their number);
* in each leg, for each place q, the demands asking q or better are at most ``cap * q`` (Hall's condition
  for the places: then each demand gets its place or a better one);
* a player's pairs take each leg at most once between them;
* the pairs of an odd set of players (the players of an odd cycle of pairs, :func:`odd_sets`) take each
  leg at most (size - 1) / 2 times between them: the pairs playing a leg share no player, so they are a
  matching of the players, and these *blossom* rows cut the half pairs the rows of single players allow
  (three pairs of a triangle at a half each); on the benchmark's club seasons they made 12 more of 1,329
  pair rows exact;
* at least ``want`` options in all (:func:`by_relaxation`; none in :func:`upper_bound`).

Whole amounts of it are exactly the outcomes of the legs left (each pair passing takes a minimal pattern
or better, in legs of its own). :func:`by_relaxation` costs the items taken (fewest items leave the most
places to the others); the solver's floating-point answer is only a guide: a solution whose amounts are
whole numbers is checked in integers against every row (``scoring.cup_reach_legs.is_outcome``) before it
counts. Else it branches, depth first: on the column whose fraction is nearest a half, first with its
amount rounded up as a lower bound, then (where that branch has no whole solution) with its amount
rounded down as an upper bound, solved again each time; at most ``DIVES`` solves. Given solves enough it
misses no outcome (the tests check it against the search); the budget makes it a heuristic, like the
one-way *dive* it replaced, which rounded the largest fraction up and turned back once only (on the
benchmark's club seasons it left 6 % of the pair rows a bound where this leaves 1.4 %). Each solve is over
the columns its prices ask for (:class:`_Master`, column generation: a 40-player club season's largest
relaxations have 3,000-4,000 columns, of which a fifth to a third come in; HiGHS took 24 ms a solve over
every column there, 3-5 ms so, its rounds of pricing included). The first
solution's amounts also order the options of the depth-first search (``scoring.cup_reach_legs.by_search``)
where the branching fails. :func:`upper_bound` maximises the options taken and proves its bound from the
dual prices in integers. :func:`exact` maximises them with whole amounts (HiGHS's branch and cut), for the
cup's background refinement of the rows the rest leaves a bound.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import permutations

from scoring.cup_reach_legs import Option, is_outcome
from scoring.cup_reach_lp import OPTIONS, SCALE

DIVES = 20  # relaxations solved at most by one branching (by_relaxation)
# by_relaxation's columns (_Master): at first the FIRST_COLUMNS cheapest of each entrant (or newcomers'
# need), then at most PRICED a round of those whose reduced cost the solution's prices make negative
FIRST_COLUMNS = 4
PRICED = 200
ARTIFICIAL = 1000.0  # the cost of a unit of the want met by no one: dearer than any outcome's items
ODD_CYCLE = 5  # the blossom rows: the players of odd cycles of at most this many (odd_sets)
ODD_SETS = 200  # and at most this many sets of them


@lru_cache(maxsize=4096)
def _columns_of(pattern, legs, width) -> tuple[tuple[Option, tuple[int, ...]], ...]:
    """Per option of ``pattern``: the option and its rows of the want and of Hall's condition (kept once a
    process: a few patterns serve every season of one table)."""
    out = []
    for option in options(pattern, legs):
        rows = [0]
        for g, p in option:
            rows.extend(range(1 + g * width + p - 1, 1 + (g + 1) * width))
        out.append((option, tuple(rows)))
    return tuple(out)


def options(pattern, legs) -> list[Option]:
    """Every way of putting the items of ``pattern`` (places, 1-based) in legs of their own."""
    seen = {tuple(sorted(zip(gs, pattern, strict=True))) for gs in permutations(range(legs), len(pattern))}
    return sorted(seen)


def odd_sets(entrants, shared) -> list[frozenset]:
    """The players of each cycle of ``ODD_CYCLE`` players or fewer, an odd number of them (each two next
    to each other partners in a pair of ``entrants``; ``shared``: the players of more than one pair), at
    most ``ODD_SETS`` of them, in a fixed order. In a leg the pairs playing share no player: of the pairs
    of an odd set S of players at most (|S| - 1) / 2 play a leg (the matchings' *blossom* inequality),
    which the rows of single players allow half a pair more (a triangle of pairs at a half each)."""
    adjacent: dict[object, set] = {}
    for _, players in entrants:
        if len(players) == 2 and players <= shared:
            a, b = players
            adjacent.setdefault(a, set()).add(b)
            adjacent.setdefault(b, set()).add(a)
    order = {q: n for n, q in enumerate(sorted(adjacent, key=repr))}
    found: set[frozenset] = set()

    def extend(path):
        for q in adjacent[path[-1]]:
            if q == path[0] and len(path) % 2 and len(path) >= 3:
                found.add(frozenset(path))
            elif order[q] > order[path[0]] and q not in path and len(path) < ODD_CYCLE:
                extend(path + [q])

    for start in order:
        extend([start])
        if len(found) >= ODD_SETS:
            break
    return sorted(found, key=lambda members: sorted(order[q] for q in members))[:ODD_SETS]


class _Model:
    """The relaxation's columns and rows for ``entrants`` (see the module docstring). Rows: want (0),
    Hall's condition by leg and place (1 + leg * width + place - 1), the groups, (odd set, leg), then
    (player, leg) for the players of more than one pair."""

    def __init__(self, entrants, minimal, legs, cap, width):
        groups: dict[object, list[int]] = {}
        for k, (need, players) in enumerate(entrants):
            groups.setdefault(("new", need) if not players else k, []).append(k)
        hall_rows = 1 + legs * width
        group_row = {group: hall_rows + r for r, group in enumerate(groups)}
        player_row: dict[tuple[object, int], int] = {}
        shared = {q for q, n in Counter(q for _, players in entrants for q in players).items() if n > 1}
        sets = odd_sets(entrants, shared)
        odd_row = hall_rows + len(groups)  # (odd set s, leg g): odd_row + s * legs + g
        inside = {}  # entrant -> the odd sets holding both its players
        for s, members in enumerate(sets):
            for k, (_, players) in enumerate(entrants):
                if players and players <= members:
                    inside.setdefault(k, []).append(odd_row + s * legs)
        first_player_row = odd_row + len(sets) * legs
        columns: list[tuple[object, Option]] = []
        starts, rows = [0], []
        for group, ks in groups.items():
            need, players = entrants[ks[0]]
            mine = sorted(players & shared, key=repr)  # rows numbered alike every run
            for pattern in minimal(need):
                for option, its_rows in _columns_of(pattern, legs, width):
                    columns.append((group, option))
                    rows += its_rows
                    rows.append(group_row[group])
                    for base in inside.get(group, ()):
                        rows.extend(base + g for g, _ in option)
                    for q in mine:
                        for g, _ in option:
                            r = player_row.get((q, g))
                            if r is None:
                                r = player_row[q, g] = first_player_row + len(player_row)
                            rows.append(r)
                    starts.append(len(rows))
        self.groups, self.group_row, self.columns = groups, group_row, columns
        self.starts, self.rows = starts, rows
        self.upper = [float(len(groups[group])) for group, _ in columns]
        # the rows' upper bounds, whole numbers (the want row has none: 0 here)
        self.row_upper = (
            [0]
            + [cap * q for _ in range(legs) for q in range(1, width + 1)]
            + [len(ks) for ks in groups.values()]
            + [(len(members) - 1) // 2 for members in sets for _ in range(legs)]
            + [1] * len(player_row)
        )

    def row_bounds(self, want) -> tuple[list[float], list[float]]:
        """The rows' lower and upper bounds: the want row at least ``want``, the others at most theirs."""
        import highspy

        inf = highspy.kHighsInf
        lower = [float(want)] + [-inf] * (len(self.row_upper) - 1)
        return lower, [inf] + [float(b) for b in self.row_upper[1:]]

    def lp(self, want, costs):
        """A solver holding the relaxation over every column."""
        import highspy

        n, m = len(self.columns), len(self.row_upper)
        lp = highspy.HighsLp()
        lp.num_col_, lp.num_row_ = n, m
        lp.col_cost_ = costs
        lp.col_lower_, lp.col_upper_ = [0.0] * n, self.upper
        lp.row_lower_, lp.row_upper_ = self.row_bounds(want)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        lp.a_matrix_.start_, lp.a_matrix_.index_ = self.starts, self.rows
        lp.a_matrix_.value_ = [1.0] * len(self.rows)
        solver = _highs()
        solver.passModel(lp)
        return solver


def _highs():
    """A HiGHS solver with ``cup_reach_lp``'s options, but the dual simplex: a branch changes bounds (and
    column generation adds columns), which keeps the last basis dual feasible (half the time of the
    primal simplex of cup_reach_lp's options on the branchings of small seasons)."""
    import highspy

    solver = highspy._core._Highs()
    for option, value in OPTIONS:
        solver.setOptionValue(option, value)
    solver.setOptionValue("simplex_strategy", 1)
    return solver


def _column_sums(rows, starts, prices):
    """Each column's ``prices`` summed over its rows (``rows`` and ``starts``: the columnwise matrix of
    ones, numpy arrays)."""
    import numpy as np

    return np.add.reduceat(prices[rows], starts[:-1])


class _Master:
    """The relaxation of a :class:`_Model` for :func:`by_relaxation` over some of its columns, the others
    added where the solution's prices ask for them (column generation): a solve ends at the optimum over
    every column, reached over a fifth to a third of them. An artificial column meets the want at
    ``ARTIFICIAL`` a unit, so the first columns always have a solution; an optimum that keeps some of it
    is taken for none (the want cannot be met; an option costs at most ``legs``, so only a relaxation
    whose cost grows by more than ``ARTIFICIAL`` for one more option could be mistaken, and a mistake
    only leaves a row a bound: what is taken is checked in integers, ``is_outcome``)."""

    def __init__(self, model, want, costs):
        import highspy
        import numpy as np

        self.rows = np.asarray(model.rows, dtype=np.int32)
        self.starts = np.asarray(model.starts, dtype=np.int64)
        self.costs, self.upper = np.asarray(costs), np.asarray(model.upper)
        m = len(model.row_upper)
        self.optimal = highspy.HighsModelStatus.kOptimal
        solver = self.solver = _highs()
        row_lower, row_upper = map(np.array, model.row_bounds(want))
        none = np.zeros(0, dtype=np.int32)
        solver.addRows(m, row_lower, row_upper, 0, np.zeros(m, dtype=np.int32), none, np.zeros(0))
        solver.addCol(ARTIFICIAL, 0.0, highspy.kHighsInf, 1, np.zeros(1, dtype=np.int32), np.ones(1))
        self.inside = np.zeros(len(costs), dtype=bool)
        self.order = np.zeros(0, dtype=np.int64)  # the columns in the solver, after the artificial one
        first, seen = [], Counter()
        for j, (group, _) in enumerate(model.columns):
            if seen[group] < FIRST_COLUMNS:
                seen[group] += 1
                first.append(j)
        self._add(np.asarray(first, dtype=np.int64), np.zeros(len(costs)), self.upper)

    def _add(self, new, lower, upper) -> None:
        """Put the columns ``new`` in the solver, within the bounds ``lower`` and ``upper``."""
        import numpy as np

        lengths = self.starts[new + 1] - self.starts[new]
        index = np.concatenate([self.rows[self.starts[j] : self.starts[j + 1]] for j in new.tolist()])
        starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int32)
        columns = (len(new), self.costs[new], lower[new], upper[new])
        self.solver.addCols(*columns, len(index), starts, index, np.ones(len(index)))
        self.inside[new] = True
        self.order = np.concatenate((self.order, new))

    def solve(self, lower, upper):
        """The amounts of every column at the optimum within the bounds ``lower`` and ``upper``, or None
        where there is none. A column held above 0 is put in the solver first."""
        import numpy as np

        held = np.flatnonzero((lower > 0) & ~self.inside)
        if len(held):
            self._add(held, lower, upper)
        solver, order = self.solver, self.order
        where = np.arange(1, len(order) + 1, dtype=np.int32)
        solver.changeColsBounds(len(order), where, lower[order], upper[order])
        while True:
            solver.run()
            if solver.getModelStatus() != self.optimal:
                return None
            solution = solver.getSolution()
            reduced = self.costs - _column_sums(self.rows, self.starts, np.asarray(solution.row_dual))
            new = np.flatnonzero((reduced < -1e-9) & ~self.inside & (upper > 0))
            if not len(new):
                break
            self._add(new[np.argsort(reduced[new], kind="stable")][:PRICED], lower, upper)
        values = np.asarray(solution.col_value)
        if values[0] > 1e-6:  # the want is met only by the artificial column
            return None
        amounts = np.zeros(len(self.costs))
        amounts[self.order] = values[1:]
        return amounts


def upper_bound(entrants, minimal, legs, cap, width) -> int | None:
    """:func:`sized_bound` without the size."""
    return sized_bound(entrants, minimal, legs, cap, width)[0]


def sized_bound(entrants, minimal, legs, cap, width) -> tuple[int | None, int]:
    """(the bound, the relaxation's nonzeros: about what its solve costs). The bound: at most how many of
    ``entrants`` can pass at once (None when the solver finds no optimum): the relaxation's optimum of
    the most options taken, proved by its dual prices in integers. Any prices y >= 0 with every column's
    rows summing to 1 or more bound it by the sum of the rows' bounds times y; the solver's prices are
    rounded up to millionths (a column's sum only grows) and each group's price raised where a column of
    it still falls short (the group's row is in all its columns), then the bound is that sum, rounded
    down, all in integers."""
    import highspy
    import numpy as np

    model = _Model(entrants, minimal, legs, cap, width)
    if not model.columns:
        return 0, 0
    # over every column: the most options taken prices nearly every column in, which column generation
    # (by_relaxation's _Master) reaches in more time than one solve
    solver = model.lp(0, [-1.0] * len(model.columns))
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None, len(model.rows)
    prices = np.maximum(0, np.ceil(-np.asarray(solver.getSolution().row_dual) * SCALE)).astype(np.int64)
    prices[0] = 0  # the want row: none here
    sums = _column_sums(np.asarray(model.rows), np.asarray(model.starts), prices)
    # a group's row is in all its columns: raised by the most any of them falls short
    group_rows = np.array([model.group_row[group] for group, _ in model.columns])
    raised = np.zeros(len(prices), dtype=np.int64)
    np.maximum.at(raised, group_rows, SCALE - sums)
    prices += raised
    bounds = np.asarray(model.row_upper, dtype=np.int64)
    return int(prices @ bounds) // SCALE, len(model.rows)


def by_relaxation(
    entrants, minimal, legs, cap, width, want, dives=None
) -> tuple[dict[int, Option] | None, dict, int]:
    """(the option each of ``want`` entrants or more takes in a real outcome, or None; the first
    relaxation's amounts by entrant and option, for ``by_search``'s ``prefer``; the relaxations solved,
    at most ``dives``, ``DIVES`` by default). ``entrants``: (need, players); ``minimal(need)``: the
    minimal patterns."""
    import numpy as np  # imported when first needed: most seasons are decided without it

    model = _Model(entrants, minimal, legs, cap, width)
    columns, groups = model.columns, model.groups
    n = len(columns)
    if not n:
        return None, {}, 0
    master = _Master(model, want, [float(len(option)) for _, option in columns])
    prefer: dict[int, dict[Option, float]] = {}
    # depth first: a column's bounds raised to its amount rounded up, and where that has no solution, kept
    # at its amount rounded down (the branch waiting on the stack)
    stack = [(np.zeros(n), np.array(model.upper))]
    solves = 0
    while stack and solves < (dives or DIVES):
        lower, upper = stack.pop()
        amounts = master.solve(lower, upper)
        solves += 1
        if amounts is None:
            continue
        if solves == 1:
            for j in np.flatnonzero(amounts > 1e-9).tolist():
                group, option = columns[j]
                for k in groups[group]:
                    prefer.setdefault(k, {})[option] = float(amounts[j])
        whole = np.floor(amounts + 1e-7)
        fraction = np.where(amounts - whole > 1e-6, amounts - whole, 0.0)
        if not fraction.any():
            taken = _taken(columns, whole.astype(int).tolist(), groups)
            if is_outcome(taken, entrants, legs, cap, width, want):
                return taken, prefer, solves
            continue
        j = int(np.argmin(np.where(fraction > 0, np.abs(fraction - 0.5), 1.0)))  # nearest a half, the first
        down = upper.copy()
        down[j] = whole[j]
        stack.append((lower, down))
        up = lower.copy()
        up[j] = whole[j] + 1
        stack.append((up, upper))
    return None, prefer, solves


def _taken(columns, whole, groups) -> dict[int, Option]:
    """The option of each entrant taking one: a newcomers' column's count goes to that many of them."""
    taken: dict[int, Option] = {}
    left = {group: list(ks) for group, ks in groups.items()}
    for (group, option), times in zip(columns, whole, strict=True):
        for _ in range(times):
            if left[group]:
                taken[left[group].pop()] = option
    return taken


def exact(entrants, minimal, legs, cap, width, nodes) -> tuple[dict[int, Option] | None, int | None]:
    """(the options of the most of ``entrants`` passing at once in a real outcome found, or None; at most
    how many can, or None where unproved): the relaxation over every column with whole amounts, the most
    options taken, solved by HiGHS's branch and cut (presolve, cuts, at most ``nodes`` nodes, one thread:
    the same answer every run). Its outcome is checked in integers (``is_outcome``) like every other; its
    bound is HiGHS's proof, in floating point with its tolerances (1e-6) on a model of zeros and ones
    with whole bounds, rounded down (the count is whole): the one place a count rests on the solver's
    arithmetic. Seconds a row on the 24-player dense club seasons, so it is not run while a page waits:
    ``scoring.cup_reach.reach``'s ``exact_nodes``, used by the cup's background refinement."""
    import highspy
    import numpy as np

    model = _Model(entrants, minimal, legs, cap, width)
    n = len(model.columns)
    if not n:
        return {}, 0
    solver = model.lp(0, [-1.0] * n)
    for option, value in (("presolve", "on"), ("mip_max_nodes", nodes), ("simplex_iteration_limit", 10**9)):
        solver.setOptionValue(option, value)
    solver.changeColsIntegrality(
        n, np.arange(n, dtype=np.int32), np.full(n, highspy.HighsVarType.kInteger, dtype=np.uint8)
    )
    solver.run()
    info = solver.getInfo()
    upper = None
    if solver.getModelStatus() in (
        highspy.HighsModelStatus.kOptimal,
        highspy.HighsModelStatus.kSolutionLimit,
    ):
        upper = int(np.floor(-info.mip_dual_bound + 1e-6))
    taken = None
    if info.primal_solution_status == 2:  # a feasible solution: checked in integers
        whole = np.maximum(0, np.round(np.asarray(solver.getSolution().col_value))).astype(int).tolist()
        taken = _taken(model.columns, whole, model.groups)
        if not is_outcome(taken, entrants, legs, cap, width, len(taken)):
            taken = None
    return taken, upper
